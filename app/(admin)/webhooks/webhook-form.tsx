'use client';

import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FormProps } from '@/app/_components/form-props';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { Button, ErrorNotice, TextField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { EVENT_NAMES, type EventName } from '@/server/core/event-names';
import { createWebhookInput, type STRATEGIES } from '@/server/services/webhooks/schemas';
import { checkWith } from '@/app/_components/form-validation';
import { IntegrationPicker } from '@/app/_components/pickers';
import { sameValue } from '@/app/_components/same-value';
import { LEAVE_MESSAGE, useUnsavedChanges } from '@/app/_components/unsaved';

type Strategy = (typeof STRATEGIES)[number];
export type WebhookValues = {
  display: string;
  url: string;
  configurationId: number | null;
  triggers: { event: EventName; strategy: Strategy }[];
  headers: Record<string, string>;
};
type HeaderRow = { name: string; value: string };

const STRATEGY_HELP: Record<Strategy, string> = {
  after: 'after the operation, asynchronously, with its result (retried)',
  handle: 'instead of the operation; its JSON answer is the result (one per event)',
  before: 'before the operation; a failure aborts it',
};

/** Groups events by the resource they concern: member_create and member_delete under "member". */
const groups = EVENT_NAMES.reduce<Record<string, EventName[]>>((acc, e) => {
  const area = e.replace(/_(create|update|delete|link|reminder|transition_scheduled|transition_expired)$/, '');
  (acc[area] ??= []).push(e);
  return acc;
}, {});

export function WebhookForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: FormProps<WebhookValues>) {
  const trpc = useTRPC();
  const [display, setDisplay] = useState(initial?.display ?? '');
  const [url, setUrl] = useState(initial?.url ?? '');
  const [integration, setIntegration] = useState<{ id: number; label?: string } | null>(initial?.configurationId ? { id: initial.configurationId } : null);
  const current = useQuery({ ...trpc.integrations.get.queryOptions({ id: integration?.id ?? 0 }), enabled: Boolean(integration && !integration.label) });
  const [triggers, setTriggers] = useState<Partial<Record<EventName, Strategy>>>(
    Object.fromEntries((initial?.triggers ?? []).map((t) => [t.event, t.strategy])),
  );
  const [headers, setHeaders] = useState<HeaderRow[]>(Object.entries(initial?.headers ?? {}).map(([name, value]) => ({ name, value })));
  const [localError, setLocalError] = useState<string | null>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(error), ...local };
  const triggerError = localError ?? Object.entries(errors).find(([k]) => k.startsWith('triggers'))?.[1];
  const count = Object.values(triggers).filter(Boolean).length;
  const list = Object.entries(triggers)
    .filter(([, s]) => s)
    .map(([event, strategy]) => ({ event: event as EventName, strategy: strategy! }));
  const headerObject = Object.fromEntries(headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]));
  const values = { display: display.trim(), url: url.trim(), configurationId: integration?.id ?? null, triggers: list, headers: headerObject };
  const start = {
    display: initial?.display ?? '',
    url: initial?.url ?? '',
    configurationId: initial?.configurationId ?? null,
    triggers: EVENT_NAMES.flatMap((event) => (initial?.triggers ?? []).filter((t) => t.event === event)),
    headers: initial?.headers ?? {},
  };
  // Unsaved changes are a difference in values (events in catalogue order on both sides).
  const dirty = !sameValue({ ...values, triggers: EVENT_NAMES.flatMap((event) => list.filter((t) => t.event === event)) }, start);
  useUnsavedChanges(dirty && !busy);
  const headerError = (i: number, part: 'name' | 'value') => {
    const name = headers[i]?.name.trim();
    return part === 'name' ? (name ? errors[`headers.${name}`] : undefined) : undefined;
  };

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (list.length === 0) return setLocalError('Choose at least one event');
    setLocalError(null);
    const checked = checkWith(createWebhookInput, values);
    setLocal(checked.errors ?? {});
    if (checked.value) onSubmit({ ...checked.value, configurationId: checked.value.configurationId ?? null, triggers: list, headers: headerObject });
  }

  return (
    <form onSubmit={submit} className="space-y-5" noValidate aria-label={submitLabel}>
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" name="display" value={display} onChange={(e) => setDisplay(e.target.value)} error={errors.display} placeholder="CRM: new members" />
        <IntegrationPicker
          value={integration?.id ?? null}
          selectedLabel={integration?.label ?? current.data?.display}
          onChange={(o) => setIntegration(o && { id: o.id, label: o.label })}
          error={errors.configurationId}
          hint="Optional; needed for URLs starting with //endpoint"
        />
      </div>
      <TextField
        label="URL"
        name="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={errors.url}
        placeholder="https://crm.example.org/hooks/carebase or //endpoint/hooks/carebase"
        hint="POSTed with Standard Webhooks signatures. Private and loopback addresses are refused in production."
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">
          Events <span className="font-normal text-slate-600">({count} selected)</span>
        </legend>
        <p className="mt-1 text-xs text-slate-600">
          {(Object.keys(STRATEGY_HELP) as Strategy[]).map((s) => (
            <span key={s} className="mr-3">
              <strong>{s}</strong>: {STRATEGY_HELP[s]}.
            </span>
          ))}
        </p>
        {triggerError && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {triggerError}
          </p>
        )}
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {Object.entries(groups).map(([area, events]) => (
            <div key={area} className="rounded-md bg-slate-50 p-3 ring-1 ring-slate-200">
              <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">{area.replace(/_/g, ' ')}</p>
              <ul className="space-y-1.5">
                {events.map((event) => (
                  <li key={event} className="flex items-center justify-between gap-2">
                    <label htmlFor={`trigger-${event}`} className="min-w-0 break-all font-mono text-xs text-slate-800">
                      {event}
                    </label>
                    <select
                      id={`trigger-${event}`}
                      aria-label={`${event} strategy`}
                      value={triggers[event] ?? ''}
                      onChange={(e) => {
                        setLocalError(null);
                        setTriggers((t) => ({ ...t, [event]: (e.target.value || undefined) as Strategy | undefined }));
                      }}
                      className={`shrink-0 rounded border-0 py-0.5 pl-2 pr-7 text-xs ring-1 ring-inset ${triggers[event] ? 'bg-brand-50 font-medium text-brand-700 ring-brand-500' : 'bg-white text-slate-600 ring-slate-300'}`}
                    >
                      <option value="">off</option>
                      <option value="after">after</option>
                      <option value="handle">handle</option>
                      <option value="before">before</option>
                    </select>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">
          Custom headers <span className="font-normal text-slate-600">(optional, up to 20)</span>
        </legend>
        <p className="mt-1 text-xs text-slate-600">Sent on every call, e.g. an API key the receiver expects. Carebase&apos;s own headers (webhook-*, content-type, user-agent) cannot be replaced.</p>
        {errors.headers && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {errors.headers}
          </p>
        )}
        <ul className="mt-3 space-y-2" aria-label="Custom headers">
          {headers.map((h, i) => (
            <li key={i} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
              <TextField label={`Header ${i + 1} name`} value={h.name} onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} error={headerError(i, 'name')} placeholder="X-Api-Key" autoComplete="off" />
              <TextField label={`Header ${i + 1} value`} value={h.value} onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} autoComplete="off" />
              <Button variant="ghost" className="sm:mt-6" aria-label={`Remove header ${i + 1}`} onClick={() => setHeaders(headers.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
        {headers.length < 20 && (
          <Button variant="secondary" className="mt-2" onClick={() => setHeaders([...headers, { name: '', value: '' }])}>
            Add header
          </Button>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" busy={busy} disabled={busy || (Boolean(initial) && !dirty)}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={() => (!dirty || window.confirm(LEAVE_MESSAGE)) && onCancel()}>
            Cancel
          </Button>
        )}
        {dirty && initial && !busy && <span className="text-sm text-amber-800">Unsaved changes</span>}
      </div>
    </form>
  );
}
