import type { Queryable } from '@/db/client';
import { recordOutcomes, type Outcome } from '@/server/jobs/attempt-delivery';

/**
 * Collects attempt outcomes and writes them together: at most `maxBatch` per statement, and no later than
 * `maxDelayMs` after the first one. At thousands of deliveries a second this turns one round trip per
 * delivery into one per batch.
 */
export class OutcomeBatcher {
  private pending: { outcome: Outcome; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: () => Promise<Queryable>,
    private readonly maxBatch = 64,
    private readonly maxDelayMs = 10,
  ) {}

  record = (outcome: Outcome): Promise<void> =>
    new Promise((resolve, reject) => {
      this.pending.push({ outcome, resolve, reject });
      if (this.pending.length >= this.maxBatch) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
    });

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0, this.pending.length);
    if (batch.length === 0) return;
    try {
      await recordOutcomes(await this.db(), batch.map((b) => b.outcome));
      for (const b of batch) b.resolve();
    } catch (e) {
      for (const b of batch) b.reject(e);
    }
  }
}
