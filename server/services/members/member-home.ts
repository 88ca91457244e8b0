import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { members, projects } from '@/db/schema';
import { createContext } from '@/server/context';
import { listRecords } from '@/server/services/records/records';
import { listActivities, updateActivity } from '@/server/services/activities/activities';
import { recentNotifications, updateNotification } from '@/server/services/activities/notifications';
import { toMemberDto } from './members';

/**
 * What a signed-in member sees of their own: their profile, the records their role may read, their
 * notifications and the scheduled activities that are theirs to do.
 */
export async function loadMemberHome(memberId: number) {
  const db = await getDb();
  const [row] = await db
    .select({ member: members, projectName: projects.name })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(eq(members.id, memberId));
  if (!row) return undefined;
  const ctx = createContext(db, row.member.projectId, { kind: 'member', memberId, role: row.member.role });
  const [records, notifications, scheduled] = await Promise.all([
    listRecords(ctx, {}, { limit: 500, afterId: 0 }),
    recentNotifications(ctx, memberId, 20),
    listActivities(ctx, { status: 'scheduled' }, { limit: 100, afterId: 0 }),
  ]);
  // Notifications meant for the care team (suppressed) are not the member's to read, nor their tasks.
  const inbox = notifications.filter((n) => n.status !== 'suppressed');
  const tasks = scheduled.filter((a) => a.actorType === 'subject').sort((a, b) => a.activateAt.localeCompare(b.activateAt));
  return { member: toMemberDto(row.member), projectName: row.projectName, records: records.slice(0, 500), notifications: inbox, activities: tasks };
}

/** The service context a signed-in member acts in: their project, as themselves. */
async function memberContext(memberId: number) {
  const db = await getDb();
  const [row] = await db.select({ projectId: members.projectId, role: members.role }).from(members).where(eq(members.id, memberId));
  return row && createContext(db, row.projectId, { kind: 'member', memberId, role: row.role });
}

/** A signed-in member marks one of their notifications read. */
export async function markOwnNotificationRead(memberId: number, notificationId: number) {
  const ctx = await memberContext(memberId);
  if (ctx) await updateNotification(ctx, notificationId, { read: true });
}

/** A signed-in member marks one of their own scheduled activities done. */
export async function completeOwnActivity(memberId: number, activityId: number) {
  const ctx = await memberContext(memberId);
  if (ctx) await updateActivity(ctx, activityId, { status: 'completed' });
}
