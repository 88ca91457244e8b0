import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { projects, projectUsers, users, userTokens } from '@/db/schema';
import { audit } from '@/server/audit/audit';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { createContext, withTransaction, type ServiceContext } from '@/server/context';
import type { Db } from '@/db/client';
import { generateToken, hashPassword, hashToken, verifyPassword } from '@/server/core/crypto';
import { iso, isoOrNull } from '@/server/core/time';
import { AppError, conflict, invalidField, notFound } from '@/server/errors';
import { acceptInvitationInput, completeResetInput, type AcceptInvitationInput, type InvitationDto, type InviteInput, type TeamMemberDto } from './schemas';

export const INVITE_VALID_MS = 7 * 24 * 3_600_000;
export const RESET_VALID_MS = 24 * 3_600_000;

type TokenRow = typeof userTokens.$inferSelect;

function tokenStatus(t: TokenRow, now: Date): InvitationDto['status'] {
  if (t.usedAt) return 'used';
  if (t.revokedAt) return 'revoked';
  return t.expiresAt <= now ? 'expired' : 'pending';
}

const toInvitationDto = (t: TokenRow, now: Date): InvitationDto => ({
  id: t.id,
  kind: t.kind,
  email: t.email,
  role: t.role,
  createdAt: iso(t.createdAt),
  expiresAt: iso(t.expiresAt),
  status: tokenStatus(t, now),
});

const memberSnapshot = (m: { email: string; role: string; deactivatedAt: Date | null }) => ({ email: m.email, role: m.role, active: m.deactivatedAt === null });

/** The project's staff, admins first, then by email; and the invitations still open. */
export async function listTeam(ctx: ServiceContext): Promise<{ members: TeamMemberDto[]; invitations: InvitationDto[] }> {
  requireReadEverything(ctx);
  const rows = await ctx.db
    .select({ userId: users.id, email: users.email, name: users.name, role: projectUsers.role, joinedAt: projectUsers.createdAt, deactivatedAt: projectUsers.deactivatedAt })
    .from(projectUsers)
    .innerJoin(users, eq(users.id, projectUsers.userId))
    .where(eq(projectUsers.projectId, ctx.projectId))
    .orderBy(asc(projectUsers.role), asc(users.email));
  const now = ctx.clock();
  const tokens = ctx.actor.role === 'admin'
    ? await ctx.db
        .select()
        .from(userTokens)
        .where(and(eq(userTokens.projectId, ctx.projectId), isNull(userTokens.usedAt), isNull(userTokens.revokedAt), sql`${userTokens.expiresAt} > ${now.toISOString()}`))
        .orderBy(desc(userTokens.id))
        .limit(200)
    : [];
  return {
    members: rows.map((r) => ({ ...r, active: r.deactivatedAt === null, joinedAt: iso(r.joinedAt), deactivatedAt: isoOrNull(r.deactivatedAt) })),
    invitations: tokens.map((t) => toInvitationDto(t, now)),
  };
}

async function findMembership(ctx: ServiceContext, userId: number, lock = false) {
  const query = ctx.db
    .select({ userId: users.id, email: users.email, role: projectUsers.role, deactivatedAt: projectUsers.deactivatedAt })
    .from(projectUsers)
    .innerJoin(users, eq(users.id, projectUsers.userId))
    .where(and(eq(projectUsers.projectId, ctx.projectId), eq(projectUsers.userId, userId)));
  const [row] = lock ? await query.for('update', { of: projectUsers }) : await query;
  if (!row) throw notFound('Team member');
  return row;
}

/** A project keeps at least one active admin: the last one cannot be demoted or deactivated. */
async function requireAnotherActiveAdmin(tx: ServiceContext, userId: number) {
  // Locks every admin membership of the project, so two admins cannot demote each other at once.
  const admins = await tx.db
    .select({ userId: projectUsers.userId })
    .from(projectUsers)
    .where(and(eq(projectUsers.projectId, tx.projectId), eq(projectUsers.role, 'admin'), isNull(projectUsers.deactivatedAt), ne(projectUsers.userId, userId)))
    .for('update');
  if (admins.length === 0) throw conflict('The project needs at least one active admin; make someone else an admin first', 'role');
}

const selfId = (ctx: ServiceContext) => (ctx.actor.kind === 'user' ? ctx.actor.userId : undefined);

/**
 * An invitation to join the project with a role: a one-time link (its token shown once, valid 7 days)
 * the invitee opens to set their password, or, with an account already, to confirm with it.
 */
