import { sameValue } from './same-value';

export type DiffStatus = 'added' | 'removed' | 'changed' | 'same';
export type DiffRow<T> = { key: string; status: DiffStatus; before?: T; after?: T; fields: string[] };

/**
 * Two versions of a list (template actions by key, questionnaire items by linkId) side by side: what was
 * added, removed or changed (and which fields), in the order of the newer version with removed ones where
 * they stood.
 */
export function diffByKey<T extends object>(before: T[], after: T[], keyOf: (item: T) => string): DiffRow<T>[] {
  const old = new Map(before.map((item) => [keyOf(item), item]));
  const rows: DiffRow<T>[] = [];
  const seen = new Set<string>();
  const pushRemovedBefore = (index: number) => {
    // Removed items that stood before the old position of the next kept item keep their place.
    for (let i = 0; i <= index && i < before.length; i++) {
      const k = keyOf(before[i]!);
      if (!seen.has(k) && !after.some((a) => keyOf(a) === k)) {
        rows.push({ key: k, status: 'removed', before: before[i], fields: [] });
        seen.add(k);
      }
    }
  };
  for (const item of after) {
    const key = keyOf(item);
    const prior = old.get(key);
    if (prior) pushRemovedBefore(before.indexOf(prior));
    seen.add(key);
    if (!prior) rows.push({ key, status: 'added', after: item, fields: [] });
    else {
      const fields = changedFields(prior, item);
      rows.push({ key, status: fields.length > 0 ? 'changed' : 'same', before: prior, after: item, fields });
    }
  }
  pushRemovedBefore(before.length - 1);
  return rows;
}

/** The fields whose values differ (compared as values, whatever the key order). */
export function changedFields(a: object, b: object): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
