'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { fieldErrorsOf } from '@/app/_components/errors';
import { MemberPicker, memberLabel } from '@/app/_components/pickers';
import { Badge, Button, Card, ErrorNotice, Loading, TextAreaField, TextField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { datesBetween, localDate } from '@/server/services/scheduling/rules';
import type { AppointmentDto, ScheduleDto } from '@/server/services/scheduling/schemas';

type Slot = { start: string; end: string };
type Selected = { kind: 'slot'; slot: Slot } | { kind: 'appointment'; id: number } | null;

const addDays = (date: string, n: number) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
/** The Monday of the week holding `date`. */
const mondayOf = (date: string) => addDays(date, -((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7));
const time = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
const dayLabel = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

/** A week of the schedule in its own time zone: free slots to book, booked appointments to open. */
export function ScheduleCalendar({ schedule }: { schedule: ScheduleDto }) {
  const trpc = useTRPC();
  const tz = schedule.timeZone;
  const today = localDate(new Date(), tz);
  const [monday, setMonday] = useState(() => mondayOf(today));
  const [selected, setSelected] = useState<Selected>(null);
  const [rescheduling, setRescheduling] = useState<number | null>(null);
  const dates = datesBetween(monday, addDays(monday, 6));
  const slots = useQuery({ ...trpc.schedules.slots.queryOptions({ id: schedule.id, from: dates[0]!, to: dates[6]! }), placeholderData: keepPreviousData });
  const booked = useQuery({
    ...trpc.appointments.list.queryOptions({
      scheduleId: schedule.id,
      status: 'booked',
      from: new Date(Date.parse(`${dates[0]}T00:00:00Z`) - 86_400_000).toISOString(),
      to: new Date(Date.parse(`${dates[6]}T00:00:00Z`) + 2 * 86_400_000).toISOString(),
      limit: 200,
    }),
    placeholderData: keepPreviousData,
  });
  const subjects = [...new Set(booked.data?.items.map((a) => a.subjectId) ?? [])];
  const names = useQuery({ ...trpc.members.names.queryOptions({ ids: subjects }), enabled: subjects.length > 0, placeholderData: keepPreviousData });
  const nameOf = (id: number) => {
    const m = names.data?.find((n) => n.id === id);
    return m ? memberLabel(m) : `Member #${id}`;
  };
  const byDate = (date: string) => {
    const free = (slots.data ?? []).filter((s) => localDate(new Date(s.start), tz) === date).map((s) => ({ kind: 'slot' as const, at: s.start, slot: s }));
    const appts = (booked.data?.items ?? []).filter((a) => localDate(new Date(a.start), tz) === date).map((a) => ({ kind: 'appointment' as const, at: a.start, appointment: a }));
    return [...free, ...appts].sort((x, y) => x.at.localeCompare(y.at));
  };
  const selectedAppointment = selected?.kind === 'appointment' ? booked.data?.items.find((a) => a.id === selected.id) : undefined;

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <Card
        title={`Week of ${dayLabel(dates[0]!)}`}
        actions={
          <div className="flex items-center gap-1">
            <Button variant="ghost" aria-label="Previous week" onClick={() => setMonday(addDays(monday, -7))}>
              ←
            </Button>
            <Button variant="ghost" onClick={() => setMonday(mondayOf(today))}>
              Today
            </Button>
            <Button variant="ghost" aria-label="Next week" onClick={() => setMonday(addDays(monday, 7))}>
              →
            </Button>
          </div>
        }
      >
        <p className="mb-3 text-xs text-slate-500">
          Times in <span className="font-medium text-slate-700">{tz}</span>. {rescheduling ? 'Pick the new time among the free slots.' : 'Pick a free slot to book it, or an appointment to open it.'}
        </p>
        <ErrorNotice error={slots.error ?? booked.error} onRetry={() => void (slots.refetch(), booked.refetch())} />
        {slots.isPending || booked.isPending ? (
          <Loading label="Loading the week…" />
        ) : (
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-7" role="list" aria-label="Week">
            {dates.map((date) => {
              const items = byDate(date);
              return (
                <section key={date} role="listitem" aria-label={dayLabel(date)} className={`min-w-0 rounded-md p-2 ring-1 ${date === today ? 'bg-brand-50 ring-brand-100' : 'bg-slate-50 ring-slate-200'}`}>
                  <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
                    {dayLabel(date)} {date === today && <span className="normal-case text-brand-700">(today)</span>}
                  </h3>
                  {/* A past day has no free slot by definition: say why it is empty. */}
                  {items.length === 0 && <p className="text-xs text-slate-600">{date < today ? 'In the past' : 'Nothing free'}</p>}
                  <ul className="space-y-1">
                    {items.map((item) =>
                      item.kind === 'slot' ? (
                        <li key={`s${item.at}`}>
                          <button
                            type="button"
                            onClick={() => setSelected({ kind: 'slot', slot: item.slot })}
                            aria-pressed={selected?.kind === 'slot' && selected.slot.start === item.at}
                            className="w-full rounded border border-dashed border-emerald-300 bg-white px-2 py-1 text-left text-xs text-emerald-800 hover:bg-emerald-50 aria-pressed:bg-emerald-100"
                          >
                            {time(item.at, tz)} free
                          </button>
                        </li>
                      ) : (
                        <li key={`a${item.appointment.id}`}>
                          <button
                            type="button"
                            onClick={() => setSelected({ kind: 'appointment', id: item.appointment.id })}
                            aria-pressed={selected?.kind === 'appointment' && selected.id === item.appointment.id}
                            className="w-full break-words rounded bg-brand-600 px-2 py-1 text-left text-xs text-white hover:bg-brand-700 aria-pressed:ring-2 aria-pressed:ring-brand-700 aria-pressed:ring-offset-1"
                          >
                            <span className="font-medium">{time(item.at, tz)}</span> {nameOf(item.appointment.subjectId)}
                          </button>
                        </li>
                      ),
                    )}
                  </ul>
                </section>
              );
            })}
          </div>
        )}
      </Card>
      <div className="self-start">
        {selected?.kind === 'slot' && (
          <SlotPanel
            key={selected.slot.start}
            schedule={schedule}
            slot={selected.slot}
            rescheduling={rescheduling}
            onDone={(id) => {
              setRescheduling(null);
              setSelected({ kind: 'appointment', id });
            }}
          />
        )}
        {selectedAppointment && <AppointmentPanel key={selectedAppointment.id} appointment={selectedAppointment} who={nameOf(selectedAppointment.subjectId)} timeZone={tz} onReschedule={() => setRescheduling(selectedAppointment.id)} onClosed={() => setSelected(null)} />}
        {!selected && <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-500">Nothing selected.</p>}
      </div>
    </div>
  );
}

/** Books a free slot for a member (searched by name), or moves the appointment being rescheduled there. */
function SlotPanel({ schedule, slot, rescheduling, onDone }: { schedule: ScheduleDto; slot: Slot; rescheduling: number | null; onDone: (appointmentId: number) => void }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const [member, setMember] = useState<{ id: number; label: string } | null>(null);
  const [title, setTitle] = useState('');
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.schedules.slots.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.appointments.list.queryKey() });
  };
  const book = useMutation(saving(trpc.appointments.create.mutationOptions({ onSuccess: async (a) => (await refresh(), onDone(a.id)) }), 'Appointment booked', { quietErrors: true }));
  const move = useMutation(saving(trpc.appointments.update.mutationOptions({ onSuccess: async (a) => (await refresh(), onDone(a.id)) }), 'Appointment moved', { quietErrors: true }));
  const errors = fieldErrorsOf(book.error ?? move.error);
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: schedule.timeZone }).format(new Date(slot.start));
  if (rescheduling) {
    return (
      <Card title="Move the appointment here">
        <p className="mb-3 text-sm text-slate-700">{when}</p>
        <ErrorNotice error={move.error ? { message: errors.start ?? move.error.message } : null} />
        <Button busy={move.isPending} onClick={() => move.mutate({ id: rescheduling, changes: { start: slot.start } })}>
          Move to this time
        </Button>
      </Card>
    );
  }
  return (
    <Card title="Book this slot">
      <form
        className="space-y-3"
        aria-label="Book this slot"
        onSubmit={(e) => {
          e.preventDefault();
          if (member) book.mutate({ scheduleId: schedule.id, subjectId: member.id, start: slot.start, title: title.trim() || null });
        }}
      >
        <p className="text-sm text-slate-700">{when}</p>
        <MemberPicker value={member?.id ?? null} selectedLabel={member?.label} onChange={(o) => setMember(o)} error={errors.subjectId} required />
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Consultation" error={errors.title} />
        {errors.start && <p className="text-sm text-red-700" role="alert">{errors.start}</p>}
        <ErrorNotice error={book.error && Object.keys(errors).length === 0 ? book.error : null} />
        <Button type="submit" busy={book.isPending} disabled={!member}>
          Book
        </Button>
      </form>
    </Card>
  );
}