export async function inviteUser(ctx: ServiceContext, input: InviteInput): Promise<{ invitation: InvitationDto; token: string }> {
  requireAdmin(ctx);
  const [member] = await ctx.db
    .select({ deactivatedAt: projectUsers.deactivatedAt })
    .from(projectUsers)
    .innerJoin(users, eq(users.id, projectUsers.userId))
    .where(and(eq(projectUsers.projectId, ctx.projectId), sql`lower(${users.email}) = ${input.email}`));
  if (member) {
    throw conflict(member.deactivatedAt ? 'This person is on the team but deactivated; reactivate them instead' : 'This person is already on the team', 'email');
  }
  const token = generateToken('cb_inv');
  const now = ctx.clock();
  return withTransaction(ctx, async (tx) => {
    // A new invitation replaces an open one for the same address.
    await tx.db
      .update(userTokens)
      .set({ revokedAt: now })
      .where(and(eq(userTokens.projectId, ctx.projectId), eq(userTokens.kind, 'invite'), eq(userTokens.email, input.email), isNull(userTokens.usedAt), isNull(userTokens.revokedAt)));
    const [row] = await tx.db
      .insert(userTokens)
      .values({
        projectId: ctx.projectId,
        kind: 'invite',
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        createdByUserId: selfId(ctx) ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITE_VALID_MS),
      })
      .returning();
    const invitation = toInvitationDto(row!, now);
    await audit(tx, { action: 'create', resource: 'invitation', resourceId: row!.id, after: { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt } });
    return { invitation, token };
  });
}

export async function revokeInvitation(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(userTokens)
      .set({ revokedAt: ctx.clock() })
      .where(and(eq(userTokens.id, id), eq(userTokens.projectId, ctx.projectId), isNull(userTokens.usedAt), isNull(userTokens.revokedAt)))
      .returning();
    if (!row) throw notFound('Open invitation');
    await audit(tx, { action: 'delete', resource: 'invitation', resourceId: id, before: { email: row.email, role: row.role, kind: row.kind } });
  });
}

export async function changeRole(ctx: ServiceContext, userId: number, role: 'admin' | 'coordinator'): Promise<TeamMemberDto> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const current = await findMembership(tx, userId, true);
    if (current.role === 'admin' && role !== 'admin' && current.deactivatedAt === null) await requireAnotherActiveAdmin(tx, userId);
    await tx.db.update(projectUsers).set({ role }).where(and(eq(projectUsers.projectId, ctx.projectId), eq(projectUsers.userId, userId)));
    await audit(tx, { action: 'update', resource: 'user', resourceId: userId, before: memberSnapshot(current), after: memberSnapshot({ ...current, role }) });
    return teamMember(tx, userId);
  });
}

/** Deactivated staff lose the project at once: every request checks the membership. Their history stays. */
export async function setActive(ctx: ServiceContext, userId: number, active: boolean): Promise<TeamMemberDto> {
  requireAdmin(ctx);
  if (!active && userId === selfId(ctx)) throw conflict('You cannot deactivate yourself');
  return withTransaction(ctx, async (tx) => {
    const current = await findMembership(tx, userId, true);
    if (!active && current.role === 'admin' && current.deactivatedAt === null) await requireAnotherActiveAdmin(tx, userId);
    const deactivatedAt = active ? null : (current.deactivatedAt ?? ctx.clock());
    await tx.db.update(projectUsers).set({ deactivatedAt }).where(and(eq(projectUsers.projectId, ctx.projectId), eq(projectUsers.userId, userId)));
    await audit(tx, { action: 'update', resource: 'user', resourceId: userId, before: memberSnapshot(current), after: memberSnapshot({ ...current, deactivatedAt }) });
    return teamMember(tx, userId);
  });
}

/**
 * A password reset: the old password stops working, every session of the user ends now, and a one-time
 * link (shown once, valid 24 hours) lets them choose a new one.
 */
export async function resetPassword(ctx: ServiceContext, userId: number): Promise<{ invitation: InvitationDto; token: string }> {
  requireAdmin(ctx);
  const token = generateToken('cb_inv');
  const now = ctx.clock();
  return withTransaction(ctx, async (tx) => {
    const member = await findMembership(tx, userId, true);
    await tx.db.update(users).set({ passwordHash: null, sessionsValidAfter: now, updatedAt: now }).where(eq(users.id, userId));
    await tx.db
      .update(userTokens)
      .set({ revokedAt: now })
      .where(and(eq(userTokens.userId, userId), eq(userTokens.kind, 'reset'), isNull(userTokens.usedAt), isNull(userTokens.revokedAt)));
    const [row] = await tx.db
      .insert(userTokens)
      .values({
        projectId: ctx.projectId,
        kind: 'reset',
        email: member.email,
        userId,
        tokenHash: hashToken(token),
        createdByUserId: selfId(ctx) ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_VALID_MS),
      })
      .returning();
    await audit(tx, { action: 'update', resource: 'user', resourceId: userId, extra: { password: { before: '[redacted]', after: null } } });
    return { invitation: toInvitationDto(row!, now), token };
  });
}

async function teamMember(ctx: ServiceContext, userId: number): Promise<TeamMemberDto> {
  const [r] = await ctx.db
    .select({ userId: users.id, email: users.email, name: users.name, role: projectUsers.role, joinedAt: projectUsers.createdAt, deactivatedAt: projectUsers.deactivatedAt })
    .from(projectUsers)
    .innerJoin(users, eq(users.id, projectUsers.userId))
    .where(and(eq(projectUsers.projectId, ctx.projectId), eq(projectUsers.userId, userId)));
  if (!r) throw notFound('Team member');
  return { ...r, active: r.deactivatedAt === null, joinedAt: iso(r.joinedAt), deactivatedAt: isoOrNull(r.deactivatedAt) };
}

