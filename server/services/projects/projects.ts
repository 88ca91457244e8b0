import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { projects, projectUsers } from '@/db/schema';
import { createContext, type ServiceContext } from '@/server/context';
import { createApiKey, createIntegration } from '@/server/services/integrations/integrations';

export type ProjectSummary = { id: number; name: string; timeZone: string };

/** A project with a default integration and one API key (exactly `apiKey` when given). */
export async function createProject(
  db: Queryable,
  input: { name: string; apiKey?: string; id?: number; timeZone?: string },
): Promise<{ projectId: number; apiKey: string }> {
  const [project] = await db
    .insert(projects)
    .values({ name: input.name, ...(input.id ? { id: input.id } : {}), ...(input.timeZone ? { timeZone: input.timeZone } : {}) })
    .returning({ id: projects.id });
  if (input.id) {
    // An explicit id bypasses the identity sequence; move it past the id so later inserts do not collide.
    await db.execute(sql`select setval(pg_get_serial_sequence('project', 'id'), greatest((select max(id) from project), 1))`);
  }
  const projectId = project!.id;
  // The project's first integration and key are the system's doing in the audit trail.
  const ctx = createContext(db as never, projectId, { kind: 'system', role: 'admin' });
  const integration = await createIntegration(ctx, { display: 'Default integration', slug: 'default' });
  const { key } = await createApiKey(ctx, integration.id, { exactKey: input.apiKey });
  return { projectId, apiKey: key };
}

export async function countProjects(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(projects);
  return row?.n ?? 0;
}

/** The projects a staff user works in (deactivated memberships left out), with their role in each. */
export async function listProjectsOfUser(
  db: Queryable,
  userId: number,
): Promise<(ProjectSummary & { role: 'admin' | 'coordinator' })[]> {
  return db
    .select({ id: projects.id, name: projects.name, timeZone: projects.timeZone, role: projectUsers.role })
    .from(projectUsers)
    .innerJoin(projects, eq(projects.id, projectUsers.projectId))
    .where(and(eq(projectUsers.userId, userId), isNull(projectUsers.deactivatedAt)))
    .orderBy(asc(projects.id));
}

/** The project's IANA time zone: date anchors are midnight there, and calendar offsets are counted there. */
export async function projectTimeZone(ctx: ServiceContext): Promise<string> {
  const [p] = await ctx.db.select({ timeZone: projects.timeZone }).from(projects).where(eq(projects.id, ctx.projectId));
  return p?.timeZone ?? 'UTC';
}
