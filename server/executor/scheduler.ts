import { and, asc, isNotNull } from 'drizzle-orm';
import { getDb, type Db } from '@/db/client';
import { activities } from '@/db/schema';
import { claimAndApplyDue, renewLeases, runLeasedTransition, TRANSITION_LEASE_MS, unleasedAt, type LeasedTransition } from '@/server/jobs/run-transitions';
import { WakeableSleep } from './wakeable-sleep';

/**
 * How long an idle look sleeps. Commits do not wake the scheduler, so an activity created due at once waits
 * for the next look, and what came due meanwhile is applied in one batch that the requests around it wait
 * behind: the longer between looks, the bigger that batch (1 s made 50-70 ms batches at 130 enrolments/s;
 * 250 ms held most single-client enrolments over 15 ms; decision 0014, fifteenth and twenty-first passes).
 * So the first empty look after work sleeps `BUSY_IDLE_MS`, and each further one twice as long, up to
 * `MAX_IDLE_MS`: while transitions keep coming it looks every 50 ms, an idle one four times a second.
 * Never longer than until the next due time, nor shorter than `MIN_IDLE_MS`. A look is two indexed queries.
 */
const BUSY_IDLE_MS = 50;
const MAX_IDLE_MS = 250;
const MIN_IDLE_MS = 20;

/** The sleep after `emptyLooks` empty looks in a row (0: the first since one found work) with the next due time `untilDueMs` away. */
export function idleSleepMs(emptyLooks: number, untilDueMs: number | null): number {
  const backoff = Math.min(MAX_IDLE_MS, BUSY_IDLE_MS * 2 ** emptyLooks);
  return untilDueMs === null ? backoff : Math.min(backoff, Math.max(MIN_IDLE_MS, untilDueMs));
}

/** After a failed pass, or while only transitions waiting for a busy webhook slot are due. */
const RETRY_MS = 1_000;

export type SchedulerBatch = { applied: number; dueTimes: Date[]; doneAt: number };

type Options = {
  /** Activities claimed per transaction. */
  batchSize?: number;
  leaseMs?: number;
  /** Transitions with synchronous webhooks running at once (each may wait up to 10 s on an integration). */
  syncConcurrency?: number;
  clock?: () => Date;
  /** Claims only this project's activities (tests on a shared database). */
  projectId?: number;
  /** Called after each committed batch (benchmarks measure lateness with it). */
  onBatch?: (batch: SchedulerBatch) => void;
  /** Called when a claim took a whole batch: more is due than one batch holds. */
  onBacklog?: () => void;
};

/**
 * The embedded scheduler: a loop that applies due activity transitions in batches. While work is due it
 * claims again at once; when idle it sleeps until the next due time, at most 50 ms after a look that found
 * work and backing off to 250 ms (commits do not wake it, so that is how soon it sees an activity created
 * due at once, here or by another instance).
 * Transitions with `before`/`handle` webhooks run beside the loop at bounded concurrency, so a slow
 * integration does not hold the others back. Their leases are renewed every
 * third of a lease while they are queued or running, so no other instance takes them while this one lives;
 * on stop, what is queued and not started is handed back at once.
 */
export class TransitionScheduler {
  private running = false;
  private loopDone: Promise<void> | undefined;
  private readonly nap = new WakeableSleep();
  private readonly queue: LeasedTransition[] = [];
  /** Transitions running, by activity id. */
  private readonly tasks = new Map<number, { leased: LeasedTransition; done: Promise<unknown> }>();
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  /** Looks in a row that claimed nothing (the idle sleep backs off with them). */
  private emptyLooks = 0;

  constructor(private readonly opts: Options = {}) {}

