import { describe, expect, it } from 'vitest';
import { iso, isoOrNull, isoString } from './time';

describe('isoString', () => {
  it('writes what Date.prototype.toISOString writes, across the four-digit years', () => {
    const edges = [
      0, -1, 1, 86_399_999, 86_400_000, -86_400_000,
      Date.UTC(2000, 1, 29, 12), Date.UTC(1900, 1, 28, 23, 59, 59, 999), Date.UTC(1900, 2, 1), Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999), Date.UTC(2025, 0, 1), Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(2026, 10, 26, 7, 32, 52, 5), Date.UTC(1, 0, 1), Date.UTC(999, 11, 31, 23, 59, 59, 999),
      -62_167_219_200_000, // 0000-01-01T00:00:00.000Z
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
    ];
    for (const t of edges) expect(isoString(t)).toBe(new Date(t).toISOString());
    // Every day of a 400-year cycle at a varying time of day, and random instants from year 0 to 9999.
    for (let day = 0; day < 146_097; day++) {
      const t = Date.UTC(1800, 0, 1) + day * 86_400_000 + ((day * 7_919_123) % 86_400_000);
      if (isoString(t) !== new Date(t).toISOString()) expect(isoString(t)).toBe(new Date(t).toISOString());
    }
    for (let i = 0; i < 100_000; i++) {
      const t = Math.floor(-62_167_219_200_000 + Math.random() * (253_402_300_800_000 + 62_167_219_200_000));
      if (isoString(t) !== new Date(t).toISOString()) expect(isoString(t)).toBe(new Date(t).toISOString());
    }
  });

  it('leaves six-digit years to the builtin and throws on an invalid date, as toISOString does', () => {
    expect(isoString(253_402_300_800_000)).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoString(-62_167_219_200_001)).toBe('-000001-12-31T23:59:59.999Z');
    expect(() => isoString(Number.NaN)).toThrow(RangeError);
    expect(() => iso(new Date('not a date'))).toThrow(RangeError);
  });

  it('formats Dates and nulls for responses', () => {
    expect(iso(new Date('2026-01-31T09:30:00+01:00'))).toBe('2026-01-31T08:30:00.000Z');
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
    expect(isoOrNull(new Date(Date.UTC(2026, 0, 31)))).toBe('2026-01-31T00:00:00.000Z');
  });
});
