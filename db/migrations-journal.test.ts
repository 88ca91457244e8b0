import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * drizzle's migrator applies a migration only when its journal time (`when`) is later than the last
 * applied one's: an entry whose time is earlier than its predecessor's is skipped on every database that
 * already has the predecessor, and a time in the future makes the next generated migration earlier than it.
 * Hand-written migrations (the statistics targets) copy their snapshot and journal entry, so this checks them.
 */
const dir = path.join(__dirname, 'migrations');
const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };

describe('the migrations journal', () => {
  it('lists every migration file once, in order, at times that increase and are not in the future', () => {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toEqual(files);
    expect(journal.entries.map((e) => e.idx)).toEqual(files.map((_, i) => i));
    for (const [i, entry] of journal.entries.entries()) {
      expect(entry.tag.startsWith(String(i).padStart(4, '0') + '_')).toBe(true);
      if (i > 0) expect(entry.when, entry.tag).toBeGreaterThan(journal.entries[i - 1]!.when);
    }
    expect(journal.entries.at(-1)!.when).toBeLessThanOrEqual(Date.now());
  });

  it('chains each snapshot to the one before it', () => {
    const snapshots = journal.entries.map((e) => JSON.parse(fs.readFileSync(path.join(dir, 'meta', `${e.tag.slice(0, 4)}_snapshot.json`), 'utf8')) as { id: string; prevId: string });
    expect(new Set(snapshots.map((s) => s.id)).size).toBe(snapshots.length);
    for (let i = 1; i < snapshots.length; i++) expect(snapshots[i]!.prevId, journal.entries[i]!.tag).toBe(snapshots[i - 1]!.id);
  });
});
