import { getDb } from '@/db/client';
import { attemptDue, callTimeoutFor, type DueDelivery } from '@/server/jobs/attempt-delivery';
import { claimDueDeliveries, releaseDeliveries } from '@/server/jobs/claim-deliveries';
import { OutcomeBatcher } from './outcome-batcher';
import { WakeableSleep } from './wakeable-sleep';

const IDLE_POLL_MS = 1_000;

type QueuedDelivery = { delivery: DueDelivery; claimedAt: number };

/** Adds `by` to a webhook's count, dropping it at zero. */
function count(counts: Map<number, number>, webhookId: number, by: 1 | -1): void {
  const n = (counts.get(webhookId) ?? 0) + by;
  if (n > 0) counts.set(webhookId, n);
  else counts.delete(webhookId);
}

/**
 * The default executor: a loop in the server process that claims due deliveries and runs them at
 * bounded concurrency. It is woken after each commit that wrote work, and polls every second for
 * retries that came due.
 */
export class EmbeddedExecutor {
  private running = false;
  private inFlight = 0;
  private readonly nap = new WakeableSleep();
  private loopDone: Promise<void> | undefined;
  private readonly tasks = new Set<Promise<unknown>>();
  private readonly outcomes = new OutcomeBatcher(getDb);
  /** Deliveries in flight per webhook: each may hold at most `perWebhook` of the slots. */
  private readonly busy = new Map<number, number>();
  /**
   * Claimed ahead of the slots, so a slot that frees up starts its next delivery at once instead of
   * after a claim's round trip (a claim took 3-6 ms in the drain, longer than a POST to a fast receiver).
   */
  private readonly queue: QueuedDelivery[] = [];
  /** Deliveries held per webhook, queued or in flight: a claim takes at most twice its share. */
  private readonly held = new Map<number, number>();
  private readonly releasing = new Set<Promise<void>>();

  constructor(
    private readonly opts: {
      concurrency: number;
      leaseMs: number;
      perWebhook?: number;
      /**
       * How long a call may take; by default `callTimeoutFor(leaseMs)` (15 s, or half a short lease). A
       * test of the hand-back sets it longer, to make a queued call outlast its lease.
       */
      callTimeoutMs?: number;
      /** Called when a claim fills every free slot: more is due than the executor can take at once. */
      onBacklog?: () => void;
    },
  ) {}

  /** Slots plus as many claimed ahead. */
  private get capacity(): number {
    return 2 * this.opts.concurrency;
  }

  private get callTimeoutMs(): number {
    return this.opts.callTimeoutMs ?? callTimeoutFor(this.opts.leaseMs);
  }

  private get perWebhook(): number {
    return Math.min(this.opts.perWebhook ?? this.opts.concurrency, this.opts.concurrency);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
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
    // What is claimed and not started is handed back, so another instance takes it at once.
    const queued = this.queue.splice(0);
    for (const q of queued) count(this.held, q.delivery.webhookId, -1);
    await this.release(queued);
    await Promise.allSettled([...this.tasks, ...this.releasing]);
    await this.outcomes.flush();
  }

  private async loop(): Promise<void> {
    // Claim in batches: wait until a quarter of the slots' worth of room is free, so a busy executor does
    // not run one claim query per finished delivery.
    const batch = Math.max(1, Math.floor(this.opts.concurrency / 4));
    while (this.running) {
      let claimed: DueDelivery[] = [];
      const room = this.capacity - this.inFlight - this.queue.length;
      // Attempts whose POST is done but whose outcome is still being written do not hold a slot; should
      // the database fall behind, stop claiming until they are written.
      const writing = this.tasks.size - this.inFlight;
      if ((room >= batch || (room > 0 && this.inFlight === 0)) && writing < 4 * this.opts.concurrency) {
        const now = Date.now();
        try {
          claimed = await claimDueDeliveries(await getDb(), room, new Date(now), this.opts.leaseMs, { perWebhook: 2 * this.perWebhook, inFlight: this.held });
        } catch (e) {
          console.error('[executor] claiming failed', e);
        }
        for (const d of claimed) {
          count(this.held, d.webhookId, 1);
          this.queue.push({ delivery: d, claimedAt: now });
        }
        this.startQueued();
      }
      // Every free place filled: more is due at once (claim again when there is room, and let the
      // statistics catch up).
      if (claimed.length > 0 && claimed.length === room) {
        this.opts.onBacklog?.();
        await this.nap.sleep(0);
      } else await this.nap.sleep(claimed.length > 0 || this.inFlight > 0 ? 50 : IDLE_POLL_MS);
    }
  }

  /**
   * Starts queued deliveries in the free slots, oldest claim first, skipping a webhook that has its share
   * of slots. One that waited longer than a quarter of its lease is handed back instead: another instance
   * may take it once the lease runs out, and its call (at most half the lease) must end well before that.
   */
  private startQueued(): void {
    if (!this.running) return; // stop() hands the queue back
    const stale: QueuedDelivery[] = [];
    const oldest = Date.now() - this.opts.leaseMs / 4;
    for (let i = 0; i < this.queue.length && this.inFlight < this.opts.concurrency; ) {
      const q = this.queue[i]!;
      if (q.claimedAt < oldest) {
        stale.push(...this.queue.splice(i, 1));
        count(this.held, q.delivery.webhookId, -1);
      } else if ((this.busy.get(q.delivery.webhookId) ?? 0) < this.perWebhook) {
        this.queue.splice(i, 1);
        this.run(q.delivery);
      } else i++;
    }
    if (stale.length > 0) void this.release(stale);
  }

  /** Hands leases back (on stop, or a queued row that waited too long); should that fail, they lapse. */
  private async release(queued: QueuedDelivery[]): Promise<void> {
    const task = getDb()
      // The lease the claim set: its time plus the lease (claimDueDeliveries computes it the same way).
      .then((db) => releaseDeliveries(db, queued.map((q) => ({ id: q.delivery.id, leasedUntil: new Date(q.claimedAt + this.opts.leaseMs) }))))
      .catch((e: unknown) => console.error('[executor] releasing leases failed', e));
    this.releasing.add(task);
    await task;
    this.releasing.delete(task);
  }

  /**
   * One attempt. Its slot (and its webhook's share) is held while the POST is out, and given back as soon
   * as the answer is in: writing the outcome is batched and may take a few milliseconds more.
   */
  private run(delivery: DueDelivery): void {
    this.inFlight++;
    count(this.busy, delivery.webhookId, 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inFlight--;
      count(this.busy, delivery.webhookId, -1);
      count(this.held, delivery.webhookId, -1);
      // The slot goes to the next queued delivery at once, without waiting for the loop or a claim.
      this.startQueued();
      this.wake();
    };
    const task = getDb()
      .then((db) => attemptDue(db, delivery, { record: this.outcomes.record, sent: release, timeoutMs: this.callTimeoutMs }))
      .catch((e: unknown) => console.error(`[executor] delivery ${delivery.id} failed to run`, e))
      .finally(() => {
        release();
        this.tasks.delete(task);
        this.wake();
      });
    this.tasks.add(task);
  }
}
