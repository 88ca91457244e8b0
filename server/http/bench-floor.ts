import { createHash } from 'node:crypto';
import postgres from 'postgres';
import { getEnv } from '@/server/env';
import { answerJson } from '@/server/core/answer';

/**
 * bench/records' floor of Next with the records SQL: the same statements as bench/records-ceiling.ts (key
 * and actor in one query, then the read-scoped records of a type) through postgres.js, inside a route
 * handler of the production build. The app's route minus this is our code's cost. Exists only with
 * CAREBASE_BENCH_ROUTES=1 (the benchmarks); otherwise 404.
 */
const KEY = Symbol.for('carebase.bench-floor.sql');
type G = typeof globalThis & { [KEY]?: postgres.Sql };
const pool = () => ((globalThis as G)[KEY] ??= postgres(getEnv().DATABASE_URL!, { max: getEnv().DB_POOL_MAX, onnotice: () => {} }));

type Row = { id: number; type: string; member_id: number; fields: unknown; created_at: Date; updated_at: Date };

export async function recordsFloor(request: Request): Promise<Response> {
  const env = getEnv();
  if (!env.CAREBASE_BENCH_ROUTES || !env.DATABASE_URL) return new Response(null, { status: 404 });
  const sql = pool();
  const url = new URL(request.url);
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  const actorId = Number(url.searchParams.get('actorId'));
  const type = url.searchParams.get('type') ?? '';
  const [key] = await sql<{ project_id: number; actor_id: number | null; actor_role: string | null }[]>`
    select k.project_id, k.integration_id, m.id as actor_id, m.role as actor_role
    from api_key k left join member m on m.project_id = k.project_id and m.id = ${actorId}
    where k.key_hash = ${createHash('sha256').update(token).digest('hex')} and k.revoked_at is null limit 1`;
  if (!key) return new Response(null, { status: 401 });
  if (key.actor_id === null) return new Response(null, { status: 400 });
  const rows = await sql<Row[]>`
    select id, project_id, type, member_id, fields, created_at, updated_at from record
    where project_id = ${key.project_id} and id > 0 and member_id = ${key.actor_id}
      and type in (select rt.type from record_type rt where rt.project_id = ${key.project_id}
                   and (rt.permissions -> ${key.actor_role}::text ->> 'read') = 'true')
      and type = ${type}
    order by id asc limit 101`;
  const body = rows.slice(0, 100).map((r) => ({ id: r.id, type: r.type, memberId: r.member_id, fields: r.fields, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() }));
  return answerJson(body);
}
