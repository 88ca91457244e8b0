import { and, eq, inArray, isNull, notInArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Queryable } from '@/db/client';
import { activities, projects } from '@/db/schema';
import { createContext, withTransaction } from '@/server/context';
import { AppError } from '@/server/errors';
import { hooksForEvents } from '@/server/events/emit';
import { dueTransition, nextDueAt, TRANSITION_EVENTS } from '@/server/services/activities/lifecycle';
import { applyTransitionDefaults, applyTransitionThroughEmit, StaleTransition, type DueTransition } from '@/server/services/activities/transitions';
import { anyKey, jsonRows, rowsOf, ts } from './sql';

const SYSTEM = { kind: 'system', role: 'admin' } as const;
export const TRANSITION_LEASE_MS = 60_000;

/** Rows nobody holds a lease on at `now` (a lease marks a transition running outside a transaction). */
export const unleasedAt = (now: Date) => or(isNull(activities.leaseUntil), lt(activities.leaseUntil, now))!;
/** Activities with a transition due at `now` that nobody is running. */
const claimableAt = (now: Date) => and(lte(activities.nextDueAt, now), unleasedAt(now))!;

/**
 * A transition whose event has a `before` or `handle` webhook: it runs on its own, outside the batch.
 * `leaseUntil` is the lease this worker wrote (a worker that renews it updates it here).
 */
export type LeasedTransition = DueTransition & { now: Date; leaseUntil: Date };
export type BatchOutcome = { claimed: number; applied: number; leased: LeasedTransition[]; dueTimes: Date[] };

type Options = {
  now: Date;
  limit?: number;
  projectId?: number;
  activityIds?: number[];
  /** Activities the caller already holds (queued or running): not claimed again should their lease lapse. */
  exclude?: number[];
  leaseMs?: number;
  /** How many synchronous transitions the caller can start soon; the rest wait unleased. */
  maxLeased?: number;
};

/**
 * One scheduler pass: claims up to `limit` activities whose next transition is due (`FOR UPDATE SKIP
 * LOCKED`, so several workers share the table) and, in the same transaction, applies the default of each
 * transition whose event has only `after` webhooks. A crash before the commit leaves every row as it was;
 * after it, nothing is due again. Transitions with synchronous webhooks are leased and returned, to run
 * through `emit` one by one.
 */
export async function claimAndApplyDue(db: Db, opts: Options): Promise<BatchOutcome> {
  const { now } = opts;
  const sys = createContext(db, 0, SYSTEM, () => now);
  return withTransaction(sys, async (tx) => {
    const filters: SQL[] = [claimableAt(now)];
    if (opts.projectId) filters.push(eq(activities.projectId, opts.projectId));
    if (opts.activityIds) filters.push(inArray(activities.id, opts.activityIds));
    if (opts.exclude?.length) filters.push(notInArray(activities.id, opts.exclude));
    // The project's time zone comes from a subquery, not a join: joined, a planner without statistics
    // (a new table, autovacuum not yet run) walked from the one project into all of its activities, every
    // pass; alone, activity is read in due order through its due index, and only the rows due.
    const claimed = await tx.db
      .select({ row: activities, timeZone: sql<string>`(select ${projects.timeZone} from ${projects} where ${projects.id} = ${activities.projectId})` })
      .from(activities)
      .where(and(...filters))
      .orderBy(activities.nextDueAt)
      .limit(opts.limit ?? 500)
      .for('update', { of: activities, skipLocked: true });
    if (claimed.length === 0) return { claimed: 0, applied: 0, leased: [], dueTimes: [] };

    const hooks = await hooksForEvents(tx.db, [...new Set(claimed.map((c) => c.row.projectId))], TRANSITION_EVENTS);
    const hooksOf = (projectId: number, event: string) => hooks.filter((h) => h.projectId === projectId && h.event === event);

    const leaseUntil = new Date(now.getTime() + (opts.leaseMs ?? TRANSITION_LEASE_MS));
    const batch: DueTransition[] = [];
    const leased: LeasedTransition[] = [];
    const stale = [];
    for (const { row, timeZone } of claimed) {
      const transition = dueTransition(row, now);
      if (!transition) stale.push(row);
      else if (!hooksOf(row.projectId, transition.event).some((h) => h.strategy !== 'after')) batch.push({ row, timeZone, transition });
      // Leasing more than the caller can start would let leases run out in its queue (and run twice).
      else if (leased.length < (opts.maxLeased ?? Infinity)) leased.push({ row, timeZone, transition, now, leaseUntil });
    }

    if (leased.length > 0) {
      await tx.db
        .update(activities)
        .set({ leaseUntil })
        .where(inArray(activities.id, leased.map((l) => l.row.id)));
    }
    for (const row of stale) await tx.db.update(activities).set({ nextDueAt: nextDueAt(row) }).where(eq(activities.id, row.id));
    await applyTransitionDefaults(tx, batch, now, hooksOf);
    return { claimed: claimed.length, applied: batch.length, leased, dueTimes: batch.map((b) => b.transition.at) };
  });
}