  private get clock() {
    return this.opts.clock ?? (() => new Date());
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
    this.renewTimer ??= setInterval(() => this.renewHeld(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
  }

  wake(): void {
    this.nap.wake();
  }

  isRunning(): boolean {
    return this.running;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
    // What is queued and not started is handed back, so another instance claims it at once instead of
    // after its lease. (A renewal in flight may still move these leases: wait for it, it updates them.)
    const queued = this.queue.splice(0);
    await this.renewing;
    await this.release(queued);
    await Promise.allSettled([...this.tasks.values()].map((t) => t.done));
    clearInterval(this.renewTimer);
    this.renewTimer = undefined;
    await this.renewing;
  }

  /** Releases leases still this instance's; should that fail, they lapse after their lease instead. */
  private async release(leased: LeasedTransition[]): Promise<void> {
    try {
      await renewLeases(await getDb(), leased, null);
    } catch (e) {
      console.error('[scheduler] releasing leases failed', e);
    }
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        const db = await getDb();
        const maxLeased = Math.max(0, 2 * this.syncConcurrency - this.queue.length - this.tasks.size);
        const batch = await claimAndApplyDue(db, {
          now: this.clock(),
          limit: this.batchSize,
          leaseMs: this.leaseMs,
          maxLeased,
          // Not claimed again while held here, should a renewal come late (a stalled loop, a busy connection).
          exclude: this.held().map((l) => l.row.id),
          projectId: this.opts.projectId,
        });
        claimed = batch.claimed;
        if (claimed >= this.batchSize) this.opts.onBacklog?.();
        this.opts.onBatch?.({ applied: batch.applied, dueTimes: batch.dueTimes, doneAt: Date.now() });
        this.queue.push(...batch.leased);
        this.drainQueue(db);
        if (claimed === 0) await this.nap.sleep(await this.idleMs(db, this.emptyLooks++));
        else {
          this.emptyLooks = 0;
          // Only synchronous transitions are due and every slot is busy: wait for one to finish.
          if (batch.applied === 0 && batch.leased.length === 0) await this.nap.sleep(RETRY_MS);
        }
      } catch (e) {
        console.error('[scheduler] a pass failed', e);
        await this.nap.sleep(RETRY_MS);
      }
    }
  }

  /** Until the earliest unleased due time, within the backoff after `emptyLooks` empty looks (idleSleepMs). */
  private async idleMs(db: Db, emptyLooks: number): Promise<number> {
    const now = this.clock();
    const [next] = await db
      .select({ at: activities.nextDueAt })
      .from(activities)
      .where(and(isNotNull(activities.nextDueAt), unleasedAt(now)))
      .orderBy(asc(activities.nextDueAt))
      .limit(1);
    return idleSleepMs(emptyLooks, next?.at ? next.at.getTime() - now.getTime() : null);
  }

  private get leaseMs() {
    return this.opts.leaseMs ?? TRANSITION_LEASE_MS;
  }

  /** The leased transitions this instance holds: queued or running. */
  private held(): LeasedTransition[] {
    return [...this.queue, ...[...this.tasks.values()].map((t) => t.leased)];
  }

  /**
   * Renews the leases of what is queued or running here (one statement, skipped while the last one runs).
   * A queued transition whose lease another instance holds now is dropped: that instance runs it.
   */
  private renewHeld(): void {
    const held = this.held();
    if (this.renewing || held.length === 0) return;
    const until = new Date(this.clock().getTime() + this.leaseMs);
    this.renewing = (async () => {
      const { renewed, lost } = await renewLeases(await getDb(), held, until);
      const byId = new Map(held.map((l) => [l.row.id, l]));
      for (const id of renewed) byId.get(id)!.leaseUntil = until;
      const gone = new Set(lost);
      for (let i = this.queue.length - 1; i >= 0; i--) if (gone.has(this.queue[i]!.row.id)) this.queue.splice(i, 1);
    })()
      .catch((e: unknown) => console.error('[scheduler] renewing leases failed', e))
      .finally(() => (this.renewing = undefined));
  }

  private get batchSize() {
    return this.opts.batchSize ?? 500;
  }

  private get syncConcurrency() {
    return this.opts.syncConcurrency ?? 8;
  }

  private drainQueue(db: Db): void {
    const limit = this.syncConcurrency;
    while (this.tasks.size < limit && this.queue.length > 0) {
      const leased = this.queue.shift()!;
      const done = runLeasedTransition(db, leased)
        .catch((e: unknown) => console.error(`[scheduler] activity ${leased.row.id}: ${leased.transition.event} failed`, e))
        .finally(() => {
          this.tasks.delete(leased.row.id);
          this.drainQueue(db);
          // Claim again once the queue ran dry (its activities may have their next transition due).
          if (this.queue.length === 0) this.wake();
        });
      this.tasks.set(leased.row.id, { leased, done });
    }
  }

}
