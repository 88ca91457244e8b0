import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '@/db/client';
import { projectUsers, projects, STAFF_ROLES, users } from '@/db/schema';
import { audit } from '@/server/audit/audit';
import { createContext, withTransaction } from '@/server/context';
import { hashPassword, verifyPassword } from '@/server/core/crypto';
import { AppError } from '@/server/errors';
import { passwordSchema } from './schemas';

export const createUserInput = z
  .object({
    email: z.email(),
    password: passwordSchema,
    role: z.enum(STAFF_ROLES),
    projectId: z.number().int().positive(),
    name: z.string().optional(),
  })
  .strict();
export type CreateUserInput = z.infer<typeof createUserInput>;

/**
 * The CLI's and the seed's way to make staff: creates the user (or sets the password of an existing one)
 * and grants the role in the project, reactivating a deactivated membership. Recorded as the system's doing.
 */
export async function createUser(db: Queryable, input: CreateUserInput): Promise<{ userId: number }> {
  const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, input.projectId));
  if (!project) throw new AppError('invalid_request', `Project ${input.projectId} does not exist`, [{ path: 'projectId', message: 'No such project' }]);
  const passwordHash = await hashPassword(input.password);
  const ctx = createContext(db as never, input.projectId, { kind: 'system', role: 'admin' });
  return withTransaction(ctx, async (tx) => {
    const [existing] = await tx.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${input.email})`);
    let userId = existing?.id;
    if (userId) {
      await tx.db.update(users).set({ passwordHash, sessionsValidAfter: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
    } else {
      const [row] = await tx.db
        .insert(users)
        .values({ email: input.email.toLowerCase(), name: input.name, passwordHash })
        .returning({ id: users.id });
      userId = row!.id;
    }
    const [before] = await tx.db
      .select({ role: projectUsers.role, deactivatedAt: projectUsers.deactivatedAt })
      .from(projectUsers)
      .where(and(eq(projectUsers.projectId, input.projectId), eq(projectUsers.userId, userId)));
    await tx.db
      .insert(projectUsers)
      .values({ projectId: input.projectId, userId, role: input.role })
      .onConflictDoUpdate({ target: [projectUsers.projectId, projectUsers.userId], set: { role: input.role, deactivatedAt: null } });
    await audit(tx, {
      action: before ? 'update' : 'create',
      resource: 'user',
      resourceId: userId,
      before: before ? { email: input.email.toLowerCase(), role: before.role, active: before.deactivatedAt === null } : null,
      after: { email: input.email.toLowerCase(), role: input.role, active: true },
      extra: existing ? { password: { before: '[redacted]', after: '[redacted]' } } : undefined,
    });
    return { userId };
  });
}

export type SignedInUser = { id: number; email: string; name: string | null };

/**
 * Checks a password; the same work is done for unknown emails so timing does not reveal accounts. A user
 * with no active project (deactivated everywhere) cannot sign in.
 */
export async function authenticateUser(db: Queryable, email: string, password: string): Promise<SignedInUser | null> {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      active: sql<boolean>`exists (select 1 from ${projectUsers} pu where pu.user_id = ${users.id} and pu.deactivated_at is null)`,
    })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok && user.active ? { id: user.id, email: user.email, name: user.name } : null;
}

/**
 * Whether a staff session still holds (checked on every request, so a deactivation or a password reset
 * ends it at once): the user exists, belongs to an active project, and signed in after the last reset.
 */
export async function staffSessionValid(db: Queryable, userId: number, signedInAt: number | undefined): Promise<boolean> {
  const [row] = await db
    .select({ validAfter: users.sessionsValidAfter })
    .from(users)
    .innerJoin(projectUsers, and(eq(projectUsers.userId, users.id), isNull(projectUsers.deactivatedAt)))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return false;
  if (!row.validAfter) return true;
  return signedInAt !== undefined && signedInAt >= row.validAfter.getTime();
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
