import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getMemberCaller } from '@/app/_trpc/server';
import { MemberBooking } from '../../member-booking';
import { MemberShell } from '../../member-shell';
import { freeTimes } from '../../slots';
import { longDateTime } from '@/app/_components/dates';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Move my appointment' };

/** The member moves one of their booked appointments to another free time of the same schedule. */
export default async function RescheduleAppointmentPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  const caller = await getMemberCaller();
  const home = await caller.me.home({});
  const appointment = await caller.me.appointment({ id }).catch(() => null);
  if (!appointment || appointment.status !== 'booked') notFound();
  const schedule = await caller.me.schedule({ id: appointment.scheduleId }).catch(() => null);
  const when = longDateTime(appointment.start, home.timeZone);
  return (
    <MemberShell projectName={home.projectName}>
      <p className="mb-4 text-sm">
        <Link href="/me" className="font-medium text-brand-700">
          ← Back to my care
        </Link>
      </p>
      <h1 className="text-xl font-semibold text-slate-900">Choose another time</h1>
      <p className="mb-6 mt-1 text-base text-slate-700">Your appointment is on {when}. Pick a new time below; the old one is freed.</p>
      {schedule ? (
        <MemberBooking appointmentId={id} schedules={[{ ...schedule, slots: await freeTimes(caller, schedule.id) }]} timeZone={home.timeZone} />
      ) : (
        <p className="text-sm text-slate-600">This calendar takes no bookings at the moment. Contact your care team to move the appointment.</p>
      )}
    </MemberShell>
  );
}
