import { eq, getTableColumns, sql } from 'drizzle-orm';
import { anyKey, jsonRows } from '@/db/rows';
import { activities, notifications } from '@/db/schema';
import { auditMany, type AuditEntry } from '@/server/audit/audit';
import type { ServiceContext } from '@/server/context';
import { emit, recordEvents, type Hook } from '@/server/events/emit';
import { toActivityDto, type ActivityRow } from './dto';
import { applyDefault, applyHandled, dueTransition, reminderAt, type Transition, type TransitionEvent } from './lifecycle';
import { toNotificationDto } from './notifications';
import { isoOrNull } from '@/server/core/time';

type NotificationRow = typeof notifications.$inferSelect;

/** A due transition of one activity, with the project's time zone its reminders are counted in. */
export type DueTransition = { row: ActivityRow; timeZone: string; transition: Transition };

/** CONTRACT 6: `{id, transitionId, activity, status}`, or `reminder` instead of `status`. */
export function transitionParams(row: ActivityRow, timeZone: string, t: Transition): Record<string, unknown> {
  const base = { id: row.id, transitionId: t.transitionId, activity: toActivityDto(row) };
  return t.kind === 'reminder' ? { ...base, reminder: reminderAt(row, timeZone) } : { ...base, status: t.kind };
}

/** The audit trail's record of a transition applied by the system: status or reminder, and a notification written. */
function transitionAudit(before: ActivityRow, after: ActivityRow, notification?: NotificationRow): AuditEntry {
  return {
    projectId: before.projectId,
    action: 'update',
    resource: 'activity',
    resourceId: before.id,
    before: { status: before.status, remindAt: isoOrNull(before.remindAt) },
    after: { status: after.status, remindAt: isoOrNull(after.remindAt) },
    extra: notification ? { notification: { before: null, after: { id: notification.id, title: notification.title, status: notification.status } } } : undefined,
  };
}

/** What `after` webhooks get as responseData: the activity after the transition (and the notification). */
function transitionOutcome(row: ActivityRow, notification?: NotificationRow) {
  return notification ? { activity: toActivityDto(row), notification: toNotificationDto(notification) } : toActivityDto(row);
}

/**
 * The default reminder's notification, for the care plan's subject. Not for the subject to act on: stored
 * as suppressed. With a medium (email, sms, push) it waits, pending, for the integration that sends it;
 * without one it is in the member's inbox at once, so it is sent.
 */
function notificationFor(row: ActivityRow, timeZone: string, now: Date): typeof notifications.$inferInsert {
  const reminder = reminderAt(row, timeZone);
  const status = row.actorType !== 'subject' ? 'suppressed' : reminder.medium && reminder.medium.length > 0 ? 'pending' : 'sent';
  return {
    projectId: row.projectId,
    memberId: row.subjectId,
    activityId: row.id,
    title: `${row.type}: ${row.display}`,
    body: reminder.body ?? null,
    topic: reminder.topic ?? null,
    medium: reminder.medium ?? null,
    status,
    createdAt: now,
  };
}

/**
 * The defaults of many transitions whose events have only `after` webhooks, in the caller's transaction:
 * one update, one notification insert, and one event insert (with its deliveries) per project and event.
 */
