/**
 * A FIFO semaphore. postgres.js 3.4 slows down steadily when more queries wait than the pool has
 * connections (porsager/postgres#747), so requests queue here, in order, instead of inside the driver.
 * A wait may be bounded: past `timeoutMs` the caller gets `onTimeout()`'s error instead of a slot;
 * `onTimeout` is told how the semaphore stood then, so that a refusal can say what held the slots.
 */
export type SemaphoreState = {
  /** Slots in use. */
  active: number;
  capacity: number;
  /** Callers still waiting, not counting the one refused. */
  queued: number;
  /** How long the longest-held slot has been held, in ms (0 when none is). */
  oldestHeldMs: number;
};

type Holder = { since: number };

export class Semaphore {
  /** Slots taken, counting one handed to a waiter that has not resumed yet. */
  private active = 0;
  private readonly holders = new Set<Holder>();
  private readonly waiting: { resolve: () => void; timer?: NodeJS.Timeout }[] = [];

  constructor(private readonly capacity: number) {}

  async run<T>(fn: () => Promise<T>, opts: { timeoutMs?: number; onTimeout?: (state: SemaphoreState) => Error } = {}): Promise<T> {
    if (this.active >= this.capacity) {
      await new Promise<void>((resolve, reject) => {
        const entry: { resolve: () => void; timer?: NodeJS.Timeout } = { resolve };
        if (opts.timeoutMs !== undefined) {
          entry.timer = setTimeout(() => {
            const i = this.waiting.indexOf(entry);
            if (i >= 0) this.waiting.splice(i, 1);
            reject(opts.onTimeout?.(this.state()) ?? new Error('Timed out waiting for a slot'));
          }, opts.timeoutMs);
        }
        this.waiting.push(entry);
      });
    } else this.active++;
    // A slot handed over by a finishing holder (active unchanged) is this caller's from here.
    const holder: Holder = { since: performance.now() };
    this.holders.add(holder);
    try {
      return await fn();
    } finally {
      this.holders.delete(holder);
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.resolve();
      } else this.active--;
    }
  }

  /** Requests waiting for a slot (readiness and benchmarks read it). */
  get queued(): number {
    return this.waiting.length;
  }

  state(): SemaphoreState {
    // A Set iterates in insertion order and holders are added as they take their slots: the first is the oldest.
    const oldest = this.holders.values().next().value;
    return {
      active: this.active,
      capacity: this.capacity,
      queued: this.waiting.length,
      oldestHeldMs: oldest ? Math.round(performance.now() - oldest.since) : 0,
    };
  }
}
