import { describe, expect, it } from 'vitest';
import { WakeableSleep } from './wakeable-sleep';

describe('WakeableSleep', () => {
  it('is cut short by wake()', async () => {
    const nap = new WakeableSleep();
    const t0 = performance.now();
    const slept = nap.sleep(5_000);
    nap.wake();
    await slept;
    expect(performance.now() - t0).toBeLessThan(1_000);
  });

  it('keeps a wake that came while nobody slept for the next sleep, once', async () => {
    const nap = new WakeableSleep();
    nap.wake();
    const t0 = performance.now();
    await nap.sleep(5_000);
    expect(performance.now() - t0).toBeLessThan(1_000);
    const t1 = performance.now();
    await nap.sleep(200);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(150);
  });

  it('forgets a sleep that timed out: a later wake is kept, not spent on it', async () => {
    const nap = new WakeableSleep();
    await nap.sleep(10);
    nap.wake();
    const t0 = performance.now();
    await nap.sleep(5_000);
    expect(performance.now() - t0).toBeLessThan(1_000);
  });
});
