'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { History } from '@/app/_components/history';
import { useSaving } from '@/app/_components/saving';
import { Badge, Button, Card, ErrorNotice, Loading, PageHeader, SelectField, TextField } from '@/app/_components/ui';
import { When, useDates, useTimeZone } from '@/app/_components/when';
import { startOfDayIn } from '@/app/_components/zoned';
import { useTRPC } from '@/app/_trpc/client';
import { EVENT_NAMES, type EventName } from '@/server/core/event-names';
import { localDate } from '@/server/services/scheduling/rules';
import { WebhookForm } from '../webhook-form';
import { HealthBadge } from '../webhooks-page';
import { DeliveriesLog } from './deliveries-log';

export function WebhookDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const saving = useSaving();
  const webhook = useQuery(trpc.webhooks.get.queryOptions({ id }));
  const [secret, setSecret] = useState<{ value: string; rotated: boolean } | null>(null);
  const refresh = async (w?: unknown) => {
    if (w) queryClient.setQueryData(trpc.webhooks.get.queryKey({ id }), w as never);
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  };
  const update = useMutation(saving(trpc.webhooks.update.mutationOptions({ onSuccess: (w) => refresh(w) }), 'Webhook saved', { quietErrors: true }));
  const toggle = useMutation(saving(trpc.webhooks.update.mutationOptions({ onSuccess: (w) => refresh(w) }), (w) => (w.enabled ? 'Webhook enabled' : 'Webhook disabled: nothing is sent until it is enabled')));
  const reveal = useMutation(trpc.webhooks.secret.mutationOptions({ onSuccess: (s) => setSecret({ value: s.secret, rotated: false }) }));
  const rotate = useMutation(saving(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: (s) => setSecret({ value: s.secret, rotated: true }) }), 'Secret rotated: the old one keeps signing for 24 hours'));
  const remove = useMutation(saving(trpc.webhooks.delete.mutationOptions({ onSuccess: async () => (await refresh(), router.push('/webhooks')) }), 'Webhook deleted'));

  if (webhook.isPending) return <Loading label="Loading webhook…" />;
  if (webhook.error) return <ErrorNotice error={webhook.error} onRetry={() => void webhook.refetch()} />;
  const w = webhook.data;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/webhooks" className="text-brand-700">
          ← All webhooks
        </Link>
      </p>
      <PageHeader
        title={w.display}
        description={
          <span className="flex flex-wrap items-center gap-2">
            Webhook {w.id} <HealthBadge webhook={w} />
          </span>
        }
        actions={
          <>
            {w.enabled && (
              <Button variant="secondary" busy={toggle.isPending} onClick={() => toggle.mutate({ id, changes: { enabled: false } })}>
                Disable
              </Button>
            )}
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
      {!w.enabled && <Reenable id={id} reason={w.disabledReason} onDone={() => void webhook.refetch()} />}
      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <div className="space-y-6">
          <Health webhook={w} />
          <Card title="Settings">
            <WebhookForm key={w.updatedAt} initial={w} submitLabel="Save changes" busy={update.isPending} error={update.error} onSubmit={(changes) => update.mutate({ id, changes })} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card title="Signing secret">
            <p className="text-sm text-slate-600">
              Receivers verify <code className="text-xs">webhook-signature</code> with this secret. After a rotation the old one keeps signing beside the new one for 24 hours.
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
            <ErrorNotice error={reveal.error} />
          </Card>
          <SendTest id={id} events={w.triggers.map((t) => t.event)} />
          {w.enabled && <Recover id={id} />}
        </div>
      </div>
      <div className="mt-8">
        <DeliveriesLog webhookId={id} />
      </div>
      <div className="mt-8">
        <History resource="webhook" resourceId={id} />
      </div>
    </>
  );
}

type Webhook = { enabled: boolean; disabledReason: string | null; health: { lastDeliveryAt: string | null; lastDeliveryStatus: string | null; deliveries24h: number; successRate24h: number | null; failingSince: string | null } };

/** The last delivery, the share delivered over the last day, and since when it fails. */
function Health({ webhook }: { webhook: Webhook }) {
  const h = webhook.health;
  const rate = h.successRate24h === null ? '—' : `${Math.round(h.successRate24h * 100)} %`;
  return (
    <Card title="Health">
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Last delivery</dt>
          <dd className="mt-1 text-sm text-slate-900">{h.lastDeliveryAt ? <><When at={h.lastDeliveryAt} /> · {h.lastDeliveryStatus}</> : 'None yet'}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Delivered, last 24 h</dt>
          <dd className="mt-1 text-sm text-slate-900">
            {rate} <span className="text-slate-600">of {h.deliveries24h}</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Failing since</dt>
          <dd className="mt-1 text-sm text-slate-900">{h.failingSince ? <When at={h.failingSince} /> : 'Not failing'}</dd>
        </div>
      </dl>
      {h.failingSince && webhook.enabled && <p className="mt-3 text-sm text-amber-800">Failed deliveries are retried for up to 27 hours; a webhook failing for 5 days is disabled.</p>}
    </Card>
  );
}

/** A day n days back in the project's zone, as YYYY-MM-DD (for the date inputs of recovery). */
function daysAgo(n: number, timeZone: string) {
  return localDate(new Date(Date.now() - n * 86_400_000), timeZone);
}

