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

/** What the controls read from the page's list query (a react-query result). */
type PagedQuery = { data?: { next?: number | null } | undefined; isPlaceholderData: boolean };

/**
 * Previous and Next for a keyset-paged list. While the list shows the page it left (`keepPreviousData`),
 * that page's `next` is not this page's: Next stays disabled until this page's answer is in, or a quick
 * second click would push the same cursor again (the label one page ahead of the rows).
 */
export function PagerControls({ pager, query }: { pager: ReturnType<typeof usePager>; query: PagedQuery }) {
  const shownNext = query.data?.next;
  if (pager.page === 1 && shownNext == null) return null;
  const next = query.isPlaceholderData ? null : shownNext;
  return (
    <nav aria-label="Pages" aria-busy={query.isPlaceholderData} className="mt-3 flex items-center justify-between text-sm text-slate-600">
      <span>Page {pager.page}</span>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={pager.page === 1} onClick={pager.previous}>
          Previous
        </Button>
        <Button variant="secondary" disabled={next == null} onClick={() => next != null && pager.next(next)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
