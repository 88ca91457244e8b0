import { describe, expect, it } from 'vitest';
import { sameValue } from './same-value';

describe('sameValue (dirty checks compare values, not JSON text)', () => {
  it('ignores key order and undefined keys, keeps array order', () => {
    expect(sameValue({ user: { read: true }, admin: { read: true, write: true } }, { admin: { write: true, read: true }, user: { read: true } })).toBe(true);
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameValue({ a: { b: [1, 2] } }, { a: { b: [2, 1] } })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue([], {})).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue(NaN, NaN)).toBe(true);
  });
});
