import { describe, expect, it } from 'vitest';
import { remembered } from './remembered';

describe('remembered', () => {
  it('computes once per key, keeps a null answer, and drops the oldest beyond its limit', () => {
    const cache = new Map<string, string | null>();
    let computed = 0;
    const get = (key: string) => remembered(cache, key, () => (computed++, key === 'none' ? null : key.toUpperCase()), 3);
    expect(get('a')).toBe('A');
    expect(get('a')).toBe('A');
    expect(get('none')).toBeNull();
    expect(get('none')).toBeNull();
    expect(computed).toBe(2);
    get('b');
    get('c'); // a fourth key: 'a', the oldest, is dropped
    expect([...cache.keys()]).toEqual(['none', 'b', 'c']);
    expect(get('a')).toBe('A');
    expect(computed).toBe(5);
  });
});
