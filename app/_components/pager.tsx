'use client';

import { useState } from 'react';
import { Button } from './ui';

/**
 * Keyset paging state for UI lists: a stack of cursors (the `next` of each page shown), so Previous
 * returns to the exact page. `cursor` goes into the list query; `next` comes back with its answer.
 */
export function usePager() {
  const [stack, setStack] = useState<number[]>([0]);
  const cursor = stack.at(-1) ?? 0;
  return {
    cursor: cursor || undefined,
    page: stack.length,
    reset: () => setStack([0]),
    next: (next: number) => setStack((s) => [...s, next]),
    previous: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
  };
}

export function PagerControls({ pager, next }: { pager: ReturnType<typeof usePager>; next: number | null | undefined }) {
  if (pager.page === 1 && (next === null || next === undefined)) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex items-center justify-between text-sm text-slate-600">
      <span>Page {pager.page}</span>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={pager.page === 1} onClick={pager.previous}>
          Previous
        </Button>
        <Button variant="secondary" disabled={next === null || next === undefined} onClick={() => next != null && pager.next(next)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
