'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useTRPC } from '@/app/_trpc/client';
import { STRATEGIES } from '@/server/services/webhooks/schemas';

const PAGE_SIZE = 25;

export function WebhooksPage() {
  const trpc = useTRPC();
  const pager = usePager();
  const list = useQuery({ ...trpc.webhooks.list.queryOptions({ cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const newButton = (
    <Link href="/webhooks/new" className="inline-flex items-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
      New webhook
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Calls to integrations when events happen: after an operation, instead of it (handle), or before it."
        actions={newButton}
      />
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading webhooks…" />
      ) : list.data?.items.length === 0 ? (
        <EmptyState title="No webhooks yet" action={newButton}>
          Register one to tell an integration about new members, care plans and activities.
        </EmptyState>
      ) : (
        list.data && (
          <Table caption="Webhooks" head={['Name', 'URL', 'Events', 'Status']}>
            {list.data.items.map((w) => {
              const byStrategy = (s: string) => w.triggers.filter((t) => t.strategy === s).length;
              return (
                <tr key={w.id} className="hover:bg-slate-50">
                  <Td>
                    <Link href={`/webhooks/${w.id}`} className="font-medium text-brand-700 hover:underline">
                      {w.display}
                    </Link>
                  </Td>
                  <Td className="max-w-xs truncate font-mono text-xs">{w.url}</Td>
                  <Td>
                    <span className="flex flex-wrap gap-1">
                      {STRATEGIES
                        .filter((s) => byStrategy(s) > 0)
                        .map((s) => (
                          <Badge key={s} tone={s === 'after' ? 'slate' : 'brand'}>
                            {byStrategy(s)} {s}
                          </Badge>
                        ))}
                    </span>
                  </Td>
                  <Td>
                    {w.enabled ? (
                      <Badge tone="green">enabled</Badge>
                    ) : (
                      <span title={w.disabledReason ?? undefined}>
                        <Badge tone="red">disabled</Badge>
                      </span>
                    )}
                  </Td>
                </tr>
              );
            })}
          </Table>
        )
      )}
      <PagerControls pager={pager} next={list.data?.next} />
    </>
  );
}
