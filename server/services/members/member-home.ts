import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { members, projects } from '@/db/schema';
import { collectPages, type Page } from '@/server/core/page';
import { createContext, type ServiceContext } from '@/server/context';
import { listActivities } from '@/server/services/activities/activities';
import { recentNotifications } from '@/server/services/activities/notifications';
import { listRecords } from '@/server/services/records/records';
import { toMemberDto } from './members';

/** The context a signed-in member acts in: their project, as themselves; undefined when the member is gone. */
export async function memberContext(db: Db, memberId: number): Promise<MemberContext | undefined> {
  const [row] = await db
    .select({ member: members, projectName: projects.name, timeZone: sql<string>`coalesce(${members.timeZone}, ${projects.timeZone})` })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(eq(members.id, memberId));
  if (!row) return undefined;
  const { member } = row;
  return { ...createContext(db, member.projectId, { kind: 'member', memberId, role: member.role }), projectName: row.projectName, timeZone: row.timeZone, member };
}

/** A member's context, with their own row (read once per request, with the context). */
export type MemberContext = ServiceContext & { projectName: string; timeZone: string; member: typeof members.$inferSelect };

/**
 * What a signed-in member sees of their own: their profile, a page of the records their role may read,
 * their recent notifications and every scheduled activity that is theirs to do.
 */
export async function loadMemberHome(ctx: MemberContext, records: Page) {
  if (ctx.actor.kind !== 'member') throw new Error('loadMemberHome needs a member context');
  const memberId = ctx.actor.memberId;
  const [recordPage, notifications, scheduled, proposed] = await Promise.all([
    listRecords(ctx, {}, records),
    recentNotifications(ctx, memberId, 20),
    collectPages((page) => listActivities(ctx, { status: 'scheduled' }, page)),
    listActivities(ctx, { status: 'proposed' }, { limit: 100, afterId: 0 }),
  ]);
  // Notifications meant for the care team (suppressed) are not the member's to read, nor their tasks.
  const inbox = notifications.filter((n) => n.status !== 'suppressed');
  const tasks = scheduled.filter((a) => a.actorType === 'subject').sort((a, b) => a.activateAt.localeCompare(b.activateAt));
  // What is coming: the member's own activities that have not started yet, soonest first.
  const upcoming = proposed.items
    .filter((a) => a.actorType === 'subject')
    .sort((a, b) => a.activateAt.localeCompare(b.activateAt))
    .slice(0, 10);
  // Dates on the member's pages are in their own zone (a member field), else the project's.
  return { member: toMemberDto(ctx.member), projectName: ctx.projectName, timeZone: ctx.timeZone, records: recordPage, notifications: inbox, activities: tasks, upcoming };
}
