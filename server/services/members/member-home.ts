import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { members, projects } from '@/db/schema';
import { createContext } from '@/server/context';
import { listRecords } from '@/server/services/records/records';
import { recentNotifications, updateNotification } from '@/server/services/activities/notifications';
import { toMemberDto } from './members';

/** What a signed-in member sees of their own: their profile and the records their role may read. */
export async function loadMemberHome(memberId: number) {
  const db = await getDb();
  const [row] = await db
    .select({ member: members, projectName: projects.name })
    .from(members)
    .innerJoin(projects, eq(projects.id, members.projectId))
    .where(eq(members.id, memberId));
  if (!row) return undefined;
  const ctx = createContext(db, row.member.projectId, { kind: 'member', memberId, role: row.member.role });
  const [records, notifications] = await Promise.all([listRecords(ctx, {}, { limit: 500, afterId: 0 }), recentNotifications(ctx, memberId, 20)]);
  // Notifications meant for the care team (suppressed) are not the member's to read.
  const inbox = notifications.filter((n) => n.status !== 'suppressed');
  return { member: toMemberDto(row.member), projectName: row.projectName, records: records.slice(0, 500), notifications: inbox };
}

/** A signed-in member marks one of their notifications read. */
export async function markOwnNotificationRead(memberId: number, notificationId: number) {
  const db = await getDb();
  const [row] = await db.select({ projectId: members.projectId, role: members.role }).from(members).where(eq(members.id, memberId));
  if (!row) return;
  await updateNotification(createContext(db, row.projectId, { kind: 'member', memberId, role: row.role }), notificationId, { read: true });
}