/**
 * Extends the leases a worker holds (transitions queued or waiting on a synchronous webhook) to `until`,
 * so a lease lasts as long as its worker does, however long the call and its commit take: a lease that
 * lapsed while its worker was still busy let another worker call the same `before` webhook again.
 * A row is renewed only while its lease is still the one this worker wrote; a row another worker took
 * after a lapse, or whose transition settled, is reported `lost` and left alone. A row locked by a commit
 * in progress is skipped (neither renewed nor lost) and tried next time.
 * `until: null` releases the leases instead: a worker that stops hands back what it has not started, and
 * another worker may claim it at once rather than after the lease.
 */
export async function renewLeases(db: Queryable, held: readonly LeasedTransition[], until: Date | null): Promise<{ renewed: number[]; lost: number[] }> {
  if (held.length === 0) return { renewed: [], lost: [] };
  const mine = held.map((h) => ({ id: h.row.id, lease: h.leaseUntil.toISOString() }));
  const result = await db.execute(sql`
    with held as (${jsonRows(mine, 'h', 'id int, lease timestamptz')}),
    cur as (
      select a.id, a.lease_until is not distinct from h.lease as ours
      from activity a join held h on h.id = a.id
      where a.id ${anyKey(mine.map((m) => m.id), 'int')}
      for update of a skip locked
    ),
    renewed as (update activity a set lease_until = ${until ? ts(until) : sql`null`} from cur where a.id = cur.id and cur.ours returning a.id)
    select id, ours from cur`);
  const rows = rowsOf<{ id: number; ours: boolean }>(result);
  return { renewed: rows.filter((r) => r.ours).map((r) => r.id), lost: rows.filter((r) => !r.ours).map((r) => r.id) };
}

/** Backoff for a transition whose synchronous webhook failed: 5 s doubling, at most 10 min. */
export const retryDelayMs = (failures: number) => Math.min(5_000 * 2 ** failures, 600_000);

/**
 * Runs a leased transition and settles its lease: applied, stale (released), or vetoed or failed by a
 * synchronous webhook (retried later with backoff).
 */
export async function runLeasedTransition(db: Db, leased: LeasedTransition): Promise<'applied' | 'stale' | 'failed'> {
  const { row, transition: t, now } = leased;
  try {
    await applyTransitionThroughEmit(createContext(db, row.projectId, SYSTEM, () => now), leased);
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
 * `projectId` scopes a sweep to one project (tests on a shared database).
 */
export async function findDueActivities(db: Db, now: Date, limit: number, projectId?: number) {
  const rows = await db
    .select({ id: activities.id, projectId: activities.projectId, seq: activities.transitionSeq, at: activities.nextDueAt, failures: activities.failures })
    .from(activities)
    .where(projectId ? and(claimableAt(now), eq(activities.projectId, projectId)) : claimableAt(now))
    .orderBy(activities.nextDueAt)
    .limit(limit);
  return rows.map((r) => ({ activityId: r.id, projectId: r.projectId, dedupeKey: `activity-${r.id}-${r.seq}-${r.at!.getTime()}-${r.failures}` }));
}
