import { getDb } from '@/db/client';
import { attemptDue, type DueDelivery } from '@/server/jobs/attempt-delivery';
import { claimDueDeliveries } from '@/server/jobs/claim-deliveries';
import { OutcomeBatcher } from './outcome-batcher';
import { WakeableSleep } from './wakeable-sleep';

const IDLE_POLL_MS = 1_000;

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

  constructor(
    private readonly opts: {
      concurrency: number;
      leaseMs: number;
      perWebhook?: number;
      /** Called when a claim fills every free slot: more is due than the executor can take at once. */
      onBacklog?: () => void;
    },
  ) {}

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
    await Promise.allSettled([...this.tasks]);
    await this.outcomes.flush();
  }

  private async loop(): Promise<void> {
    // Claim in batches: wait until a quarter of the slots are free, so a busy executor does not run
    // one claim query per finished delivery.
    const batch = Math.max(1, Math.floor(this.opts.concurrency / 4));
    const perWebhook = Math.min(this.opts.perWebhook ?? this.opts.concurrency, this.opts.concurrency);
    while (this.running) {
      let claimed: DueDelivery[] = [];
      const free = this.opts.concurrency - this.inFlight;
      // Attempts whose POST is done but whose outcome is still being written do not hold a slot; should
      // the database fall behind, stop claiming until they are written.
      const writing = this.tasks.size - this.inFlight;
      if ((free >= batch || (free > 0 && this.inFlight === 0)) && writing < 4 * this.opts.concurrency) {
        try {
          claimed = await claimDueDeliveries(await getDb(), free, new Date(), this.opts.leaseMs, { perWebhook, inFlight: this.busy });
        } catch (e) {
          console.error('[executor] claiming failed', e);
        }
        for (const d of claimed) this.run(d);
      }
      // Every free slot filled: more is due at once (claim again now, and let the statistics catch up).
      if (claimed.length > 0 && claimed.length === free) {
        this.opts.onBacklog?.();
        await this.nap.sleep(0);
      } else await this.nap.sleep(claimed.length > 0 || this.inFlight > 0 ? 50 : IDLE_POLL_MS);
    }
  }

  /**
   * One attempt. Its slot (and its webhook's share) is held while the POST is out, and given back as soon
   * as the answer is in: writing the outcome is batched and may take a few milliseconds more.
   */
  private run(delivery: DueDelivery): void {
    this.inFlight++;
    this.busy.set(delivery.webhookId, (this.busy.get(delivery.webhookId) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inFlight--;
      const left = (this.busy.get(delivery.webhookId) ?? 1) - 1;
      if (left > 0) this.busy.set(delivery.webhookId, left);
      else this.busy.delete(delivery.webhookId);
      this.wake();
    };
    const task = getDb()
      .then((db) => attemptDue(db, delivery, { record: this.outcomes.record, sent: release }))
      .catch((e: unknown) => console.error(`[executor] delivery ${delivery.id} failed to run`, e))
      .finally(() => {
        release();
        this.tasks.delete(task);
        this.wake();
      });
    this.tasks.add(task);
  }
}
