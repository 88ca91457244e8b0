'use client';

import { localDate } from '@/server/services/scheduling/rules';

type Slot = { start: string; end: string };

/** Free slots grouped by local day, each a button; the zone is named. Used by coordinators and members alike. */
export function SlotPicker({
  slots,
  timeZone,
  busyStart,
  onPick,
  label = 'Free slots',
  zoneNote,
}: {
  slots: Slot[];
  timeZone: string;
  busyStart?: string | null;
  onPick: (slot: Slot) => void;
  label?: string;
  zoneNote?: string;
}) {
  const days = new Map<string, Slot[]>();
  for (const s of slots) {
    const d = localDate(new Date(s.start), timeZone);
    days.set(d, [...(days.get(d) ?? []), s]);
  }
  const dayName = (d: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`));
  const time = (iso: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
  if (slots.length === 0) return <p className="text-sm text-slate-600">No free times in the next two weeks.</p>;
  return (
    <div aria-label={label} role="group" className="space-y-3">
      <p className="text-xs text-slate-600">{zoneNote ?? `Times in ${timeZone}`}</p>
      {[...days].map(([d, list]) => (
        <div key={d}>
          <p className="mb-1 text-sm font-medium text-slate-800">{dayName(d)}</p>
          <div className="flex flex-wrap gap-2">
            {list.map((s) => (
              <button
                key={s.start}
                type="button"
                disabled={Boolean(busyStart)}
                aria-label={`${dayName(d)} at ${time(s.start)}`}
                onClick={() => onPick(s)}
                className="rounded-md bg-white px-2.5 py-1.5 text-sm font-medium text-brand-700 ring-1 ring-brand-100 hover:bg-brand-50 disabled:opacity-60"
              >
                {busyStart === s.start ? 'Booking…' : time(s.start)}
              </button>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
