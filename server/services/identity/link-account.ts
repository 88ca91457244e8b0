import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { accountLinks, identityProviders, members, projectUsers } from '@/db/schema';
import { isNull } from 'drizzle-orm';
import { audit } from '@/server/audit/audit';
import { createContext, withTransaction, type ServiceContext } from '@/server/context';
import { AppError } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { createMember } from '@/server/services/members/members';
import { roleSchema } from '@/server/services/members/schemas';

export type LinkedAccount = { kind: 'member'; memberId: number; projectId: number } | { kind: 'user'; userId: number; projectId: number };

const answerSchema = z.union([
  z.object({ memberId: z.number().int().positive() }).loose(),
  z.object({ userId: z.number().int().positive() }).loose(),
]);

async function findLink(db: Db, providerId: number, projectId: number, sub: string): Promise<LinkedAccount | undefined> {
  const [link] = await db
    .select()
    .from(accountLinks)
    .where(and(eq(accountLinks.providerId, providerId), eq(accountLinks.sub, sub)));
  if (link?.memberId) return { kind: 'member', memberId: link.memberId, projectId };
  if (link?.userId) return { kind: 'user', userId: link.userId, projectId };
  return undefined;
}

/** The default of `account_link`: the member whose email equals `mapped.email`, or a new member. */
async function defaultLink(ctx: ServiceContext, mapped: Record<string, unknown>): Promise<{ memberId: number }> {
  const email = z.email().safeParse(mapped.email);
  if (email.success) {
    const [found] = await ctx.db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.projectId, ctx.projectId), sql`lower(${members.email}) = lower(${email.data})`))
      .limit(1);
    if (found) return { memberId: found.id };
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : undefined);
  const role = roleSchema.safeParse(mapped.role);
  const member = await createMember(ctx, {
    name: text(mapped.name),
    email: email.success ? email.data : undefined,
    externalId: text(mapped.externalId),
    role: role.success ? role.data : 'user',
  });
  return { memberId: member.id };
}

/**
 * CONTRACT 8: whom an external account (provider, sub) belongs to. A known link answers at once;
 * otherwise `account_link` runs (a handle webhook decides, or the default), the answer must name a
 * member or a staff user of the provider's project, and the link is stored.
 */
export async function linkAccount(db: Db, input: { providerId: number; sub: string; userinfo: Record<string, unknown> }): Promise<LinkedAccount> {
  const [provider] = await db.select().from(identityProviders).where(eq(identityProviders.id, input.providerId));
  if (!provider) throw new AppError('not_found', 'Identity provider not found');
  const existing = await findLink(db, provider.id, provider.projectId, input.sub);
  if (existing) return existing;

  const mapped = Object.fromEntries(
    Object.entries(provider.mapping)
      .map(([target, claim]) => [target, input.userinfo[claim]] as const)
      .filter(([, v]) => v !== undefined && v !== null),
  );
  const ctx = createContext(db, provider.projectId, { kind: 'system', role: 'admin' });
  const params = { sub: input.sub, providerId: provider.id, userinfo: input.userinfo, mapping: provider.mapping, mapped };
  const answer = answerSchema.safeParse(await emit<unknown>(ctx, 'account_link', params, (tx) => defaultLink(tx, mapped)));
  if (!answer.success) throw new AppError('forbidden', 'The account_link answer names neither a memberId nor a userId');

  let linked: LinkedAccount;
  const named = answer.data as { memberId?: number; userId?: number };
  if (named.memberId !== undefined) {
    const [m] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.id, named.memberId), eq(members.projectId, provider.projectId)));
    if (!m) throw new AppError('forbidden', `Member ${named.memberId} is not in the project`);
    linked = { kind: 'member', memberId: m.id, projectId: provider.projectId };
  } else {
    const [u] = await db
      .select({ id: projectUsers.userId })
      .from(projectUsers)
      .where(and(eq(projectUsers.userId, named.userId!), eq(projectUsers.projectId, provider.projectId), isNull(projectUsers.deactivatedAt)));
    if (!u) throw new AppError('forbidden', `User ${named.userId} is not an active member of the project's team`);
    linked = { kind: 'user', userId: u.id, projectId: provider.projectId };
  }
  await withTransaction(ctx, async (tx) => {
    const owner = linked.kind === 'member' ? { memberId: linked.memberId } : { userId: linked.userId };
    const [row] = await tx.db.insert(accountLinks).values({ providerId: provider.id, sub: input.sub, ...owner }).onConflictDoNothing().returning();
    // Recorded on whom the account now belongs to: their history shows the sign-in link.
    if (row) {
      await audit(tx, {
        action: 'update',
        resource: linked.kind === 'member' ? 'member' : 'user',
        resourceId: linked.kind === 'member' ? linked.memberId : linked.userId,
        extra: { accountLink: { before: null, after: { providerId: provider.id, sub: input.sub } } },
      });
    }
  });
  return (await findLink(db, provider.id, provider.projectId, input.sub)) ?? linked;
}
