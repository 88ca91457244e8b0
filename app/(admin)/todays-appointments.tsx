import Link from 'next/link';
import { Badge } from '@/app/_components/ui';
import type { AppointmentDto } from '@/server/services/scheduling/schemas';

/** The booked appointments of the project's today (in its time zone), soonest first. */
export function TodaysAppointments({ items, names, schedules, timeZone }: { items: AppointmentDto[]; names: Map<number, string>; schedules: Map<number, string>; timeZone: string }) {
  const time = (iso: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
  return (
    <section aria-label="Today's appointments" className="mt-6 rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="flex items-baseline justify-between">
        <h2 className="text-sm font-semibold text-slate-900">Today&apos;s appointments</h2>
        <span className="text-2xl font-semibold tabular-nums text-slate-900">{items.length}</span>
      </div>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No appointments booked for today.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {items.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span>
                <span className="font-medium tabular-nums text-slate-900">{time(a.start)}</span>{' '}
                <Link href={`/members/${a.subjectId}`} className="text-brand-700 hover:underline">
                  {names.get(a.subjectId) ?? `Member #${a.subjectId}`}
                </Link>
                {a.title && <span className="text-slate-600"> · {a.title}</span>}
              </span>
              <Link href={`/schedules/${a.scheduleId}`} className="text-xs text-slate-500 hover:underline">
                <Badge>{schedules.get(a.scheduleId) ?? 'schedule'}</Badge>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