/** One booked appointment: reschedule, cancel, mark a no-show, and run the visit (start, finish with a note). */
export function AppointmentPanel({ appointment, who, timeZone, onReschedule, onClosed }: { appointment: AppointmentDto; who: string; timeZone: string; onReschedule?: () => void; onClosed?: () => void }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const encounter = useQuery(trpc.encounters.list.queryOptions({ appointmentId: appointment.id, limit: 1 }));
  const visit = encounter.data?.items[0];
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.schedules.slots.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.appointments.list.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.encounters.list.queryKey() });
  };
  const update = useMutation(saving(trpc.appointments.update.mutationOptions({ onSuccess: async () => (await refresh(), onClosed?.()) }), (a) => `Appointment ${a.status === 'booked' ? 'saved' : a.status === 'noshow' ? 'marked as missed' : a.status}`));
  const start = useMutation(saving(trpc.encounters.create.mutationOptions({ onSuccess: refresh }), 'Visit started'));
  const finish = useMutation(saving(trpc.encounters.update.mutationOptions({ onSuccess: async () => (await refresh(), onClosed?.()) }), 'Visit finished'));
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone }).format(new Date(appointment.start));
  return (
    <Card title={appointment.title ?? 'Appointment'}>
      <div className="space-y-3 text-sm">
        <p>
          <Link href={`/members/${appointment.subjectId}`} className="font-medium text-brand-700 hover:underline">
            {who}
          </Link>
        </p>
        <p className="text-slate-700">
          {when} <span className="text-slate-500">({timeZone})</span>
        </p>
        <p>
          <Badge tone="brand">{appointment.status}</Badge> {visit && <Badge tone={visit.status === 'finished' ? 'green' : 'amber'}>visit {visit.status}</Badge>}
        </p>
        {appointment.note && <p className="text-slate-600">{appointment.note}</p>}
        <ErrorNotice error={update.error ?? start.error ?? finish.error} />
        {appointment.status === 'booked' && !visit && (
          <div className="flex flex-wrap gap-2">
            {onReschedule && (
              <Button variant="secondary" onClick={onReschedule}>
                Reschedule
              </Button>
            )}
            <Button busy={start.isPending} onClick={() => start.mutate({ subjectId: appointment.subjectId, appointmentId: appointment.id, status: 'in-progress' })}>
              Start visit
            </Button>
            <Button variant="ghost" busy={update.isPending && update.variables?.changes.status === 'noshow'} onClick={() => update.mutate({ id: appointment.id, changes: { status: 'noshow' } })}>
              Mark no-show
            </Button>
            <Button
              variant="danger"
              busy={update.isPending && update.variables?.changes.status === 'cancelled'}
              onClick={() => {
                if (window.confirm(`Cancel the appointment of ${who}? The slot becomes free again.`)) update.mutate({ id: appointment.id, changes: { status: 'cancelled' } });
              }}
            >
              Cancel appointment
            </Button>
          </div>
        )}
        {visit?.status === 'in-progress' && (
          <form
            className="space-y-2"
            aria-label="Finish the visit"
            onSubmit={(e) => {
              e.preventDefault();
              finish.mutate({ id: visit.id, changes: { status: 'finished', note: note.trim() || null } });
            }}
          >
            <TextAreaField label="Visit note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
            <Button type="submit" busy={finish.isPending}>
              Finish visit
            </Button>
          </form>
        )}
      </div>
    </Card>
  );
}
