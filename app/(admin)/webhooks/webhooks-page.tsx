'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { elapsed } from '@/app/_components/dates';
import { When, useDates } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import { STRATEGIES, type WebhookHealth } from '@/server/services/webhooks/schemas';

const PAGE_SIZE = 25;

/**
 * A webhook's state in one word: disabled (and why), failing (since when), healthy, or not called yet.
 * A failing webhook is never shown as a green "enabled".
 */
export function HealthBadge({ webhook }: { webhook: { enabled: boolean; disabledReason: string | null; health: WebhookHealth } }) {
  const dates = useDates();
  if (!webhook.enabled) {
    return (
      <span title={webhook.disabledReason ?? undefined}>
        <Badge tone="red">Disabled</Badge>
      </span>
    );
  }
  if (webhook.health.failingSince) {
    return (
      <span title={`Failing since ${dates.dateTime(webhook.health.failingSince)}`}>
        <Badge tone="amber">{`Failing for ${elapsed(webhook.health.failingSince)}`}</Badge>
      </span>
    );
  }
  if (!webhook.health.lastDeliveryAt) return <Badge>No calls yet</Badge>;
  return <Badge tone="green">Healthy</Badge>;
}

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
      <PageHeader title="Webhooks" description="Calls to integrations when events happen: after an operation, instead of it (handle), or before it." actions={newButton} />
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading webhooks…" />
      ) : list.data?.items.length === 0 ? (
        <EmptyState title="No webhooks yet" action={newButton}>
          Register one to tell an integration about new members, care plans and activities.
        </EmptyState>
      ) : (
        list.data && (
          <Table caption="Webhooks" head={['Name', 'Events', 'Health', 'Last delivery', 'Delivered (24 h)']}>
            {list.data.items.map((w) => {
              const byStrategy = (s: string) => w.triggers.filter((t) => t.strategy === s).length;
              const rate = w.health.successRate24h;
              return (
                <tr key={w.id} className="hover:bg-slate-50">
                  <Td>
                    <Link href={`/webhooks/${w.id}`} className="font-medium text-brand-700">
                      {w.display}
                    </Link>
                    <span className="block max-w-xs truncate font-mono text-xs text-slate-600" title={w.url}>
                      {w.url}
                    </span>
                  </Td>
                  <Td>
                    <span className="flex flex-wrap gap-1">
                      {STRATEGIES.filter((s) => byStrategy(s) > 0).map((s) => (
                        <Badge key={s} tone={s === 'after' ? 'slate' : 'brand'}>
                          {byStrategy(s)} {s}
                        </Badge>
                      ))}
                    </span>
                  </Td>
                  <Td>
                    <HealthBadge webhook={w} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    {w.health.lastDeliveryAt ? (
                      <>
                        <When at={w.health.lastDeliveryAt} />
                        <span className="block text-xs text-slate-600">{w.health.lastDeliveryStatus}</span>
                      </>
                    ) : (
                      <span className="text-slate-600">—</span>
                    )}
                  </Td>
                  <Td className="whitespace-nowrap">
                    {rate === null ? (
                      <span className="text-slate-600">—</span>
                    ) : (
                      <span className={rate < 0.9 ? 'font-medium text-red-700' : 'text-slate-800'}>
                        {Math.round(rate * 100)} % <span className="font-normal text-slate-600">of {w.health.deliveries24h}</span>
                      </span>
                    )}
                  </Td>
                </tr>
              );
            })}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
