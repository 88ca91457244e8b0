'use client';

import type { ReactNode } from 'react';
import { labelOf } from './error-messages';
import type { DiffRow, DiffStatus } from './version-diff';
import { Badge } from './ui';

const TONE: Record<DiffStatus, 'green' | 'red' | 'amber' | 'slate'> = { added: 'green', removed: 'red', changed: 'amber', same: 'slate' };
const WORD: Record<DiffStatus, string> = { added: 'Added', removed: 'Removed', changed: 'Changed', same: 'Unchanged' };

/** Counts of what changed between two versions, as a line of badges. */
export function DiffSummary<T>({ rows, noun }: { rows: DiffRow<T>[]; noun: string }) {
  const count = (s: DiffStatus) => rows.filter((r) => r.status === s).length;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span>{rows.length === 1 ? `1 ${noun}` : `${rows.length} ${noun}s`}:</span>
      {(['added', 'removed', 'changed', 'same'] as const).map((s) => (count(s) > 0 ? <Badge key={s} tone={TONE[s]}>{`${count(s)} ${WORD[s].toLowerCase()}`}</Badge> : null))}
    </p>
  );
}

/**
 * One row per item, the older version on the left and the newer on the right (stacked on a phone), with
 * changed fields marked.
 */
export function SideBySide<T>({ rows, from, to, render, title }: { rows: DiffRow<T>[]; from: number; to: number; render: (item: T, changed: string[]) => ReactNode; title: (row: DiffRow<T>) => string }) {
  return (
    <ol className="space-y-3" aria-label="Differences">
      {rows.map((r) => {
        const header = (
          <>
            <span className="font-medium text-slate-900">{title(r)}</span>
            <span className="flex flex-wrap items-center gap-2">
              {r.fields.length > 0 && <span className="text-xs text-slate-600">{r.fields.map((f) => labelOf(f).toLowerCase()).join(', ')}</span>}
              <Badge tone={TONE[r.status]}>{WORD[r.status]}</Badge>
            </span>
          </>
        );
        const body = (
          <div className="grid gap-px bg-slate-100 md:grid-cols-2">
            <div className={`bg-white p-3 ${r.status === 'removed' ? 'bg-red-50' : ''}`}>
              <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Version {from}</p>
              {r.before ? render(r.before, r.fields) : <p className="text-sm text-slate-600">Not in this version</p>}
            </div>
            <div className={`bg-white p-3 ${r.status === 'added' ? 'bg-emerald-50' : ''}`}>
              <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">Version {to}</p>
              {r.after ? render(r.after, r.fields) : <p className="text-sm text-slate-600">Not in this version</p>}
            </div>
          </div>
        );
        return (
          <li key={r.key} aria-label={`${title(r)}: ${WORD[r.status].toLowerCase()}`} className="rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
            {r.status === 'same' ? (
              // Unchanged items stay folded: the page is about what changed.
              <details>
                <summary className="flex cursor-pointer flex-wrap items-center justify-between gap-2 px-4 py-2">{header}</summary>
                <div className="border-t border-slate-100">{body}</div>
              </details>
            ) : (
              <>
                <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-2">{header}</div>
                {body}
              </>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** Field: value pairs, the changed ones highlighted. */
export function FieldList({ fields, changed }: { fields: [string, ReactNode][]; changed: string[] }) {
  return (
    <dl className="grid gap-1 text-sm">
      {fields.map(([name, value]) => (
        <div key={name} className={`grid grid-cols-[8rem_1fr] gap-2 rounded px-1 ${changed.includes(name) ? 'bg-amber-50 ring-1 ring-amber-200' : ''}`}>
          <dt className="text-slate-600">{labelOf(name)}</dt>
          <dd className="break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