export async function applyTransitionDefaults(
  tx: ServiceContext,
  batch: DueTransition[],
  now: Date,
  hooksOf: (projectId: number, event: string) => Hook[],
): Promise<void> {
  if (batch.length === 0) return;
  const changes = batch.map(({ row, timeZone, transition }) => {
    const c = applyDefault(row, transition, timeZone);
    return { id: row.id, status: c.status, remind_at: c.remindAt, reminder_index: c.reminderIndex, next_due_at: c.nextDueAt, seq: c.transitionSeq };
  });
  const updated = await tx.db
    .update(activities)
    .set({
      status: sql`v.status`,
      remindAt: sql`v.remind_at`,
      reminderIndex: sql`v.reminder_index`,
      nextDueAt: sql`v.next_due_at`,
      transitionSeq: sql`v.seq`,
      leaseUntil: null,
      failures: 0,
      updatedAt: now,
    })
    .from(sql`(${jsonRows(changes, 'v', 'id int, status text, remind_at timestamptz, reminder_index int, next_due_at timestamptz, seq int')}) v`)
    // The keys as an array besides the join: the generic plan probes them however few the activities
    // were when the table was last analyzed (db/rows.ts, anyKey).
    .where(sql`${activities.id} ${anyKey(changes.map((c) => c.id), 'int')} and ${activities.id} = v.id`)
    .returning(getTableColumns(activities));
  const after = new Map(updated.map((r) => [r.id, r]));

  const reminders = batch.filter((b) => b.transition.kind === 'reminder');
  const created = reminders.length > 0 ? await tx.db.insert(notifications).values(reminders.map((b) => notificationFor(b.row, b.timeZone, now))).returning() : [];
  const notificationOf = new Map(created.map((n) => [n.activityId, n]));

  // Queued before the events are recorded, so the audit rows ride along with the first event insert
  // instead of costing the batch a statement of its own before the commit.
  await auditMany(tx, batch.map((b) => transitionAudit(b.row, after.get(b.row.id)!, notificationOf.get(b.row.id))));
  const groups = new Map<string, { projectId: number; event: TransitionEvent; items: { params: Record<string, unknown>; responseData: unknown }[] }>();
  for (const b of batch) {
    const key = `${b.row.projectId}:${b.transition.event}`;
    const group = groups.get(key) ?? { projectId: b.row.projectId, event: b.transition.event, items: [] };
    group.items.push({ params: transitionParams(b.row, b.timeZone, b.transition), responseData: transitionOutcome(after.get(b.row.id)!, notificationOf.get(b.row.id)) });
    groups.set(key, group);
  }
  for (const g of groups.values()) await recordEvents({ ...tx, projectId: g.projectId }, g.event, g.items, hooksOf(g.projectId, g.event));
}

/** The transition was applied elsewhere, or an API change made it moot, since it was claimed. */
export class StaleTransition extends Error {
  constructor() {
    super('The transition is no longer due');
    this.name = 'StaleTransition';
  }
}

/**
 * One transition through `emit` (its event has `before` or `handle` webhooks): `before` webhooks may veto
 * it (AppError webhook_failed), a `handle` webhook replaces the default (the transition is noted as taken
 * over so it does not fire again), else the default runs. The row is locked and the transition computed
 * again inside the transaction, so a transition applied elsewhere meanwhile throws StaleTransition.
 */
export async function applyTransitionThroughEmit(ctx: ServiceContext, { row, timeZone, transition: t }: DueTransition): Promise<void> {
  const now = ctx.clock();
  const lockCurrent = async (tx: ServiceContext) => {
    const [current] = await tx.db.select().from(activities).where(eq(activities.id, row.id)).for('update');
    if (!current || dueTransition(current, now)?.transitionId !== t.transitionId) throw new StaleTransition();
    return current;
  };
  await emit(
    ctx,
    t.event,
    transitionParams(row, timeZone, t),
    async (tx) => {
      const current = await lockCurrent(tx);
      const c = applyDefault(current, t, timeZone);
      const [updated] = await tx.db
        .update(activities)
        .set({ ...c, leaseUntil: null, failures: 0, updatedAt: now })
        .where(eq(activities.id, row.id))
        .returning();
      const notification = t.kind === 'reminder' ? (await tx.db.insert(notifications).values(notificationFor(current, timeZone, now)).returning())[0] : undefined;
      await auditMany(tx, [transitionAudit(current, updated!, notification)]);
      return transitionOutcome(updated!, notification);
    },
    {
      onHandled: async (tx) => {
        const current = await lockCurrent(tx);
        await tx.db
          .update(activities)
          .set({ ...applyHandled(current, t), leaseUntil: null, failures: 0, updatedAt: now })
          .where(eq(activities.id, row.id));
      },
    },
  );
}