/** What a one-time link's page shows before anyone signs in: whose it is, for what, and whether it still holds. */
export async function lookUpUserToken(db: Db, token: string, now = new Date()) {
  const [row] = await db
    .select({ t: userTokens, projectName: projects.name, hasAccount: sql<boolean>`exists (select 1 from ${users} u where lower(u.email) = lower(${userTokens.email}) and u.password_hash is not null)` })
    .from(userTokens)
    .innerJoin(projects, eq(projects.id, userTokens.projectId))
    .where(eq(userTokens.tokenHash, hashToken(token)));
  if (!row) return undefined;
  return { kind: row.t.kind, email: row.t.email, role: row.t.role, projectName: row.projectName, status: tokenStatus(row.t, now), hasAccount: row.hasAccount && row.t.kind === 'invite' };
}

async function openToken(tx: ServiceContext, token: string, kind: 'invite' | 'reset'): Promise<TokenRow> {
  const [row] = await tx.db.select().from(userTokens).where(and(eq(userTokens.tokenHash, hashToken(token)), eq(userTokens.kind, kind))).for('update');
  const status = row ? tokenStatus(row, tx.clock()) : undefined;
  if (!row || status !== 'pending') {
    const what = kind === 'invite' ? 'invitation' : 'password reset link';
    throw new AppError('conflict', status === 'expired' ? `This ${what} has expired; ask an admin for a new one` : `This ${what} is no longer valid; ask an admin for a new one`);
  }
  return row;
}

/**
 * Accepting an invitation: a new person chooses a name and password; someone with an account confirms
 * with their password. Either way they join the project with the invited role, and the link is used up.
 */
export async function acceptInvitation(db: Db, given: AcceptInvitationInput): Promise<{ userId: number; email: string; projectId: number }> {
  const input = acceptInvitationInput.parse(given);
  const base = createContext(db, 0, { kind: 'system', role: 'admin' });
  const preview = await lookUpUserToken(db, input.token);
  const passwordHash = preview && !preview.hasAccount ? await hashPassword(input.password) : null;
  return withTransaction(base, async (sys) => {
    const t = await openToken(sys, input.token, 'invite');
    const [existing] = await sys.db.select().from(users).where(sql`lower(${users.email}) = lower(${t.email})`).for('update');
    let userId: number;
    if (existing?.passwordHash) {
      if (!(await verifyPassword(input.password, existing.passwordHash))) throw invalidField('password', 'This is not the password of your existing account');
      userId = existing.id;
    } else {
      if (!input.name) throw invalidField('name', 'Enter your name');
      const hash = passwordHash ?? (await hashPassword(input.password));
      if (existing) {
        await sys.db.update(users).set({ name: input.name, passwordHash: hash, updatedAt: sys.clock() }).where(eq(users.id, existing.id));
        userId = existing.id;
      } else {
        const [row] = await sys.db.insert(users).values({ email: t.email, name: input.name, passwordHash: hash }).returning({ id: users.id });
        userId = row!.id;
      }
    }
    const tx = { ...sys, projectId: t.projectId, actor: { kind: 'user', userId, role: t.role! } } as ServiceContext;
    await tx.db
      .insert(projectUsers)
      .values({ projectId: t.projectId, userId, role: t.role! })
      .onConflictDoUpdate({ target: [projectUsers.projectId, projectUsers.userId], set: { role: t.role!, deactivatedAt: null } });
    await tx.db.update(userTokens).set({ usedAt: tx.clock(), userId }).where(eq(userTokens.id, t.id));
    await audit(tx, { action: 'create', resource: 'user', resourceId: userId, after: { email: t.email, role: t.role, active: true } });
    return { userId, email: t.email, projectId: t.projectId };
  });
}

/** Choosing a new password through a reset link; the link is used up and the person can sign in again. */
export async function completePasswordReset(db: Db, given: { token: string; password: string }): Promise<{ userId: number; email: string }> {
  const input = completeResetInput.parse(given);
  const base = createContext(db, 0, { kind: 'system', role: 'admin' });
  const passwordHash = await hashPassword(input.password);
  return withTransaction(base, async (sys) => {
    const t = await openToken(sys, input.token, 'reset');
    const now = sys.clock();
    await sys.db.update(users).set({ passwordHash, sessionsValidAfter: now, updatedAt: now }).where(eq(users.id, t.userId!));
    await sys.db.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, t.id));
    const tx = { ...sys, projectId: t.projectId, actor: { kind: 'user', userId: t.userId!, role: 'coordinator' } } as ServiceContext;
    await audit(tx, { action: 'update', resource: 'user', resourceId: t.userId!, extra: { password: { before: null, after: '[redacted]' } } });
    return { userId: t.userId!, email: t.email };
  });
}
