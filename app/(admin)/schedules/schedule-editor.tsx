'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { checkWith } from '@/app/_components/form-validation';
import { useStaff } from '@/app/_components/staff-context';
import { Button, Card, ErrorNotice, SelectField, TextField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { sameValue } from '@/app/_components/same-value';
import { useUnsavedChanges } from '@/app/_components/unsaved';
import { useTRPC } from '@/app/_trpc/client';
import { createScheduleInput, updateScheduleInput, WEEKDAYS, type ScheduleDto } from '@/server/services/scheduling/schemas';

type Day = (typeof WEEKDAYS)[number];
type Win = { start: string; end: string };
type Exception = { date: string; closed: boolean; windows: Win[] };
const DAY_NAME: Record<Day, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };
const control = 'rounded-md border-0 bg-white px-2 py-1.5 text-sm ring-1 ring-inset focus:ring-2 focus:ring-brand-500';
const ring = (error?: string) => (error ? ' ring-red-400' : ' ring-slate-300');
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];

/** A schedule's settings: weekly hours per day (add windows, copy a day to others), date exceptions, notice, buffer, zone. */
export function ScheduleEditor({ schedule }: { schedule?: ScheduleDto }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { timeZone: projectZone } = useStaff();
  const [display, setDisplay] = useState(schedule?.display ?? '');
  const [timeZone, setTimeZone] = useState(schedule?.timeZone ?? projectZone);
  const [numbers, setNumbers] = useState({ slotMinutes: String(schedule?.slotMinutes ?? 30), minimumNoticeMinutes: String(schedule?.minimumNoticeMinutes ?? 0), bufferMinutes: String(schedule?.bufferMinutes ?? 0) });
  const [active, setActive] = useState(schedule?.active ?? true);
  const [week, setWeek] = useState<Record<Day, Win[]>>(() => {
    const w = Object.fromEntries(WEEKDAYS.map((d) => [d, [] as Win[]])) as Record<Day, Win[]>;
    for (const a of schedule?.availability ?? (['mon', 'tue', 'wed', 'thu', 'fri'] as Day[]).map((day) => ({ day, start: '09:00', end: '17:00' }))) w[a.day as Day].push({ start: a.start, end: a.end });
    return w;
  });
  const [exceptions, setExceptions] = useState<Exception[]>(() => (schedule?.exceptions ?? []).map((e) => ({ date: e.date, closed: e.windows.length === 0, windows: e.windows })));
  const [local, setLocal] = useState<Record<string, string>>({});
  const snapshot = () => ({ display, timeZone, numbers, active, week, exceptions });
  // What was last saved (or loaded); leaving with other values asks first.
  const [baseline, setBaseline] = useState(snapshot);
  const dirty = !sameValue(snapshot(), baseline);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.schedules.list.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.schedules.slots.queryKey() });
  };
  const create = useMutation(saving(trpc.schedules.create.mutationOptions({ onSuccess: async (s) => (await refresh(), router.push(`/schedules/${s.id}`)) }), (s) => `Schedule “${s.display}” created`, { quietErrors: true }));
  const update = useMutation(saving(trpc.schedules.update.mutationOptions({ onSuccess: async () => (setBaseline(snapshot()), await refresh()) }), (s) => `Schedule “${s.display}” saved`, { quietErrors: true }));
  useUnsavedChanges(dirty && !create.isPending && !create.isSuccess);
  const error = create.error ?? update.error;

  // The API's flat availability list, in day order; `where` says which day and window each entry came from.
  const { availability, where } = useMemo(() => {
    const list: { day: Day; start: string; end: string }[] = [];
    const at: { day: Day; k: number }[] = [];
    for (const day of WEEKDAYS) week[day].forEach((w, k) => (list.push({ day, ...w }), at.push({ day, k })));
    return { availability: list, where: at };
  }, [week]);
  const errors = { ...fieldErrorsOf(error), ...local };
  const windowError = (day: Day, k: number, field: 'start' | 'end') => {
    const i = where.findIndex((x) => x.day === day && x.k === k);
    return errors[`availability.${i}.${field}`];
  };

  function save() {
    const body = {
      display: display.trim(),
      timeZone,
      slotMinutes: Number(numbers.slotMinutes),
      minimumNoticeMinutes: Number(numbers.minimumNoticeMinutes),
      bufferMinutes: Number(numbers.bufferMinutes),
      active,
      availability,
      exceptions: exceptions.map((e) => ({ date: e.date, windows: e.closed ? [] : e.windows })),
    };
    const checked = checkWith(schedule ? updateScheduleInput : createScheduleInput, body);
    setLocal(checked.errors ?? {});
    if (!checked.value) return;
    if (schedule) update.mutate({ id: schedule.id, changes: checked.value });
    else create.mutate(checked.value as Parameters<typeof create.mutate>[0]);
  }
  const setDay = (day: Day, windows: Win[]) => setWeek((w) => ({ ...w, [day]: windows }));
  const copyTo = (from: Day, to: Day[]) => setWeek((w) => ({ ...w, ...Object.fromEntries(to.map((d) => [d, w[from].map((x) => ({ ...x }))])) }));

  return (
    <div className="space-y-6">
      <Card title="Schedule">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <TextField label="Name" value={display} onChange={(e) => setDisplay(e.target.value)} error={errors.display} placeholder="Dr. Jansen, knee clinic" />
          <SelectField label="Time zone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)} error={errors.timeZone} hint="Hours below are local times of this zone">
            {ZONES.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </SelectField>
          <TextField label="Slot length (minutes)" inputMode="numeric" value={numbers.slotMinutes} onChange={(e) => setNumbers({ ...numbers, slotMinutes: e.target.value })} error={errors.slotMinutes} hint="5 to 480" />
          <TextField label="Minimum notice (minutes)" inputMode="numeric" value={numbers.minimumNoticeMinutes} onChange={(e) => setNumbers({ ...numbers, minimumNoticeMinutes: e.target.value })} error={errors.minimumNoticeMinutes} hint="Slots sooner than this are not offered" />
          <TextField label="Buffer (minutes)" inputMode="numeric" value={numbers.bufferMinutes} onChange={(e) => setNumbers({ ...numbers, bufferMinutes: e.target.value })} error={errors.bufferMinutes} hint="Kept free before and after each appointment" />
          <label className="mt-6 inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} className="size-4 accent-brand-600" />
            Active (takes bookings)
          </label>
        </div>
      </Card>

      <Card title="Weekly hours">
        <ul className="divide-y divide-slate-100" aria-label="Weekly hours">
          {WEEKDAYS.map((day) => (
            <li key={day} aria-label={DAY_NAME[day]} className="flex flex-wrap items-start gap-3 py-3">
              <p className="w-28 pt-1.5 text-sm font-medium text-slate-800">{DAY_NAME[day]}</p>
              <div className="min-w-0 flex-1 space-y-2">
                {week[day].length === 0 && <p className="pt-1.5 text-sm text-slate-500">Closed</p>}
                {week[day].map((w, k) => (
                  <div key={k} className="flex flex-wrap items-center gap-2">
                    <input type="time" aria-label={`${DAY_NAME[day]} window ${k + 1} from`} className={control + ring(windowError(day, k, 'start'))} value={w.start} onChange={(e) => setDay(day, week[day].map((x, j) => (j === k ? { ...x, start: e.target.value } : x)))} />
                    <span className="text-sm text-slate-500">to</span>
                    <input type="time" aria-label={`${DAY_NAME[day]} window ${k + 1} to`} className={control + ring(windowError(day, k, 'end'))} value={w.end} onChange={(e) => setDay(day, week[day].map((x, j) => (j === k ? { ...x, end: e.target.value } : x)))} />
                    <Button variant="ghost" aria-label={`Remove ${DAY_NAME[day]} window ${k + 1}`} onClick={() => setDay(day, week[day].filter((_, j) => j !== k))}>
                      Remove
                    </Button>
                    {(windowError(day, k, 'start') ?? windowError(day, k, 'end')) && <p className="w-full text-xs text-red-700">{windowError(day, k, 'start') ?? windowError(day, k, 'end')}</p>}
                  </div>
                ))}
              </div>
              <div className="flex gap-1">
                <Button variant="ghost" aria-label={`Add a window on ${DAY_NAME[day]}`} onClick={() => setDay(day, [...week[day], week[day].length ? { start: '13:00', end: '17:00' } : { start: '09:00', end: '17:00' }])}>
                  Add hours
                </Button>
                <Button variant="ghost" aria-label={`Copy ${DAY_NAME[day]} to the other weekdays`} onClick={() => copyTo(day, (['mon', 'tue', 'wed', 'thu', 'fri'] as Day[]).filter((d) => d !== day))}>
                  Copy to weekdays
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </Card>

      <Card
        title="Exceptions"
        actions={
          <Button variant="secondary" onClick={() => setExceptions([...exceptions, { date: '', closed: true, windows: [{ start: '09:00', end: '12:00' }] }])}>
            Add exception
          </Button>
        }
      >
        {exceptions.length === 0 && <p className="text-sm text-slate-500">No exceptions: a holiday closes a day, a Saturday clinic opens one.</p>}
        <ul className="space-y-3" aria-label="Exceptions">
          {exceptions.map((ex, i) => (
            <li key={i} aria-label={`Exception ${i + 1}`} className="flex flex-wrap items-end gap-3">
              <TextField label={`Exception ${i + 1} date`} type="date" value={ex.date} onChange={(e) => setExceptions(exceptions.map((x, j) => (j === i ? { ...x, date: e.target.value } : x)))} error={errors[`exceptions.${i}.date`]} />
              <SelectField label={`Exception ${i + 1} hours`} value={ex.closed ? 'closed' : 'open'} onChange={(e) => setExceptions(exceptions.map((x, j) => (j === i ? { ...x, closed: e.target.value === 'closed' } : x)))}>
                <option value="closed">Closed all day</option>
                <option value="open">Other hours</option>
              </SelectField>
              {!ex.closed &&
                ex.windows.map((w, k) => (
                  <span key={k} className="flex items-center gap-2">
                    <input type="time" aria-label={`Exception ${i + 1} from`} className={control + ring(errors[`exceptions.${i}.windows.${k}.start`])} value={w.start} onChange={(e) => setExceptions(exceptions.map((x, j) => (j === i ? { ...x, windows: x.windows.map((y, m) => (m === k ? { ...y, start: e.target.value } : y)) } : x)))} />
                    <span className="text-sm text-slate-500">to</span>
                    <input type="time" aria-label={`Exception ${i + 1} to`} className={control + ring(errors[`exceptions.${i}.windows.${k}.end`])} value={w.end} onChange={(e) => setExceptions(exceptions.map((x, j) => (j === i ? { ...x, windows: x.windows.map((y, m) => (m === k ? { ...y, end: e.target.value } : y)) } : x)))} />
                  </span>
                ))}
              <Button variant="ghost" aria-label={`Remove exception ${i + 1}`} onClick={() => setExceptions(exceptions.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      </Card>

      <div className="sticky bottom-0 z-10 flex flex-wrap items-center gap-3 rounded-lg bg-white/95 px-4 py-3 shadow ring-1 ring-slate-200">
        <Button busy={create.isPending || update.isPending} disabled={create.isPending || update.isPending || (Boolean(schedule) && !dirty)} onClick={save}>
          {schedule ? 'Save changes' : 'Create schedule'}
        </Button>
        {schedule && dirty && !update.isPending && <span className="text-sm text-amber-800">Unsaved changes</span>}
        <ErrorNotice error={formErrorOf(error) ?? (Object.keys(local).length > 0 ? { message: 'Please correct the highlighted fields.' } : null)} />
      </div>
    </div>
  );
}
