'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { PagerControls, usePager } from '@/app/_components/pager';
import { Badge, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export function SchedulesPage() {
  const trpc = useTRPC();
  const pager = usePager();
  const list = useQuery({ ...trpc.schedules.list.queryOptions({ cursor: pager.cursor, limit: 25 }), placeholderData: keepPreviousData });
  const newLink = (
    <Link href="/schedules/new" className="inline-flex items-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
      New schedule
    </Link>
  );
  return (
    <>
      <PageHeader title="Schedules" description="Calendars that can be booked. Appointment activities in templates book a consultation in one of them." actions={newLink} />
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading schedules…" />
      ) : list.data?.items.length === 0 ? (
        <EmptyState title="No schedules yet" action={newLink}>
          Create one with weekly hours; members and coordinators then book its free slots.
        </EmptyState>
      ) : (
        list.data && (
          <Table caption="Schedules" head={['Name', 'Open on', 'Slots', 'Time zone', 'Status']}>
            {list.data.items.map((s) => (
              <tr key={s.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/schedules/${s.id}`} className="font-medium text-brand-700 hover:underline">
                    {s.display}
                  </Link>
                </Td>
                <Td>{DAYS.filter((d) => s.availability.some((a) => a.day === d)).join(', ') || 'no weekly hours'}</Td>
                <Td>{s.slotMinutes} min</Td>
                <Td>{s.timeZone}</Td>
                <Td>{s.active ? <Badge tone="green">active</Badge> : <Badge>inactive</Badge>}</Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
