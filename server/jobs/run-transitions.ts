import { and, eq, getTableColumns, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { activities, notifications, projects } from '@/db/schema';
import { createContext, withTransaction, type ServiceContext } from '@/server/context';
import { AppError } from '@/server/errors';
import { emit, hooksForEvents, recordEvents, type Hook } from '@/server/events/emit';
import { applyDefault, applyHandled, dueTransition, nextDueAt, reminderAt, TRANSITION_EVENTS, type Transition, type TransitionEvent } from '@/server/services/activities/lifecycle';
import { toNotificationDto } from '@/server/services/activities/notifications';
import { toActivityDto } from '@/server/services/careplans/careplans';

type ActivityRow = typeof activities.$inferSelect;
type NotificationRow = typeof notifications.$inferSelect;

const SYSTEM = { kind: 'system', role: 'admin' } as const;
export const TRANSITION_LEASE_MS = 60_000;

/** Rows nobody holds a lease on at `now` (a lease marks a transition running outside a transaction). */
export const unleasedAt = (now: Date) => or(isNull(activities.leaseUntil), lt(activities.leaseUntil, now))!;
/** Activities with a transition due at `now` that nobody is running. */
const claimableAt = (now: Date) => and(lte(activities.nextDueAt, now), unleasedAt(now))!;

/** A transition whose event has a `before` or `handle` webhook: it runs on its own, outside the batch. */
export type LeasedTransition = { row: ActivityRow; timeZone: string; transition: Transition; now: Date };
export type BatchOutcome = { claimed: number; applied: number; leased: LeasedTransition[]; dueTimes: Date[] };

type Options = {
  now: Date;
  limit?: number;
  projectId?: number;
  activityIds?: number[];
  leaseMs?: number;
  /** How many synchronous transitions the caller can start soon; the rest wait unleased. */
  maxLeased?: number;
};

/**
 * One scheduler pass: claims up to `limit` activities whose next transition is due (`FOR UPDATE SKIP
 * LOCKED`, so several workers share the table) and, in the same transaction, applies the default of each
 * transition whose event has only `after` webhooks, with its events, notifications and deliveries. A
 * crash before the commit leaves every row as it was; after it, nothing is due again. Transitions with
 * synchronous webhooks are leased and returned, to run through `emit` one by one.
 */
export async function claimAndApplyDue(db: Db, opts: Options): Promise<BatchOutcome> {
  const { now } = opts;
  const sys = createContext(db, 0, SYSTEM, () => now);
  return withTransaction(sys, async (tx) => {
    const filters: SQL[] = [claimableAt(now)];
    if (opts.projectId) filters.push(eq(activities.projectId, opts.projectId));
    if (opts.activityIds) filters.push(inArray(activities.id, opts.activityIds));
    const claimed = await tx.db
      .select({ row: activities, timeZone: projects.timeZone })
      .from(activities)
      .innerJoin(projects, eq(projects.id, activities.projectId))
      .where(and(...filters))
      .orderBy(activities.nextDueAt)
      .limit(opts.limit ?? 500)
      .for('update', { of: activities, skipLocked: true });
    if (claimed.length === 0) return { claimed: 0, applied: 0, leased: [], dueTimes: [] };

    const hooks = await hooksForEvents(tx.db, [...new Set(claimed.map((c) => c.row.projectId))], TRANSITION_EVENTS);
    const hooksOf = (projectId: number, event: string) => hooks.filter((h) => h.projectId === projectId && h.event === event);

    const batch: { row: ActivityRow; timeZone: string; t: Transition }[] = [];
    const leased: LeasedTransition[] = [];
    const stale: ActivityRow[] = [];
    for (const { row, timeZone } of claimed) {
      const t = dueTransition(row, now);
      if (!t) stale.push(row);
      else if (!hooksOf(row.projectId, t.event).some((h) => h.strategy !== 'after')) batch.push({ row, timeZone, t });
      // Leasing more than the caller can start would let leases run out in its queue (and run twice).
      else if (leased.length < (opts.maxLeased ?? Infinity)) leased.push({ row, timeZone, transition: t, now });
    }

    if (leased.length > 0) {
      await tx.db
        .update(activities)
        .set({ leaseUntil: new Date(now.getTime() + (opts.leaseMs ?? TRANSITION_LEASE_MS)) })
        .where(inArray(activities.id, leased.map((l) => l.row.id)));
    }
    for (const row of stale) await tx.db.update(activities).set({ nextDueAt: nextDueAt(row) }).where(eq(activities.id, row.id));
    await applyBatch(tx, batch, now, hooksOf);
    return { claimed: claimed.length, applied: batch.length, leased, dueTimes: batch.map((b) => b.t.at) };
  });
}

/** The defaults of many transitions: one update, one notification insert, one event insert per kind. */
async function applyBatch(
  tx: ServiceContext,
  batch: { row: ActivityRow; timeZone: string; t: Transition }[],
  now: Date,
  hooksOf: (projectId: number, event: string) => (Hook & { projectId: number })[],
) {
  if (batch.length === 0) return;
  const changes = batch.map(({ row, timeZone, t }) => {
    const c = applyDefault(row, t, timeZone);
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
    .from(
      sql`jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as v(id int, status text, remind_at timestamptz, reminder_index int, next_due_at timestamptz, seq int)`,
    )
    .where(sql`${activities.id} = v.id`)
    .returning(getTableColumns(activities));
  const after = new Map(updated.map((r) => [r.id, r]));

  const reminders = batch.filter((b) => b.t.kind === 'reminder');
  const created = reminders.length > 0 ? await tx.db.insert(notifications).values(reminders.map((b) => notificationFor(b.row, b.timeZone, now))).returning() : [];
  const notificationOf = new Map(created.map((n) => [n.activityId, n]));

  const groups = new Map<string, { projectId: number; event: TransitionEvent; items: { params: Record<string, unknown>; responseData: unknown }[] }>();
  for (const b of batch) {
    const key = `${b.row.projectId}:${b.t.event}`;
    const group = groups.get(key) ?? { projectId: b.row.projectId, event: b.t.event, items: [] };
    group.items.push({ params: eventParams(b.row, b.timeZone, b.t), responseData: outcome(after.get(b.row.id)!, notificationOf.get(b.row.id)) });
    groups.set(key, group);
  }
  for (const g of groups.values()) await recordEvents({ ...tx, projectId: g.projectId }, g.event, g.items, hooksOf(g.projectId, g.event));
}

/** CONTRACT 6: `{id, transitionId, activity, status}`, or `reminder` instead of `status`. */
export function eventParams(row: ActivityRow, timeZone: string, t: Transition): Record<string, unknown> {
  const base = { id: row.id, transitionId: t.transitionId, activity: toActivityDto(row) };
  return t.kind === 'reminder' ? { ...base, reminder: reminderAt(row, timeZone) } : { ...base, status: t.kind };
}

/** What `after` webhooks get as responseData: the activity after the transition (and the notification). */
function outcome(row: ActivityRow, notification?: NotificationRow) {
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

class StaleTransition extends Error {}

/** Backoff for a transition whose synchronous webhook failed: 5 s doubling, at most 10 min. */
export const retryDelayMs = (failures: number) => Math.min(5_000 * 2 ** failures, 600_000);

/**
 * A leased transition through `emit`: `before` webhooks may veto it (it is retried with backoff), a
 * `handle` webhook replaces the default (the transition is noted as taken over), else the default runs.
 * The row is locked and the transition computed again inside the transaction, so a transition that was
 * applied elsewhere, or made moot by an API change meanwhile, is not applied twice.
 */
export async function runLeasedTransition(db: Db, { row, timeZone, transition: t, now }: LeasedTransition): Promise<'applied' | 'stale' | 'failed'> {
  const ctx = createContext(db, row.projectId, SYSTEM, () => now);
  const lockCurrent = async (tx: ServiceContext) => {
    const [current] = await tx.db.select().from(activities).where(eq(activities.id, row.id)).for('update');
    if (!current || dueTransition(current, now)?.transitionId !== t.transitionId) throw new StaleTransition();
    return current;
  };
  try {
    await emit(
      ctx,
      t.event,
      eventParams(row, timeZone, t),
      async (tx) => {
        const current = await lockCurrent(tx);
        const c = applyDefault(current, t, timeZone);
        const [updated] = await tx.db
          .update(activities)
          .set({ ...c, leaseUntil: null, failures: 0, updatedAt: now })
          .where(eq(activities.id, row.id))
          .returning();
        const notification = t.kind === 'reminder' ? (await tx.db.insert(notifications).values(notificationFor(current, timeZone, now)).returning())[0] : undefined;
        return outcome(updated!, notification);
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
    return 'applied';
  } catch (e) {
    if (e instanceof StaleTransition) {
      await db.update(activities).set({ leaseUntil: null }).where(eq(activities.id, row.id));
      return 'stale';
    }
    if (e instanceof AppError && e.code === 'webhook_failed') {
      await db
        .update(activities)
        .set({ leaseUntil: new Date(now.getTime() + retryDelayMs(row.failures)), failures: row.failures + 1 })
        .where(eq(activities.id, row.id));
      console.warn(`[scheduler] ${t.event} of activity ${row.id} not applied: ${e.message}`);
      return 'failed';
    }
    throw e;
  }
}

/** Runs everything due now, leased transitions inline: the Inngest function and tests that move the clock. */
export async function runDueTransitions(db: Db, opts: Options) {
  let applied = 0;
  const results: Awaited<ReturnType<typeof runLeasedTransition>>[] = [];
  for (;;) {
    const batch = await claimAndApplyDue(db, opts);
    applied += batch.applied;
    for (const l of batch.leased) results.push(await runLeasedTransition(db, l));
    // Leased rows that failed are leased into the future, so this ends once nothing is due at `now`.
    if (batch.claimed === 0) break;
  }
  return { applied: applied + results.filter((r) => r === 'applied').length, failed: results.filter((r) => r === 'failed').length };
}

/**
 * Due, unleased activities for the Inngest sweep, without claiming them: the function that runs one
 * claims it. `dedupeKey` names this firing (sequence, due time, failures), so repeats are dropped.
 */
export async function findDueActivities(db: Db, now: Date, limit: number) {
  const rows = await db
    .select({ id: activities.id, projectId: activities.projectId, seq: activities.transitionSeq, at: activities.nextDueAt, failures: activities.failures })
    .from(activities)
    .where(claimableAt(now))
    .orderBy(activities.nextDueAt)
    .limit(limit);
  return rows.map((r) => ({ activityId: r.id, projectId: r.projectId, dedupeKey: `activity-${r.id}-${r.seq}-${r.at!.getTime()}-${r.failures}` }));
}
