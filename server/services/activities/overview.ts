import { and, asc, desc, eq, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import { activities, careplans, members, projects } from '@/db/schema';
import { requireReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { toActivityDto } from '@/server/services/activities/dto';
import { iso } from '@/server/core/time';
import { isOpen, reminderSchedule } from './lifecycle';

const DAY = 86_400_000;
const LIST = 8;

/**
 * The care coordinator's view of time (decision 0008): activities that start within the next 7 days
 * (due soon), scheduled activities past their start and not completed, nearest deadline first (overdue),
 * and activities that expired in the last 7 days.
 */
export async function activityDashboard(ctx: ServiceContext) {
  requireReadEverything(ctx);
  const now = ctx.clock();
  const inProject = eq(activities.projectId, ctx.projectId);
  const section = async (where: SQL, order: SQL[]) => {
    const [rows, [count]] = await Promise.all([
      ctx.db
        .select({ a: activities, careplanTitle: careplans.title, memberName: sql<string | null>`coalesce(${members.name}, ${members.email})` })
        .from(activities)
        .innerJoin(careplans, eq(careplans.id, activities.careplanId))
        .innerJoin(members, eq(members.id, activities.subjectId))
        .where(and(inProject, where))
        .orderBy(...order)
        .limit(LIST),
      ctx.db.select({ n: sql<number>`count(*)::int` }).from(activities).where(and(inProject, where)),
    ]);
    return { total: count?.n ?? 0, items: rows.map((r) => ({ ...toActivityDto(r.a), careplanTitle: r.careplanTitle, memberName: r.memberName })) };
  };
  // Each status is a literal in the SQL, not a parameter: a prepared statement's generic plan can then use
  // the partial index of expired activities (activity_expired_idx), and plans for the status's own share.
  const [dueSoon, overdue, recentlyExpired] = await Promise.all([
    section(and(sql`${activities.status} = 'proposed'`, gt(activities.activateAt, now), lte(activities.activateAt, new Date(now.getTime() + 7 * DAY)))!, [asc(activities.activateAt)]),
    section(and(sql`${activities.status} = 'scheduled'`, lte(activities.activateAt, now))!, [sql`${activities.endAt} asc nulls last`, asc(activities.activateAt)]),
    section(and(sql`${activities.status} = 'expired'`, gte(activities.updatedAt, new Date(now.getTime() - 7 * DAY)))!, [desc(activities.updatedAt)]),
  ]);
  return { dueSoon, overdue, recentlyExpired };
}

/** A care plan's activities with every reminder still to come (the timeline draws them all). */
export async function careplanTimeline(ctx: ServiceContext, careplanId: number) {
  requireReadEverything(ctx);
  const [project] = await ctx.db.select({ timeZone: projects.timeZone }).from(projects).where(eq(projects.id, ctx.projectId));
  const rows = await ctx.db
    .select()
    .from(activities)
    .where(and(eq(activities.careplanId, careplanId), eq(activities.projectId, ctx.projectId)))
    .orderBy(asc(activities.activateAt), asc(activities.id));
  return rows.map((a) => {
    const upcoming = isOpen(a.status) ? reminderSchedule(a.reminders, a.activateAt, project?.timeZone ?? 'UTC').slice(a.reminderIndex + 1).map((r) => iso(r.at)) : [];
    return { ...toActivityDto(a), pendingReminders: a.remindAt && isOpen(a.status) ? [iso(a.remindAt), ...upcoming] : upcoming };
  });
}
