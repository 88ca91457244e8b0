import { describe, expect, it } from 'vitest';
import { diffByKey } from './version-diff';

describe('comparing two versions', () => {
  it('lists added, removed, changed and unchanged items with the changed fields, removed ones in place', () => {
    const before = [
      { key: 'a', display: 'Call', start: { offset: 1, offsetUnit: 'd' } },
      { key: 'b', display: 'Visit' },
      { key: 'c', display: 'Read' },
    ];
    const after = [
      { key: 'a', display: 'Call', start: { offsetUnit: 'd', offset: 2 } },
      { key: 'c', display: 'Read' },
      { key: 'd', display: 'New' },
    ];
    const rows = diffByKey(before, after, (x) => x.key);
    expect(rows.map((r) => [r.key, r.status, r.fields])).toEqual([
      ['a', 'changed', ['start']],
      ['b', 'removed', []],
      ['c', 'same', []],
      ['d', 'added', []],
    ]);
  });

  it('ignores the order of object keys', () => {
    const rows = diffByKey([{ key: 'a', x: { p: 1, q: 2 } }], [{ x: { q: 2, p: 1 }, key: 'a' }], (x) => x.key);
    expect(rows[0]!.status).toBe('same');
  });
});
