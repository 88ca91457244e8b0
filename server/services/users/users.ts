import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '@/db/client';
import { projectUsers, projects, STAFF_ROLES, users } from '@/db/schema';
import { hashPassword, verifyPassword } from '@/server/core/crypto';
import { AppError } from '@/server/errors';

export const createUserInput = z
  .object({
    email: z.email(),
    password: z.string().min(8, 'At least 8 characters'),
    role: z.enum(STAFF_ROLES),
    projectId: z.number().int().positive(),
    name: z.string().optional(),
  })
  .strict();
export type CreateUserInput = z.infer<typeof createUserInput>;

/** Creates the user (or updates the password of an existing one) and grants the role in the project. */
export async function createUser(db: Queryable, input: CreateUserInput): Promise<{ userId: number }> {
  const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, input.projectId));
  if (!project) throw new AppError('invalid_request', `Project ${input.projectId} does not exist`, [{ path: 'projectId', message: 'No such project' }]);
  const passwordHash = await hashPassword(input.password);
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${input.email})`);
  let userId = existing?.id;
  if (userId) {
    await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
  } else {
    const [row] = await db
      .insert(users)
      .values({ email: input.email.toLowerCase(), name: input.name, passwordHash })
      .returning({ id: users.id });
    userId = row!.id;
  }
  await db
    .insert(projectUsers)
    .values({ projectId: input.projectId, userId, role: input.role })
    .onConflictDoUpdate({ target: [projectUsers.projectId, projectUsers.userId], set: { role: input.role } });
  return { userId };
}

export type SignedInUser = { id: number; email: string; name: string | null };

/** Checks a password; the same work is done for unknown emails so timing does not reveal accounts. */
export async function authenticateUser(db: Queryable, email: string, password: string): Promise<SignedInUser | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
