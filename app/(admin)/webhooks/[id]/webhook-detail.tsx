'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Badge, Button, Card, ErrorNotice, Loading, PageHeader, SelectField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { EVENT_NAMES, type EventName } from '@/server/core/event-names';
import { WebhookForm } from '../webhook-form';
import { DeliveriesLog } from './deliveries-log';

export function WebhookDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const webhook = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const [saved, setSaved] = useState(false);
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const [testEvent, setTestEvent] = useState<EventName>('member_create');
  const refresh = async (w?: unknown) => {
    if (w) queryClient.setQueryData(trpc.webhooks.get.queryKey({ id }), w as never);
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  };
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: async (w) => (await refresh(w), setSaved(true)) }));
  const toggle = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: (w) => refresh(w) }));
  const reveal = useMutation(trpc.webhooks.secret.mutationOptions({ onSuccess: (s) => setSecret({ value: s.secret, rotated: false }) }));
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: (s) => setSecret({ value: s.secret, rotated: true }) }));
  const test = useMutation(
    trpc.webhooks.test.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() }) }),
  );
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: async () => (await refresh(), router.push('/webhooks')) }));

  if (webhook.isPending) return <Loading label="Loading webhook…" />;
  if (webhook.error) return <ErrorNotice error={webhook.error} onRetry={() => void webhook.refetch()} />;
  const w = webhook.data;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/webhooks" className="text-brand-700 hover:underline">
          ← All webhooks
        </Link>
      </p>
      <PageHeader
        title={w.display}
        description={
          <>
            Webhook #{w.id} · {w.enabled ? <Badge tone="green">enabled</Badge> : <Badge tone="red">disabled</Badge>}
          </>
        }
        actions={
          <>
            <Button variant="secondary" busy={toggle.isPending} onClick={() => toggle.mutate({ id, changes: { enabled: !w.enabled } })}>
              {w.enabled ? 'Disable' : 'Enable'}
            </Button>
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete ${w.display} and its delivery log?`)) remove.mutate({ id });
              }}
            >
              Delete
            </Button>
          </>
        }
      />
      {!w.enabled && (
        <div role="alert" className="mb-4 rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
          Disabled: {w.disabledReason ?? 'by an admin'}. Nothing is sent until it is enabled again; enabling clears the failure state.
        </div>
      )}
      <ErrorNotice error={toggle.error ?? remove.error} />
      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <Card title="Settings">
          {saved && !update.isPending && !update.error && (
            <p role="status" className="mb-3 text-sm text-emerald-700">
              Saved.
            </p>
          )}
          <WebhookForm
            key={w.updatedAt}
            initial={w}
            submitLabel="Save changes"
            busy={update.isPending}
            error={update.error}
            onSubmit={(changes) => {
              setSaved(false);
              update.mutate({ id, changes });
            }}
          />
        </Card>
        <div className="space-y-6">
          <Card title="Signing secret">
            <p className="text-sm text-slate-600">
              Receivers verify <code className="text-xs">webhook-signature</code> with this secret. After a rotation the old one keeps
              signing beside the new one for 24 hours.
            </p>
            {secret && (
              <div className="mt-3 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
                <p className="text-xs font-medium text-slate-600">{secret.rotated ? 'New secret' : 'Current secret'}</p>
                <code aria-label="Secret value" className="mt-1 block break-all font-mono text-xs text-slate-900">
                  {secret.value}
                </code>
                <div className="mt-2 flex gap-2">
                  <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(secret.value)}>
                    Copy
                  </Button>
                  <Button variant="ghost" onClick={() => setSecret(null)}>
                    Hide
                  </Button>
                </div>
              </div>
            )}
            <div className="mt-3 flex gap-2">
              {!secret && (
                <Button variant="secondary" busy={reveal.isPending} onClick={() => reveal.mutate({ id })}>
                  Reveal secret
                </Button>
              )}
              <Button
                variant="secondary"
                busy={rotate.isPending}
                onClick={() => {
                  if (window.confirm('Rotate the signing secret? The current one keeps working for 24 hours.')) rotate.mutate({ id });
                }}
              >
                Rotate
              </Button>
            </div>
            <ErrorNotice error={reveal.error ?? rotate.error} />
          </Card>
          <Card title="Send a test">
            <div className="flex items-end gap-2">
              <SelectField label="Event" value={testEvent} onChange={(e) => setTestEvent(e.target.value as EventName)} className="flex-1">
                {EVENT_NAMES.map((e) => (
                  <option key={e} value={e}>
                    {e}
                  </option>
                ))}
              </SelectField>
              <Button busy={test.isPending} onClick={() => test.mutate({ id, event: testEvent })} className="mb-[1px]">
                Send test
              </Button>
            </div>
            <ErrorNotice error={test.error} />
            {test.data && (
              <div role="status" aria-label="Test result" className="mt-3 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
                <p>
                  {test.data.statusCode !== null ? (
                    <Badge tone={test.data.statusCode < 300 ? 'green' : 'red'}>HTTP {test.data.statusCode}</Badge>
                  ) : (
                    <Badge tone="red">no answer</Badge>
                  )}{' '}
                  <span className="text-slate-500">in {test.data.durationMs} ms</span>
                </p>
                {test.data.error && <p className="mt-1 text-red-700">{test.data.error}</p>}
                {test.data.response && <pre className="mt-2 max-h-32 overflow-auto whitespace-pre-wrap break-all text-xs">{test.data.response}</pre>}
              </div>
            )}
          </Card>
        </div>
      </div>
      <div className="mt-8">
        <DeliveriesLog webhookId={id} />
      </div>
    </>
  );
}
