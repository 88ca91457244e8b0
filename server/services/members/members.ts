import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { members, memberTokens } from '@/db/schema';
import { generateToken, hashToken } from '@/server/core/crypto';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { searchWhere } from '@/server/services/shared';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { AppError, conflict, notFound, uniqueViolation } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { CreateMemberInput, ListMembersQuery, MemberDto, UpdateMemberInput } from './schemas';

type MemberRow = typeof members.$inferSelect;

export const toMemberDto = (m: MemberRow): MemberDto => ({
  id: m.id,
  role: m.role,
  name: m.name,
  email: m.email,
  externalId: m.externalId,
  meta: m.meta,
  timeZone: m.timeZone,
  createdAt: iso(m.createdAt),
  updatedAt: iso(m.updatedAt),
});

function emailTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('A member with this email exists in the project', 'email');
  throw e;
}

export async function createMember(ctx: ServiceContext, input: CreateMemberInput): Promise<MemberDto> {
  requireAdmin(ctx);
  return emit(ctx, 'member_create', input, async (tx) => {
    const [row] = await tx.db
      .insert(members)
      .values({ projectId: ctx.projectId, ...input, meta: input.meta ?? {}, role: input.role ?? 'user' })
      .returning()
      .catch(emailTaken);
    const dto = toMemberDto(row!);
    await audit(tx, { action: 'create', resource: 'member', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listMembers(ctx: ServiceContext, query: ListMembersQuery, page: Page = FIRST_PAGE): Promise<Paged<MemberDto>> {
  requireReadEverything(ctx);
  const where: (SQL | undefined)[] = [eq(members.projectId, ctx.projectId), gt(members.id, page.afterId)];
  if (query.role) where.push(eq(members.role, query.role));
  if (query.email) where.push(sql`lower(${members.email}) = lower(${query.email})`);
  if (query.externalId) where.push(eq(members.externalId, query.externalId));
  where.push(searchWhere(query.search, members.name, members.email));
  const rows = await ctx.db
    .select()
    .from(members)
    .where(and(...where))
    .orderBy(asc(members.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toMemberDto);
}

/** Names of the given members, for labelling rows that carry a memberId (at most one page of them). */
export async function memberNames(ctx: ServiceContext, ids: number[]): Promise<{ id: number; name: string | null; email: string | null }[]> {
  requireReadEverything(ctx);
  if (ids.length === 0) return [];
  return ctx.db
    .select({ id: members.id, name: members.name, email: members.email })
    .from(members)
    .where(and(eq(members.projectId, ctx.projectId), inArray(members.id, [...new Set(ids)])));
}

/** The member, locked when a change to it follows in the same transaction (its audit `before`). */
async function findMember(ctx: ServiceContext, id: number, lock = false): Promise<MemberRow> {
  const query = ctx.db
    .select()
    .from(members)
    .where(and(eq(members.id, id), eq(members.projectId, ctx.projectId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Member');
  return row;
}

export async function getMember(ctx: ServiceContext, id: number): Promise<MemberDto> {
  requireReadEverything(ctx);
  return toMemberDto(await findMember(ctx, id));
}

export async function updateMember(ctx: ServiceContext, id: number, changes: UpdateMemberInput): Promise<MemberDto> {
  requireAdmin(ctx);
  await findMember(ctx, id);
  return emit(ctx, 'member_update', { id, ...changes }, async (tx) => {
    const before = toMemberDto(await findMember(tx, id, true));
    const [row] = await tx.db
      .update(members)
      .set({ ...changes, updatedAt: ctx.clock() })
      .where(and(eq(members.id, id), eq(members.projectId, ctx.projectId)))
      .returning()
      .catch(emailTaken);
    if (!row) throw notFound('Member');
    const dto = toMemberDto(row);
    await audit(tx, { action: 'update', resource: 'member', resourceId: id, before, after: dto });
    return dto;
  });
}

/** Deleting a member deletes its records and tokens with it (foreign keys cascade). */
export async function deleteMember(ctx: ServiceContext, id: number): Promise<MemberDto> {
  requireAdmin(ctx);
  await findMember(ctx, id);
  return emit(ctx, 'member_delete', { id }, async (tx) => {
    const [row] = await tx.db
      .delete(members)
      .where(and(eq(members.id, id), eq(members.projectId, ctx.projectId)))
      .returning();
    if (!row) throw notFound('Member');
    const dto = toMemberDto(row);
    await audit(tx, { action: 'delete', resource: 'member', resourceId: id, before: dto });
    return dto;
  });
}

/** A bearer token that acts as the member. Shown once; only its hash is kept. */
export async function issueMemberToken(ctx: ServiceContext, memberId: number): Promise<{ token: string }> {
  requireAdmin(ctx);
  await findMember(ctx, memberId);
  const token = generateToken('cb_mem');
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.insert(memberTokens).values({ projectId: ctx.projectId, memberId, tokenHash: hashToken(token) }).returning({ id: memberTokens.id });
    await audit(tx, { action: 'create', resource: 'member-token', resourceId: row!.id, after: { memberId, token } });
    return { token };
  });
}

/** Used by services of other areas to validate a `memberId` given in a body. */
export async function requireMemberInProject(ctx: ServiceContext, memberId: number, path = 'memberId'): Promise<void> {
  const [row] = await ctx.db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.projectId, ctx.projectId)))
    .limit(1);
  if (!row) throw new AppError('invalid_request', 'The request is invalid', [{ path, message: 'No member with this id in the project' }]);
}
