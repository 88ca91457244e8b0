import { describe, expect, it } from 'vitest';
import { elapsed } from './dates';

describe('elapsed (how long a webhook has been failing)', () => {
  const now = new Date('2026-12-04T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('says the same thing for every moment of the first minute, and counts whole units after it', () => {
    // The first minute used to read "a minute" and the second "1 minute": two webhooks that began failing
    // seconds apart were described differently on the console's home page.
    expect(elapsed(ago(0), now)).toBe('less than a minute');
    expect(elapsed(ago(59_999), now)).toBe('less than a minute');
    expect(elapsed(ago(60_000), now)).toBe('1 minute');
    expect(elapsed(ago(119_999), now)).toBe('1 minute');
    expect(elapsed(ago(5 * 60_000 + 30_000), now)).toBe('5 minutes');
    expect(elapsed(ago(3_600_000), now)).toBe('1 hour');
    expect(elapsed(ago(2 * 86_400_000 + 3_600_000), now)).toBe('2 days');
  });

  it('treats a time in the future (a clock ahead of this one) as just now', () => {
    expect(elapsed(new Date(now.getTime() + 30_000), now)).toBe('less than a minute');
  });
});
