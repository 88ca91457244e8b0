import { and, asc, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import { members, memberTokens } from '@/db/schema';
import { generateToken, hashToken } from '@/server/auth/secrets';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { AppError, conflict, notFound, uniqueViolation } from '@/server/errors';
import { emit } from '@/server/events/emit';
import type { Page } from '@/server/http/define-route';
import { afterId, iso, pageLimit } from '@/server/services/shared';
import type { CreateMemberInput, ListMembersQuery, MemberDto, UpdateMemberInput } from './schemas';

type MemberRow = typeof members.$inferSelect;

export const toMemberDto = (m: MemberRow): MemberDto => ({
  id: m.id,
  role: m.role,
  name: m.name,
  email: m.email,
  externalId: m.externalId,
  meta: m.meta,
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
    return toMemberDto(row!);
  });
}

export async function listMembers(ctx: ServiceContext, query: ListMembersQuery, page?: Page): Promise<MemberDto[]> {
  requireReadEverything(ctx);
  const where: (SQL | undefined)[] = [eq(members.projectId, ctx.projectId), gt(members.id, afterId(page))];
  if (query.role) where.push(eq(members.role, query.role));
  if (query.email) where.push(sql`lower(${members.email}) = lower(${query.email})`);
  if (query.externalId) where.push(eq(members.externalId, query.externalId));
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(ilike(members.name, pattern), ilike(members.email, pattern)));
  }
  const rows = await ctx.db
    .select()
    .from(members)
    .where(and(...where))
    .orderBy(asc(members.id))
    .limit(pageLimit(page));
  return rows.map(toMemberDto);
}

async function findMember(ctx: ServiceContext, id: number): Promise<MemberRow> {
  const [row] = await ctx.db
    .select()
    .from(members)
    .where(and(eq(members.id, id), eq(members.projectId, ctx.projectId)))
    .limit(1);
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
    const [row] = await tx.db
      .update(members)
      .set({ ...changes, updatedAt: ctx.clock() })
      .where(and(eq(members.id, id), eq(members.projectId, ctx.projectId)))
      .returning()
      .catch(emailTaken);
    if (!row) throw notFound('Member');
    return toMemberDto(row);
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
    return toMemberDto(row);
  });
}

/** A bearer token that acts as the member. Shown once; only its hash is kept. */
export async function issueMemberToken(ctx: ServiceContext, memberId: number): Promise<{ token: string }> {
  requireAdmin(ctx);
  await findMember(ctx, memberId);
  const token = generateToken('cb_mem');
  await ctx.db.insert(memberTokens).values({ projectId: ctx.projectId, memberId, tokenHash: hashToken(token) });
  return { token };
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
