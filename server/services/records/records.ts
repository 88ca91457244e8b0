import { and, asc, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { canReadEverything } from '@/server/auth/guards';
import { records } from '@/db/schema';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { notFound } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { requireMemberInProject } from '@/server/services/members/members';
import { iso } from '@/server/core/time';
import { mergePatch } from '@/server/core/json';
import { recordReadScope, requireRecordWrite } from './access';
import { recordListStatement } from './list-statements';
import type { CreateRecordInput, ListRecordsQuery, RecordDto, UpdateRecordInput } from './schemas';

type Row = typeof records.$inferSelect;

const toDto = (r: Row): RecordDto => ({
  id: r.id,
  type: r.type,
  memberId: r.memberId,
  fields: r.fields,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export async function createRecord(ctx: ServiceContext, type: string, input: CreateRecordInput): Promise<RecordDto> {
  await requireRecordWrite(ctx, type, input.memberId);
  await requireMemberInProject(ctx, input.memberId);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(records)
      .values({ projectId: ctx.projectId, type, memberId: input.memberId, fields: input.fields })
      .returning();
    const dto = toDto(row!);
    await audit(tx, { action: 'create', resource: 'record', resourceId: dto.id, after: dto });
    return dto;
  });
}

/** Lists records the actor may read; `fields` matches by containment (served by the GIN index). */
export async function listRecords(ctx: ServiceContext, query: ListRecordsQuery, page: Page = FIRST_PAGE): Promise<Paged<RecordDto>> {
  const actor = ctx.actor;
  const scoped = !canReadEverything(actor);
  if (scoped && actor.kind !== 'member') return { items: [], next: null };
  if (page.newestFirst) return listNewestFirst(ctx, query, page);
  if (query.fields !== undefined) {
    const where: (SQL | undefined)[] = [
      eq(records.projectId, ctx.projectId),
      gt(records.id, page.afterId),
      recordReadScope(ctx),
      sql`${records.fields} @> ${JSON.stringify(query.fields)}::jsonb`,
    ];
    if (query.type) where.push(eq(records.type, query.type));
    if (query.memberId) where.push(eq(records.memberId, query.memberId));
    const rows = await ctx.db.select().from(records).where(and(...where)).orderBy(asc(records.id)).limit(fetchSize(page));
    return toPaged(rows, page, toDto);
  }
  const statement = recordListStatement(ctx.db as Db, { scoped, type: query.type !== undefined, member: query.memberId !== undefined });
  const rows = await statement.execute({
    projectId: ctx.projectId,
    afterId: page.afterId,
    limit: fetchSize(page),
    actorId: actor.kind === 'member' ? actor.memberId : undefined,
    role: actor.role,
    type: query.type,
    memberId: query.memberId,
  });
  return toPaged(rows, page, toDto);
}

/** The console's list: newest first, so a record just made is at the top (not prepared: the API's path is the hot one). */
async function listNewestFirst(ctx: ServiceContext, query: ListRecordsQuery, page: Page): Promise<Paged<RecordDto>> {
  const where: (SQL | undefined)[] = [eq(records.projectId, ctx.projectId), recordReadScope(ctx)];
  if (page.afterId) where.push(lt(records.id, page.afterId));
  if (query.fields !== undefined) where.push(sql`${records.fields} @> ${JSON.stringify(query.fields)}::jsonb`);
  if (query.type) where.push(eq(records.type, query.type));
  if (query.memberId) where.push(eq(records.memberId, query.memberId));
  const rows = await ctx.db.select().from(records).where(and(...where)).orderBy(desc(records.id)).limit(fetchSize(page));
  return toPaged(rows, page, toDto);
}

/** A record the actor may read, or 404 (another member's record is not found, never forbidden). */
async function findReadable(ctx: ServiceContext, type: string, id: number, lock = false): Promise<Row> {
  const q = ctx.db
    .select()
    .from(records)
    .where(and(eq(records.id, id), eq(records.projectId, ctx.projectId), eq(records.type, type), recordReadScope(ctx)))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('Record');
  return row;
}

export async function getRecord(ctx: ServiceContext, type: string, id: number): Promise<RecordDto> {
  return toDto(await findReadable(ctx, type, id));
}

export async function updateRecord(
  ctx: ServiceContext,
  type: string,
  id: number,
  input: UpdateRecordInput,
  /** The admin UI edits the whole object; REST always merges (RFC 7396). */
  replace = false,
): Promise<RecordDto> {
  return withTransaction(ctx, async (tx) => {
    const current = await findReadable(tx, type, id, true);
    await requireRecordWrite(tx, type, current.memberId);
    const fields = replace ? input.fields : (mergePatch(current.fields, input.fields) as Record<string, unknown>);
    const [row] = await tx.db
      .update(records)
      .set({ fields, updatedAt: ctx.clock() })
      .where(eq(records.id, id))
      .returning();
    const dto = toDto(row!);
    await audit(tx, { action: 'update', resource: 'record', resourceId: id, before: toDto(current), after: dto });
    return dto;
  });
}

export async function deleteRecord(ctx: ServiceContext, type: string, id: number): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const current = await findReadable(tx, type, id, true);
    await requireRecordWrite(tx, type, current.memberId);
    await tx.db.delete(records).where(eq(records.id, id));
    await audit(tx, { action: 'delete', resource: 'record', resourceId: id, before: toDto(current) });
  });
}
