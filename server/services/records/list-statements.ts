import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { records } from '@/db/schema';

type Variant = { scoped: boolean; type: boolean; member: boolean };

const P = sql.placeholder;

/**
 * The record list is the hottest query of the API, so each filter combination is a prepared statement:
 * planned once per connection instead of once per request. Not the `fields` filter: a generic plan cannot
 * see the filter's selectivity (and would choose between the GIN index and the id order blindly). Its query
 * is built per request (see listRecords); postgres.js still prepares it by its text, and PostgreSQL's plan
 * cache has planned it with each value (custom plans, about 0.1 ms each: docs/decisions/0014-performance-log,
 * sixty-eighth pass).
 */
function build(db: Db, v: Variant, name: string) {
  const where: SQL[] = [eq(records.projectId, P('projectId')), gt(records.id, P('afterId'))];
  if (v.scoped) {
    where.push(
      eq(records.memberId, P('actorId')),
      sql`${records.type} in (select rt.type from record_type rt
        where rt.project_id = ${P('projectId')} and (rt.permissions -> ${P('role')}::text ->> 'read') = 'true')`,
    );
  }
  if (v.type) where.push(eq(records.type, P('type')));
  if (v.member) where.push(eq(records.memberId, P('memberId')));
  return db.select().from(records).where(and(...where)).orderBy(asc(records.id)).limit(P('limit')).prepare(name);
}

type Statement = ReturnType<typeof build>;
const cache = new WeakMap<Db, Map<string, Statement>>();

export function recordListStatement(db: Db, v: Variant): Statement {
  const name = `records_list_${Number(v.scoped)}${Number(v.type)}${Number(v.member)}`;
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let statement = byName.get(name);
  if (!statement) byName.set(name, (statement = build(db, v, name)));
  return statement;
}