/** A disabled webhook: why, and enabling it again, optionally resending what failed since a day. */
function Reenable({ id, reason, onDone }: { id: number; reason: string | null; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saving = useSaving();
  const timeZone = useTimeZone();
  const [resend, setResend] = useState(true);
  const [since, setSince] = useState(() => daysAgo(1, timeZone));
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() });
    onDone();
  };
  const enable = useMutation(saving(trpc.webhooks.update.mutationOptions({ onSuccess: done }), 'Webhook enabled'));
  const recover = useMutation(saving(trpc.webhooks.recover.mutationOptions({ onSuccess: done }), (r) => `Webhook enabled; ${r.queued === 1 ? '1 failed delivery' : `${r.queued} failed deliveries`} queued again`));
  return (
    <div role="alert" className="mb-6 rounded-lg bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200">
      <p className="font-semibold">Disabled: {reason ?? 'by an admin'}</p>
      <p className="mt-1">Nothing is sent while it is disabled. Enabling it clears the failure state.</p>
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        aria-label="Enable the webhook"
        onSubmit={(e) => {
          e.preventDefault();
          if (resend) recover.mutate({ id, since: startOfDayIn(since, timeZone).toISOString() });
          else enable.mutate({ id, changes: { enabled: true } });
        }}
      >
        <label className="flex items-center gap-2 self-center">
          <input type="checkbox" checked={resend} onChange={(e) => setResend(e.target.checked)} className="size-4 accent-brand-600" />
          Also resend failed deliveries since
        </label>
        <TextField label="Resend since" className="w-44" type="date" value={since} min={daysAgo(14, timeZone)} max={daysAgo(0, timeZone)} onChange={(e) => setSince(e.target.value)} disabled={!resend} />
        <Button type="submit" busy={enable.isPending || recover.isPending}>
          Enable webhook
        </Button>
      </form>
    </div>
  );
}

/** Bulk recovery: every failed delivery since a day goes out again (same ids), e.g. after the receiver was down. */
function Recover({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saving = useSaving();
  const timeZone = useTimeZone();
  const [since, setSince] = useState(() => daysAgo(1, timeZone));
  const recover = useMutation(
    saving(
      trpc.webhooks.recover.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() }) }),
      (r) => (r.queued === 0 ? 'No failed deliveries since then' : `${r.queued === 1 ? '1 failed delivery' : `${r.queued} failed deliveries`} queued again`),
    ),
  );
  return (
    <Card title="Resend failed deliveries">
      <form
        aria-label="Resend failed deliveries"
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          recover.mutate({ id, since: startOfDayIn(since, timeZone).toISOString() });
        }}
      >
        <p className="text-sm text-slate-600">After the receiver was down: every delivery that failed since the day you choose (up to 14 days back) is sent again, with its original id.</p>
        <TextField label="Failed since" type="date" value={since} min={daysAgo(14, timeZone)} max={daysAgo(0, timeZone)} onChange={(e) => setSince(e.target.value)} hint={`Days in ${timeZone}`} />
        <Button type="submit" variant="secondary" busy={recover.isPending}>
          Resend failed deliveries
        </Button>
      </form>
    </Card>
  );
}

/** "Send test": the catalogue's example of an event, shown first, sent signed like a real call. */
function SendTest({ id, events }: { id: number; events: EventName[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const dates = useDates();
  const [event, setEvent] = useState<EventName>(events[0] ?? 'member_create');
  const example = useQuery(trpc.webhooks.example.queryOptions({ event }));
  const test = useMutation(trpc.webhooks.test.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() }) }));
  return (
    <Card title="Send a test">
      <div className="flex items-end gap-2">
        <SelectField label="Event" value={event} onChange={(e) => (setEvent(e.target.value as EventName), test.reset())} className="flex-1">
          {EVENT_NAMES.map((e) => (
            <option key={e} value={e}>
              {e}
              {events.includes(e) ? '' : ' (not a trigger)'}
            </option>
          ))}
        </SelectField>
        <Button busy={test.isPending} onClick={() => test.mutate({ id, event })} className="mb-[1px]">
          Send test
        </Button>
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm text-brand-700">The example that is sent</summary>
        <pre tabIndex={0} aria-label="Example payload" className="mt-2 max-h-64 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">
          {example.data ? JSON.stringify(example.data, null, 2) : 'Loading…'}
        </pre>
      </details>
      <ErrorNotice error={test.error} />
      {test.data && (
        <div role="status" aria-label="Test result" className="mt-3 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
          <p>
            {test.data.statusCode !== null ? <Badge tone={test.data.statusCode < 300 ? 'green' : 'red'}>HTTP {test.data.statusCode}</Badge> : <Badge tone="red">no answer</Badge>}{' '}
            <span className="text-slate-600">
              in {test.data.durationMs} ms · {dates.dateTime(test.data.startedAt)}
            </span>
          </p>
          {test.data.error && <p className="mt-1 text-red-700">{test.data.error}</p>}
          {test.data.response && <pre tabIndex={0} className="mt-2 max-h-32 overflow-auto whitespace-pre-wrap break-all text-xs">{test.data.response}</pre>}
        </div>
      )}
    </Card>
  );
}
