'use client';

import { useState } from 'react';
import { SlotPicker } from '@/app/_components/slot-picker';
import { bookSlot, rescheduleAppointment } from './actions';

type Slot = { start: string; end: string };

/** The member picks a free time in one of the offered schedules; booking (or moving) happens on the server. */
export function MemberBooking({
  schedules,
  activityId,
  appointmentId,
  timeZone,
}: {
  schedules: { id: number; display: string; timeZone: string; slots: Slot[] }[];
  activityId?: number;
  appointmentId?: number;
  /** The member's own zone: times are shown in it. */
  timeZone: string;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function pick(scheduleId: number, slot: Slot) {
    setBusy(slot.start);
    setError(null);
    const result = appointmentId ? await rescheduleAppointment(appointmentId, slot.start) : await bookSlot(scheduleId, slot.start, activityId);
    if (result?.error) setError(result.error);
    setBusy(null);
  }
  return (
    <div className="space-y-6">
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
          {error} Please pick another time.
        </p>
      )}
      {schedules.map((s) => (
        <section key={s.id} aria-label={s.display} className="rounded-lg bg-white p-5 shadow-xs ring-1 ring-slate-200">
          <h2 className="mb-3 text-base font-semibold text-slate-900">{s.display}</h2>
          <SlotPicker slots={s.slots} timeZone={timeZone} busyStart={busy} onPick={(slot) => void pick(s.id, slot)} label={`Free times of ${s.display}`} zoneNote={`Times in your time zone (${timeZone.replace(/_/g, ' ')})`} />
        </section>
      ))}
    </div>
  );
}
