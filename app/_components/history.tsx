'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/_trpc/client';
import { actorText, ChangeList } from './changes';
import { Button, Card, ErrorNotice, Loading } from './ui';
import { When } from './when';

const VERB = { create: 'Created', update: 'Changed', delete: 'Deleted' } as const;

/** Who changed this resource, when, and what: its part of the audit trail, newest first. */
export function History({ resource, resourceId, title = 'History' }: { resource: string; resourceId: number; title?: string }) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions({ resource, resourceId, limit: 10 }, { getNextPageParam: (page) => page.next ?? undefined }),
  );
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card title={title}>
      {list.isPending ? (
        <Loading label="Loading history…" />
      ) : list.error ? (
        <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-600">No changes recorded yet.</p>
      ) : (
        <ol className="space-y-4" aria-label={`${title} entries`}>
          {items.map((e) => (
            <li key={e.id} className="border-l-2 border-slate-200 pl-3">
              <p className="text-sm text-slate-800">
                <span className="font-medium">{VERB[e.action]}</span> by {actorText(e)} · <When at={e.createdAt} />
              </p>
              <details className="mt-1">
                <summary className="cursor-pointer text-sm text-brand-700">
                  {Object.keys(e.changes).length} field{Object.keys(e.changes).length === 1 ? '' : 's'}
                </summary>
                <div className="mt-2">
                  <ChangeList event={e} />
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
      {list.hasNextPage && (
        <Button variant="secondary" className="mt-4" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          Show older changes
        </Button>
      )}
    </Card>
  );
}
