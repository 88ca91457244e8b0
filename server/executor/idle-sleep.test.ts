import { describe, expect, it } from 'vitest';
import { idleSleepMs } from './scheduler';

describe('the scheduler idle sleep (idleSleepMs)', () => {
  it('looks again within 50 ms after a look that found work, and backs off to 250 ms while nothing comes', () => {
    expect([0, 1, 2, 3, 4, 50, 1_000].map((empty) => idleSleepMs(empty, null))).toEqual([50, 100, 200, 250, 250, 250, 250]);
  });

  it('never sleeps past the next due time, nor less than 20 ms', () => {
    expect(idleSleepMs(3, 120)).toBe(120);
    expect(idleSleepMs(0, 30)).toBe(30);
    expect(idleSleepMs(3, 5)).toBe(20);
    expect(idleSleepMs(3, -5_000)).toBe(20);
    expect(idleSleepMs(0, 10_000)).toBe(50);
  });
});
