'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { actorText, ChangeList, RESOURCE_LABEL, ResourceLink, summaryOf } from '@/app/_components/changes';
import { PagerControls, usePager } from '@/app/_components/pager';
import { EmptyState, ErrorNotice, Loading, PageHeader, SelectField, TextField } from '@/app/_components/ui';
import { startOfDayIn } from '@/app/_components/zoned';
import { When, useTimeZone } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import { AUDIT_ACTOR_TYPES } from '@/server/services/audit/schemas';

const ACTOR_LABEL = { user: 'Staff', integration: 'Integrations', member: 'Members', system: 'Automatic (Carebase)' } as const;

/** Who changed what, newest first, with filters by what changed, who changed it, and when. */
export function AuditPage() {
  const trpc = useTRPC();
  const timeZone = useTimeZone();
  const pager = usePager();
  const [resource, setResource] = useState('');
  const [resourceId, setResourceId] = useState('');
  const [actorType, setActorType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const id = Number(resourceId);
  const query = {
    resource: resource || undefined,
    resourceId: Number.isSafeInteger(id) && id > 0 ? id : undefined,
    actorType: (actorType || undefined) as (typeof AUDIT_ACTOR_TYPES)[number] | undefined,
    from: from ? startOfDayIn(from, timeZone).toISOString() : undefined,
    to: to ? new Date(startOfDayIn(to, timeZone).getTime() + 86_400_000).toISOString() : undefined,
  };
  const list = useQuery({ ...trpc.audit.list.queryOptions({ ...query, limit: 25, cursor: pager.cursor }), placeholderData: keepPreviousData });
  const change = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    pager.reset();
  };
  const filtered = Boolean(resource || resourceId || actorType || from || to);

  return (
    <>
      <PageHeader
        title="Audit trail"
        description="Every change to this project, by whom and when: made in the console, through the API, by members or by Carebase itself. Entries cannot be edited or deleted."
      />
      <form role="search" aria-label="Filter the audit trail" className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="What changed" value={resource} onChange={change(setResource)}>
          <option value="">Anything</option>
          {Object.entries(RESOURCE_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField label="Its id" inputMode="numeric" value={resourceId} onChange={change(setResourceId)} placeholder="e.g. 42" />
        <SelectField label="Changed by" value={actorType} onChange={change(setActorType)}>
          <option value="">Anyone</option>
          {AUDIT_ACTOR_TYPES.map((t) => (
            <option key={t} value={t}>
              {ACTOR_LABEL[t]}
            </option>
          ))}
        </SelectField>
        <TextField label="From" type="date" value={from} onChange={change(setFrom)} />
        <TextField label="Until" type="date" value={to} onChange={change(setTo)} hint={`Days in ${timeZone}`} />
      </form>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading the audit trail…" />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title={filtered ? 'No changes match these filters' : 'No changes yet'}>
          {filtered ? 'Widen the dates or clear a filter.' : 'Changes appear here as soon as anyone makes one.'}
        </EmptyState>
      ) : (
        <ol aria-label="Audit events" className="divide-y divide-slate-100 overflow-hidden rounded-lg bg-white shadow-xs ring-1 ring-slate-200">
          {list.data?.items.map((e) => (
            <li key={e.id} className="px-4 py-3">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p className="min-w-0 text-sm text-slate-900">
                  <span className="font-medium">{summaryOf(e)}</span>
                  <span className="text-slate-600"> · {actorText(e)}</span>
                </p>
                <When at={e.createdAt} className="shrink-0 text-sm text-slate-600" />
              </div>
              <details className="mt-1">
                <summary className="cursor-pointer text-sm text-brand-700">Details</summary>
                <div className="mt-2 space-y-2">
                  <p className="text-sm text-slate-700">
                    <ResourceLink resource={e.resource} id={e.resourceId} /> · {e.action}
                    {e.requestId && <span className="break-all text-slate-600"> · request {e.requestId}</span>}
                  </p>
                  <ChangeList event={e} />
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
