'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { SlotPicker } from '@/app/_components/slot-picker';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, SelectField, Table, Td } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { When } from '@/app/_components/when';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
export const APPOINTMENT_TONE = { booked: 'brand', cancelled: 'slate', fulfilled: 'green', noshow: 'amber' } as const;

/** A member's appointments (upcoming first) and visits, and booking a consultation for them. */
export function MemberAppointments({ memberId, activityId, scheduleId: fixedSchedule }: { memberId: number; activityId?: number; scheduleId?: number }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  // Opened from a care plan's appointment activity: book for that activity (and its schedule, when it names one).
  const [booking, setBooking] = useState(Boolean(activityId));
  const [forActivity, setForActivity] = useState(activityId);
  const [scheduleId, setScheduleId] = useState<number | null>(fixedSchedule ?? null);
  const appointments = useQuery(trpc.appointments.list.queryOptions({ subjectId: memberId, limit: 100 }));
  const encounters = useQuery(trpc.encounters.list.queryOptions({ subjectId: memberId, limit: 100 }));
  const schedules = useQuery(trpc.schedules.list.queryOptions({ active: true, limit: 100 }));
  const chosen = schedules.data?.items.find((s) => s.id === (scheduleId ?? schedules.data?.items[0]?.id));
  const slots = useQuery({ ...trpc.schedules.slots.queryOptions({ id: chosen?.id ?? 0, from: day(0), to: day(13) }), enabled: booking && Boolean(chosen), placeholderData: keepPreviousData });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.appointments.list.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.schedules.slots.queryKey() });
  };
  const book = useMutation(saving(trpc.appointments.create.mutationOptions({ onSuccess: async () => (await refresh(), setBooking(false), setForActivity(undefined)) }), 'Appointment booked', { quietErrors: true }));
  const scheduleName = (id: number) => schedules.data?.items.find((s) => s.id === id)?.display ?? `Schedule #${id}`;
  const now = Date.now();
  const sorted = [...(appointments.data?.items ?? [])].sort((a, b) => {
    const ua = Date.parse(a.start) >= now && a.status === 'booked';
    const ub = Date.parse(b.start) >= now && b.status === 'booked';
    return ua !== ub ? (ua ? -1 : 1) : ua ? a.start.localeCompare(b.start) : b.start.localeCompare(a.start);
  });
  return (
    <>
      <div className="mb-3 mt-8 flex items-center justify-between">
        <h2 className="text-lg font-semibold text-slate-900">Appointments</h2>
        {!booking && (
          <Button variant="secondary" onClick={() => setBooking(true)} disabled={schedules.data?.items.length === 0}>
            Book an appointment
          </Button>
        )}
      </div>
      {booking && (
        <Card title={forActivity ? 'Book the care plan appointment' : 'Book an appointment'} className="mb-4" actions={<Button variant="ghost" onClick={() => (setBooking(false), setForActivity(undefined))}>Close</Button>}>
          {forActivity && <p className="mb-3 text-sm text-slate-600">Booking completes the care plan activity that asks for it.</p>}
          <SelectField label="Schedule" className="mb-4 max-w-sm" value={chosen?.id ?? ''} disabled={Boolean(forActivity && fixedSchedule)} onChange={(e) => setScheduleId(Number(e.target.value))}>
            {schedules.data?.items.map((s) => (
              <option key={s.id} value={s.id}>
                {s.display}
              </option>
            ))}
          </SelectField>
          <ErrorNotice error={book.error ?? slots.error} />
          {slots.isPending ? <Loading label="Finding free times…" /> : chosen && <SlotPicker slots={slots.data ?? []} timeZone={chosen.timeZone} busyStart={book.isPending ? book.variables?.start : null} onPick={(s) => book.mutate({ scheduleId: chosen.id, subjectId: memberId, start: s.start, ...(forActivity ? { activityId: forActivity } : {}) })} />}
        </Card>
      )}
      {appointments.isPending ? (
        <Loading label="Loading appointments…" />
      ) : appointments.error ? (
        <ErrorNotice error={appointments.error} onRetry={() => void appointments.refetch()} />
      ) : sorted.length === 0 ? (
        <EmptyState title="No appointments">Book a consultation in one of the schedules.</EmptyState>
      ) : (
        <Table caption="Appointments of this member" head={['When', 'Schedule', 'Title', 'Status']}>
          {sorted.map((a) => (
            <tr key={a.id}>
              <Td className="whitespace-nowrap"><When at={a.start} /></Td>
              <Td>
                <Link href={`/schedules/${a.scheduleId}`} className="text-brand-700 hover:underline">
                  {scheduleName(a.scheduleId)}
                </Link>
              </Td>
              <Td>{a.title ?? '—'}</Td>
              <Td>
                <Badge tone={APPOINTMENT_TONE[a.status]}>{a.status}</Badge>
              </Td>
            </tr>
          ))}
        </Table>
      )}
      <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Visits</h2>
      {encounters.isPending ? (
        <Loading label="Loading visits…" />
      ) : encounters.error ? (
        <ErrorNotice error={encounters.error} onRetry={() => void encounters.refetch()} />
      ) : encounters.data.items.length === 0 ? (
        <EmptyState title="No visits recorded" />
      ) : (
        <Table caption="Visits of this member" head={['Started', 'Status', 'Note']}>
          {encounters.data.items.map((e) => (
            <tr key={e.id}>
              <Td className="whitespace-nowrap"><When at={e.start} /></Td>
              <Td>
                <Badge tone={e.status === 'finished' ? 'green' : e.status === 'cancelled' ? 'slate' : 'amber'}>{e.status}</Badge>
              </Td>
              <Td>{e.note ?? '—'}</Td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
