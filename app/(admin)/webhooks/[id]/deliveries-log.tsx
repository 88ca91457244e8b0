'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Badge, Button, EmptyState, ErrorNotice, Loading, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { EVENT_NAMES, type EventName } from '@/server/core/event-names';
import { DELIVERY_STATUSES, type DeliveryDto } from '@/server/services/webhooks/schemas';
import { useSaving } from '@/app/_components/saving';
import { wallTimeToIso } from '@/app/_components/zoned';
import { When, useTimeZone } from '@/app/_components/when';

const LIMIT = 20;
type Status = DeliveryDto['status'];
export const STATUS_TONE = { pending: 'amber', delivered: 'green', failed: 'red', blocked: 'red' } as const;


export function DeliveriesLog({ webhookId }: { webhookId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saving = useSaving();
  const timeZone = useTimeZone();
  // datetime-local values are wall time in the project's zone, as every time in the console.
  const toIso = (local: string) => (local ? wallTimeToIso(local, timeZone) : undefined);
  const [status, setStatus] = useState<Status | ''>('');
  const [event, setEvent] = useState<EventName | ''>('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [cursors, setCursors] = useState<number[]>([0]);
  const cursor = cursors.at(-1) || undefined;
  const reset = () => setCursors([0]);
  const list = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({
      id: webhookId,
      status: status || undefined,
      event: event || undefined,
      since: toIso(since),
      until: toIso(until),
      cursor,
      limit: LIMIT,
    }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const retry = useMutation(
    saving(trpc.webhooks.retry.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() }) }), (d) => `Delivery ${d.id} queued for another attempt`),
  );
  const rows = list.data?.items ?? [];
  const next = list.data?.next ?? null;

  return (
    <section aria-labelledby="deliveries-heading">
      <div className="mb-3 flex items-end justify-between">
        <h2 id="deliveries-heading" className="text-lg font-semibold text-slate-900">
          Deliveries
        </h2>
        <span className="text-xs text-slate-600">Newest first · refreshes every 5 s</span>
      </div>
      <div role="search" aria-label="Delivery filters" className="mb-3 grid gap-3 rounded-lg bg-white p-3 shadow-xs ring-1 ring-slate-200 sm:grid-cols-4">
        <SelectField label="Status" value={status} onChange={(e) => (setStatus(e.target.value as Status | ''), reset())}>
          <option value="">Any status</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <SelectField label="Event" value={event} onChange={(e) => (setEvent(e.target.value as EventName | ''), reset())}>
          <option value="">Any event</option>
          {EVENT_NAMES.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </SelectField>
        <TextField label="From" type="datetime-local" value={since} onChange={(e) => (setSince(e.target.value), reset())} />
        <TextField label="To" type="datetime-local" value={until} onChange={(e) => (setUntil(e.target.value), reset())} />
      </div>
      <ErrorNotice error={list.error ?? retry.error} onRetry={list.error ? () => void list.refetch() : undefined} />
      {list.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : rows.length === 0 ? (
        <EmptyState title={status || event || since || until ? 'No deliveries match these filters' : 'No deliveries yet'}>
          Deliveries appear here when a subscribed event happens, or when you send a test.
        </EmptyState>
      ) : (
        <>
          <Table caption="Deliveries" head={['ID', 'Event', 'Status', 'Attempts', 'Created', 'Next attempt', '']}>
            {rows.map((d) => (
              <tr key={d.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/webhooks/${webhookId}/deliveries/${d.id}`} className="font-mono text-xs text-brand-700 hover:underline">
                    #{d.id}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">{d.event}</Td>
                <Td>
                  <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
                </Td>
                <Td className="tabular-nums">{d.attemptCount}</Td>
                <Td className="whitespace-nowrap text-slate-600"><When at={d.createdAt} /></Td>
                <Td className="whitespace-nowrap text-slate-600"><When at={d.nextAttemptAt} /></Td>
                <Td className="text-right">
                  {d.status !== 'delivered' && (
                    <Button variant="ghost" aria-label={`Retry delivery ${d.id}`} busy={retry.isPending && retry.variables?.deliveryId === d.id} onClick={() => retry.mutate({ id: webhookId, deliveryId: d.id })}>
                      Retry
                    </Button>
                  )}
                </Td>
              </tr>
            ))}
          </Table>
          <nav aria-label="Delivery pages" className="mt-3 flex justify-end gap-2">
            <Button variant="secondary" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </Button>
            <Button variant="secondary" disabled={next === null} onClick={() => next !== null && setCursors((c) => [...c, next])}>
              Older
            </Button>
          </nav>
        </>
      )}
    </section>
  );
}
