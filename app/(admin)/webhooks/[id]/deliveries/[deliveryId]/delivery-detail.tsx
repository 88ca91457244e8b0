'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { STATUS_TONE } from '../../deliveries-log';
import { When } from '@/app/_components/when';

export function DeliveryDetail({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }) {
  const trpc = useTRPC();
  const delivery = useQuery({ ...trpc.webhooks.delivery.queryOptions({ id: webhookId, deliveryId }), refetchInterval: (q) => (q.state.data?.status === 'pending' ? 2_000 : false) });
  const saving = useSaving();
  const retry = useMutation(saving(trpc.webhooks.retry.mutationOptions({ onSuccess: () => void delivery.refetch() }), 'Queued for another attempt'));

  if (delivery.isPending) return <Loading label="Loading delivery…" />;
  if (delivery.error) return <ErrorNotice error={delivery.error} onRetry={() => void delivery.refetch()} />;
  const d = delivery.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/webhooks/${webhookId}`} className="text-brand-700 hover:underline">
          ← Webhook #{webhookId}
        </Link>
      </p>
      <PageHeader
        title={`Delivery #${d.id}`}
        description={
          <>
            <span className="font-mono">{d.event}</span> · <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge> · created <When at={d.createdAt} />
            {d.nextAttemptAt && <> · next attempt <When at={d.nextAttemptAt} /></>}
          </>
        }
        actions={
          d.status !== 'delivered' && (
            <Button busy={retry.isPending} onClick={() => retry.mutate({ id: webhookId, deliveryId })}>
              Retry now
            </Button>
          )
        }
      />
      <ErrorNotice error={retry.error} />
      <div className="grid gap-6 xl:grid-cols-2">
        <Card title="Request body">
          <pre tabIndex={0} className="max-h-[28rem] overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
            {JSON.stringify(d.payload, null, 2)}
          </pre>
        </Card>
        <section aria-labelledby="attempts-heading" className="space-y-3">
          <h2 id="attempts-heading" className="text-sm font-semibold text-slate-900">
            Attempts ({d.attempts.length})
          </h2>
          {d.attempts.length === 0 && <EmptyState title="No attempt yet">The executor picks up due deliveries within a second or two.</EmptyState>}
          {d.attempts.map((a) => (
            <details key={a.id} open={a.attempt === d.attempts.length} className="rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
              <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-4 py-2.5 text-sm">
                <span className="font-medium">Attempt {a.attempt}</span>
                {a.statusCode !== null ? <Badge tone={a.statusCode < 300 ? 'green' : 'red'}>HTTP {a.statusCode}</Badge> : <Badge tone="red">no answer</Badge>}
                <span className="text-slate-600">
                  <When at={a.startedAt} /> · {a.durationMs} ms
                </span>
              </summary>
              <div className="space-y-3 border-t border-slate-100 px-4 py-3 text-sm">
                {a.error && <p className="text-red-700">{a.error}</p>}
                <p className="break-all font-mono text-xs text-slate-600">POST {a.url}</p>
                <table className="w-full text-xs">
                  <caption className="mb-1 text-left font-semibold text-slate-600">Request headers</caption>
                  <tbody>
                    {Object.entries(a.requestHeaders).map(([k, v]) => (
                      <tr key={k}>
                        <th scope="row" className="w-40 py-0.5 text-left font-mono font-medium text-slate-700">
                          {k}
                        </th>
                        <td className="break-all py-0.5 font-mono text-slate-600">{v}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <div>
                  <p className="mb-1 text-xs font-semibold text-slate-600">Response (first 4 KiB)</p>
                  <pre tabIndex={0} className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs ring-1 ring-slate-200">{a.response || '(empty)'}</pre>
                </div>
              </div>
            </details>
          ))}
        </section>
      </div>
    </>
  );
}
