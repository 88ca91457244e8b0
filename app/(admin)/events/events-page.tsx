'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { PagerControls, usePager } from '@/app/_components/pager';
import { Badge, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { startOfDayIn } from '@/app/_components/zoned';
import { When, useTimeZone } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import { EVENT_NAMES, type EventName } from '@/server/core/event-names';
import { eventSubject } from './event-subject';

/** The event log: everything that happened in the project, whether or not a webhook listened. */
export function EventsPage() {
  const trpc = useTRPC();
  const timeZone = useTimeZone();
  const pager = usePager();
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = {
    name: (name || undefined) as EventName | undefined,
    from: from ? startOfDayIn(from, timeZone).toISOString() : undefined,
    to: to ? new Date(startOfDayIn(to, timeZone).getTime() + 86_400_000).toISOString() : undefined,
  };
  const list = useQuery({ ...trpc.events.list.queryOptions({ ...query, limit: 25, cursor: pager.cursor }), placeholderData: keepPreviousData });
  const change = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    pager.reset();
  };
  const filtered = Boolean(name || from || to);
  return (
    <>
      <PageHeader
        title="Events"
        description="Everything that happened in this project, newest first: what each operation received and answered, and the webhook deliveries it caused."
      />
      <form role="search" aria-label="Filter events" className="mb-4 grid gap-3 sm:grid-cols-3" onSubmit={(e) => e.preventDefault()}>
        <SelectField label="Event" value={name} onChange={change(setName)}>
          <option value="">All events</option>
          {EVENT_NAMES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <TextField label="From" type="date" value={from} onChange={change(setFrom)} />
        <TextField label="Until" type="date" value={to} onChange={change(setTo)} hint={`Days in ${timeZone}`} />
      </form>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading events…" />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title={filtered ? 'No events match these filters' : 'No events yet'}>
          {filtered ? 'Widen the dates or choose another event.' : 'Events are recorded as members, care plans and activities change.'}
        </EmptyState>
      ) : (
        <Table caption="Events" head={['When', 'Event', 'About', 'Deliveries']}>
          {list.data?.items.map((e) => (
            <tr key={e.id} className="hover:bg-slate-50">
              <Td className="whitespace-nowrap">
                <Link href={`/events/${e.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  <When at={e.createdAt} style="seconds" />
                </Link>
              </Td>
              <Td className="font-mono text-xs">{e.name}</Td>
              <Td className="max-w-xs truncate">{eventSubject(e)}</Td>
              <Td>
                {e.deliveries.total === 0 ? (
                  <span className="text-slate-600">no webhook</span>
                ) : (
                  <span className="flex flex-wrap gap-1">
                    {e.deliveries.delivered > 0 && <Badge tone="green">{e.deliveries.delivered} delivered</Badge>}
                    {e.deliveries.pending > 0 && <Badge tone="amber">{e.deliveries.pending} pending</Badge>}
                    {e.deliveries.failed > 0 && <Badge tone="red">{e.deliveries.failed} failed</Badge>}
                  </span>
                )}
              </Td>
            </tr>
          ))}
        </Table>
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
