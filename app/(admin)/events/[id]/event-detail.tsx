'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { When } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import { eventSubject } from '../event-subject';

const STATUS_TONE = { pending: 'amber', delivered: 'green', failed: 'red', blocked: 'red' } as const;

/** One event: what the operation received (params) and answered (responseData), and every delivery it caused. */
export function EventDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const event = useQuery(trpc.events.get.queryOptions({ id }));
  if (event.isPending) return <Loading label="Loading the event…" />;
  if (event.error) return <ErrorNotice error={event.error} onRetry={() => void event.refetch()} />;
  const e = event.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/events" className="text-brand-700 underline-offset-2 hover:underline">
          ← All events
        </Link>
      </p>
      <PageHeader title={e.name} description={<>Event {e.id} · <When at={e.createdAt} style="seconds" /> · {eventSubject(e)}</>} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Params">
          <pre tabIndex={0} aria-label="Params" className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 font-mono text-xs text-slate-800">
            {JSON.stringify(e.params, null, 2)}
          </pre>
        </Card>
        <Card title="Response data">
          <pre tabIndex={0} aria-label="Response data" className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 font-mono text-xs text-slate-800">
            {JSON.stringify(e.responseData, null, 2)}
          </pre>
        </Card>
      </div>
      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Deliveries</h2>
      {e.deliveries.length === 0 ? (
        <EmptyState title="No webhook received this event">No webhook of the project listened for {e.name} when it happened.</EmptyState>
      ) : (
        <Table caption="Deliveries of this event" head={['Delivery', 'Webhook', 'Status', 'Attempts', 'Delivered']}>
          {e.deliveries.map((d) => (
            <tr key={d.id}>
              <Td>
                <Link href={`/webhooks/${d.webhookId}/deliveries/${d.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  #{d.id}
                </Link>
              </Td>
              <Td>
                <Link href={`/webhooks/${d.webhookId}`} className="text-brand-700 underline-offset-2 hover:underline">
                  Webhook {d.webhookId}
                </Link>
              </Td>
              <Td>
                <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
              </Td>
              <Td>{d.attemptCount}</Td>
              <Td className="whitespace-nowrap">
                <When at={d.deliveredAt} />
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
