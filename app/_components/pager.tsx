'use client';

import { useState } from 'react';
import { Button } from './ui';

/** Keyset paging state for UI lists: a stack of `afterId`s, so Previous returns to the exact page. */
export function usePager() {
  const [stack, setStack] = useState<number[]>([0]);
  const afterId = stack.at(-1) ?? 0;
  return {
    afterId,
    page: stack.length,
    reset: () => setStack([0]),
    next: (lastId: number) => setStack((s) => [...s, lastId]),
    previous: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
  };
}

export function PagerControls({
  pager,
  rows,
  limit,
}: {
  pager: ReturnType<typeof usePager>;
  rows: { id: number }[];
  limit: number;
}) {
  const hasMore = rows.length > limit;
  if (pager.page === 1 && !hasMore) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex items-center justify-between text-sm text-slate-600">
      <span>Page {pager.page}</span>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={pager.page === 1} onClick={pager.previous}>
          Previous
        </Button>
        <Button variant="secondary" disabled={!hasMore} onClick={() => pager.next(rows[limit - 1]!.id)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
