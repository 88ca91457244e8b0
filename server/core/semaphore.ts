/**
 * A FIFO semaphore. postgres.js 3.4 slows down steadily when more queries wait than the pool has
 * connections (porsager/postgres#747), so requests queue here, in order, instead of inside the driver.
 * A wait may be bounded: past `timeoutMs` the caller gets `onTimeout()`'s error instead of a slot.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: { resolve: () => void; timer?: NodeJS.Timeout }[] = [];

  constructor(private readonly capacity: number) {}

  async run<T>(fn: () => Promise<T>, opts: { timeoutMs?: number; onTimeout?: () => Error } = {}): Promise<T> {
    if (this.active >= this.capacity) {
      await new Promise<void>((resolve, reject) => {
        const entry: { resolve: () => void; timer?: NodeJS.Timeout } = { resolve };
        if (opts.timeoutMs !== undefined) {
          entry.timer = setTimeout(() => {
            const i = this.waiting.indexOf(entry);
            if (i >= 0) this.waiting.splice(i, 1);
            reject(opts.onTimeout?.() ?? new Error('Timed out waiting for a slot'));
          }, opts.timeoutMs);
        }
        this.waiting.push(entry);
      });
    } else this.active++;
    try {
      return await fn();
    } finally {
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
}
