import { and, asc, eq, gt } from 'drizzle-orm';
import { recordTypes, records } from '@/db/schema';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { searchWhere } from '@/server/services/shared';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { conflict, notFound, uniqueViolation } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { CreateRecordTypeInput, RecordTypeDto, UpdateRecordTypeInput } from './schemas';

type Row = typeof recordTypes.$inferSelect;

const toDto = (r: Row): RecordTypeDto => ({
  id: r.id,
  type: r.type,
  permissions: r.permissions,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const byType = (ctx: ServiceContext, type: string) =>
  and(eq(recordTypes.projectId, ctx.projectId), eq(recordTypes.type, type));

export async function createRecordType(ctx: ServiceContext, input: CreateRecordTypeInput): Promise<RecordTypeDto> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(recordTypes)
      .values({ projectId: ctx.projectId, type: input.type, permissions: input.permissions ?? {} })
      .returning()
      .catch((e: unknown) => {
        if (uniqueViolation(e) !== undefined) throw conflict(`Record type ${input.type} exists`, 'type');
        throw e;
      });
    const dto = toDto(row!);
    await audit(tx, { action: 'create', resource: 'record-type', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listRecordTypes(ctx: ServiceContext, page: Page = FIRST_PAGE, search?: string): Promise<Paged<RecordTypeDto>> {
  requireReadEverything(ctx);
  const rows = await ctx.db
    .select()
    .from(recordTypes)
    .where(and(eq(recordTypes.projectId, ctx.projectId), gt(recordTypes.id, page.afterId), searchWhere(search, recordTypes.type)))
    .orderBy(asc(recordTypes.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toDto);
}

export async function getRecordType(ctx: ServiceContext, type: string): Promise<RecordTypeDto> {
  requireReadEverything(ctx);
  const [row] = await ctx.db.select().from(recordTypes).where(byType(ctx, type)).limit(1);
  if (!row) throw notFound('Record type');
  return toDto(row);
}

export async function updateRecordType(
  ctx: ServiceContext,
  type: string,
  input: UpdateRecordTypeInput,
): Promise<RecordTypeDto> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(recordTypes).where(byType(ctx, type)).for('update');
    if (!current) throw notFound('Record type');
    const [row] = await tx.db
      .update(recordTypes)
      .set({ permissions: input.permissions, updatedAt: ctx.clock() })
      .where(eq(recordTypes.id, current.id))
      .returning();
    const dto = toDto(row!);
    await audit(tx, { action: 'update', resource: 'record-type', resourceId: dto.id, before: toDto(current), after: dto });
    return dto;
  });
}

export async function deleteRecordType(ctx: ServiceContext, type: string): Promise<void> {
  requireAdmin(ctx);
  await getRecordType(ctx, type);
  const [used] = await ctx.db
    .select({ id: records.id })
    .from(records)
    .where(and(eq(records.projectId, ctx.projectId), eq(records.type, type)))
    .limit(1);
  if (used) throw conflict(`Records of type ${type} exist; delete them first`);
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.delete(recordTypes).where(byType(ctx, type)).returning();
    if (!row) throw notFound('Record type');
    await audit(tx, { action: 'delete', resource: 'record-type', resourceId: row.id, before: toDto(row) });
  });
}
