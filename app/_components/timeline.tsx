'use client';

import { Fragment, useEffect, useRef, useState } from 'react';
import { ACTIVITY_STATUSES, type ActivityDto } from '@/server/services/activities/schemas';

export type TimelineItem = {
  id: string | number;
  label: string;
  type: string;
  status: ActivityDto['status'] | 'preview';
  group: string;
  activateAt: string;
  endAt: string | null;
  /** Reminders still to come, the next one first. */
  reminders: string[];
};
export type TimelineMark = { label: string; at: string };

const STATUS_STYLE: Record<TimelineItem['status'], { bar: string; label: string }> = {
  proposed: { bar: 'bg-sky-200 ring-1 ring-sky-500', label: 'proposed' },
  scheduled: { bar: 'bg-brand-500', label: 'scheduled' },
  expired: { bar: 'bg-amber-400', label: 'expired' },
  completed: { bar: 'bg-emerald-600', label: 'completed' },
  cancelled: { bar: 'bg-slate-300 opacity-60', label: 'cancelled' },
  preview: { bar: 'bg-violet-300 ring-1 ring-violet-500', label: 'preview' },
};

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEPS = [
  { ms: 10 * SECOND, unit: 'second' },
  { ms: 30 * SECOND, unit: 'second' },
  { ms: MINUTE, unit: 'minute' },
  { ms: 5 * MINUTE, unit: 'minute' },
  { ms: 15 * MINUTE, unit: 'minute' },
  { ms: HOUR, unit: 'hour' },
  { ms: 6 * HOUR, unit: 'hour' },
  { ms: DAY, unit: 'day' },
  { ms: 7 * DAY, unit: 'week' },
  { ms: 30 * DAY, unit: 'month' },
  { ms: 91 * DAY, unit: 'quarter' },
  { ms: 365 * DAY, unit: 'year' },
  { ms: 5 * 365 * DAY, unit: 'year' },
] as const;

/** Tick instants aligned to calendar boundaries in the time zone (days, months, years), 4 to 10 of them. */
function ticks(from: number, to: number, timeZone: string, maxTicks = 7): { at: number; label: string }[] {
  const span = to - from;
  const step = STEPS.find((s) => span / s.ms <= maxTicks) ?? STEPS[STEPS.length - 1]!;
  const fmt = (opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { timeZone, ...opts });
  if (step.unit === 'second' || step.unit === 'minute') {
    // Below an hour every zone's offset is a multiple of the step: multiples of it are round times.
    const label = fmt({ hour: '2-digit', minute: '2-digit', ...(step.unit === 'second' ? { second: '2-digit' } : {}), hourCycle: 'h23' });
    const out: { at: number; label: string }[] = [];
    for (let t = Math.ceil(from / step.ms) * step.ms; t <= to && out.length < 40; t += step.ms) out.push({ at: t, label: label.format(new Date(t)) });
    return out.length > maxTicks + 1 ? out.filter((_, i) => i % Math.ceil(out.length / maxTicks) === 0) : out;
  }
  const format =
    step.unit === 'hour'
      ? step.ms === HOUR
        ? fmt({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        : fmt({ weekday: 'short', hour: '2-digit', hourCycle: 'h23' })
      : step.unit === 'day' || step.unit === 'week'
        ? fmt({ day: 'numeric', month: 'short' })
        : step.unit === 'month' || step.unit === 'quarter'
          ? fmt({ month: 'short', year: 'numeric' })
          : fmt({ year: 'numeric' });
  const out: { at: number; label: string }[] = [];
  // Walk in small increments and keep the instants where the calendar boundary changes.
  const probe = step.unit === 'hour' ? HOUR : DAY;
  const key = (t: number) => {
    const p = Object.fromEntries(fmt({ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', hourCycle: 'h23' }).formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
    if (step.unit === 'hour') return Math.floor((p.day! * 24 + p.hour!) / (step.ms / HOUR));
    if (step.unit === 'day') return p.year! * 400 + p.month! * 32 + p.day!;
    if (step.unit === 'week') return Math.floor((t + 3 * DAY) / (7 * DAY));
    if (step.unit === 'month') return p.year! * 12 + p.month!;
    if (step.unit === 'quarter') return p.year! * 4 + Math.floor((p.month! - 1) / 3);
    return Math.floor(p.year! / (step.ms / (365 * DAY)));
  };
  let prev = key(from);
  for (let t = from + probe; t <= to && out.length < 40; t += probe) {
    const k = key(t);
    if (k !== prev) {
      // Refine to the hour the boundary falls in, so month ticks sit on midnight.
      let at = t;
      if (probe === DAY) for (let h = t - DAY; h <= t; h += HOUR) if (key(h) === k) { at = h; break; }
      out.push({ at, label: format.format(new Date(at)) });
      prev = k;
    }
  }
  return out.length > maxTicks + 1 ? out.filter((_, i) => i % Math.ceil(out.length / maxTicks) === 0) : out;
}

const dateTime = (iso: string, timeZone: string, seconds = false) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(seconds ? { second: '2-digit' } : {}) }).format(new Date(iso));

type Range = { from: number; to: number };

/** The span every item, mark and "now" fits in, with a little room on both sides. */
function extentOf(items: TimelineItem[], marks: TimelineMark[], now: string): Range {
  const times = [
    ...items.flatMap((i) => [i.activateAt, i.endAt, ...i.reminders].filter((t): t is string => Boolean(t)).map((t) => Date.parse(t))),
    ...marks.map((m) => Date.parse(m.at)),
    Date.parse(now),
  ];
  let from = Math.min(...times);
  let to = Math.max(...times);
  if (to - from < MINUTE) {
    const grow = (MINUTE - (to - from)) / 2;
    from -= grow;
    to += grow;
  }
  const pad = (to - from) * 0.04;
  return { from: from - pad, to: to + pad };
}

/** The width of an element, kept up to date (axis labels are as many as fit). */
function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

const MIN_SPAN = 10 * MINUTE;

/**
 * Activities on a time axis, grouped by their anchor, coloured by status, with the reference dates and
 * now marked, or the same as a list. The axis zooms and pans (a plan can hold minute-long activities on
 * an axis of months); labels are as many as fit; every bar has a text equivalent for screen readers.
 */
export function Timeline({ items, marks, now, timeZone }: { items: TimelineItem[]; marks: TimelineMark[]; now: string; timeZone: string }) {
  const extent = extentOf(items, marks, now);
  const [range, setRange] = useState<Range | null>(null);
  const { ref, width } = useWidth<HTMLDivElement>();
  const [view, setView] = useState<'axis' | 'list' | null>(null);
  // On a phone a list reads better; wherever there is room, the axis.
  const shown = view ?? (width > 0 && width < 480 ? 'list' : 'axis');
  const r = range ?? extent;
  const span = r.to - r.from;
  const zoom = (factor: number, center = (r.from + r.to) / 2) => {
    const next = Math.max(MIN_SPAN, Math.min(span * factor, (extent.to - extent.from) * 4));
    setRange({ from: center - next / 2, to: center + next / 2 });
  };
  const pan = (by: number) => setRange({ from: r.from + span * by, to: r.to + span * by });
  const button = 'rounded-md px-2.5 py-1 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400';
  return (
    <figure aria-label="Care plan timeline" className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div role="radiogroup" aria-label="Show as" className="inline-flex rounded-md ring-1 ring-inset ring-slate-300">
          {(['axis', 'list'] as const).map((v) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={shown === v}
              onClick={() => setView(v)}
              className={`px-3 py-1 text-sm font-medium first:rounded-l-md last:rounded-r-md ${shown === v ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              {v === 'axis' ? 'Timeline' : 'List'}
            </button>
          ))}
        </div>
        {shown === 'axis' && (
          <div role="group" aria-label="Zoom and move" className="flex flex-wrap gap-1">
            <button type="button" className={button} onClick={() => pan(-0.5)} aria-label="Earlier">
              ←
            </button>
            <button type="button" className={button} onClick={() => zoom(0.5)} aria-label="Zoom in" disabled={span <= MIN_SPAN}>
              +
            </button>
            <button type="button" className={button} onClick={() => zoom(2)} aria-label="Zoom out">
              −
            </button>
            <button type="button" className={button} onClick={() => pan(0.5)} aria-label="Later">
              →
            </button>
            <button type="button" className={button} onClick={() => zoom(Math.min(1, (7 * DAY) / span), Date.parse(now))}>
              Around {extent.to - extent.from < HOUR ? 'now' : 'today'}
            </button>
            <button type="button" className={button} onClick={() => setRange(null)} disabled={range === null}>
              Show all
            </button>
          </div>
        )}
      </div>
      <div ref={ref}>
        {shown === 'axis' ? <Axis items={items} marks={marks} now={now} timeZone={timeZone} range={r} width={width} fine={extent.to - extent.from < HOUR} /> : <TimelineList items={items} timeZone={timeZone} fine={extent.to - extent.from < HOUR} />}
      </div>
      <figcaption className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
        {ACTIVITY_STATUSES.map((s) => (
          <span key={s} className="flex items-center gap-1.5">
            <span className={`inline-block h-2.5 w-4 rounded ${STATUS_STYLE[s].bar}`} /> {s}
          </span>
        ))}
        {shown === 'axis' && (
          <>
            <span className="flex items-center gap-1.5">
              <span className="inline-block size-2 rounded-full bg-amber-500" /> next reminder
            </span>
            <span className="flex items-center gap-1.5">
              <span className="inline-block size-2 rounded-full bg-amber-300" /> later reminders
            </span>
            <span className="flex items-center gap-1.5">
              <span className="inline-block h-3 border-l-2 border-dashed border-violet-500" /> reference date
            </span>
            <span className="flex items-center gap-1.5">
              <span className="inline-block h-3 border-l-2 border-red-500" /> now
            </span>
          </>
        )}
        <span className="sm:ml-auto">Times in {timeZone}</span>
      </figcaption>
    </figure>
  );
}

/** The axis view of the range: bars (or diamonds) per activity, reminders, reference dates and now. */
function Axis({ items, marks, now, timeZone, range, width, fine }: { items: TimelineItem[]; marks: TimelineMark[]; now: string; timeZone: string; range: Range; width: number; fine: boolean }) {
  const { from, to } = range;
  const x = (iso: string) => ((Date.parse(iso) - from) / (to - from)) * 100;
  const inView = (iso: string) => x(iso) >= 0 && x(iso) <= 100;
  const groups = [...new Set(items.map((i) => i.group))];
  const labelWidth = width >= 640 ? 208 : 128;
  // As many axis labels as fit: one per 80 px of axis.
  const axis = ticks(from, to, timeZone, Math.max(2, Math.min(7, Math.floor((width - labelWidth) / 80))));
  const nowOnRight = x(now) > 70;
  const labelOnRight = (m: { at: string; kind: 'ref' | 'now' }) => (m.kind === 'ref' && Math.abs(x(m.at) - x(now)) < 6 ? !nowOnRight : x(m.at) > 70);
  const when = (iso: string) => dateTime(iso, timeZone, fine);
  return (
    <div className="relative">
      <div className="grid grid-cols-[8rem_1fr] text-xs sm:grid-cols-[13rem_1fr]">
        <div />
        <div className="relative h-6 overflow-hidden border-b border-slate-200" aria-hidden>
          {axis.map((t, k) => (
            <span
              key={t.at}
              className={`absolute top-0 whitespace-nowrap text-slate-600 ${k === 0 ? '' : '-translate-x-1/2'}`}
              style={{ left: `${((t.at - from) / (to - from)) * 100}%` }}
            >
              {t.label}
            </span>
          ))}
        </div>
        {groups.map((group) => (
          <Fragment key={group}>
            <div className="col-span-2 mt-3 border-t border-slate-100 pt-2 text-[11px] font-semibold uppercase tracking-wide text-slate-600">{group}</div>
            <ul className="contents" aria-label={group}>
              {items
                .filter((i) => i.group === group)
                .map((i) => {
                  const style = STATUS_STYLE[i.status];
                  const left = x(i.activateAt);
                  const width = i.endAt ? Math.max(x(i.endAt) - left, 0.6) : 0;
                  const reminderText = i.reminders.length === 0 ? '' : `, ${i.reminders.length === 1 ? 'reminder' : `${i.reminders.length} reminders, next`} ${when(i.reminders[0]!)}`;
                  const text = `${i.label}, ${style.label}, ${i.endAt ? `from ${when(i.activateAt)} to ${when(i.endAt)}` : `at ${when(i.activateAt)}`}${reminderText}`;
                  const outside = !i.endAt && !inView(i.activateAt) ? (left < 0 ? 'earlier' : 'later') : i.endAt && (x(i.endAt) < 0 || left > 100) ? (left > 100 ? 'later' : 'earlier') : null;
                  return (
                    <li key={i.id} className="contents" aria-label={text}>
                      <div className={`truncate py-1.5 pr-3 text-sm ${i.status === 'cancelled' ? 'text-slate-600 line-through' : 'text-slate-800'}`} title={text}>
                        {i.label}
                        <span className="ml-1 hidden text-xs text-slate-600 sm:inline">{i.type}</span>
                      </div>
                      <div className="relative h-8 overflow-hidden">
                        {timesGrid(axis, from, to)}
                        {outside ? (
                          <span className={`absolute top-2 text-xs text-slate-600 ${outside === 'earlier' ? 'left-1' : 'right-1'}`}>{outside === 'earlier' ? '← earlier' : 'later →'}</span>
                        ) : width > 0 ? (
                          <span className={`absolute top-2 h-4 rounded ${style.bar}`} style={{ left: `${Math.max(left, -1)}%`, width: `${Math.min(width, 102 - Math.max(left, -1))}%` }} title={text} />
                        ) : (
                          <span className={`absolute top-2 size-4 -translate-x-1/2 rotate-45 rounded-sm ${style.bar}`} style={{ left: `${left}%` }} title={text} />
                        )}
                        {i.reminders.filter(inView).map((r, k) => (
                          <span
                            key={r}
                            className={`absolute top-0.5 size-2 -translate-x-1/2 rounded-full ring-2 ring-white ${k === 0 && r === i.reminders[0] ? 'bg-amber-500' : 'bg-amber-300'}`}
                            style={{ left: `${x(r)}%` }}
                            title={`Reminder ${when(r)}`}
                          />
                        ))}
                      </div>
                    </li>
                  );
                })}
            </ul>
          </Fragment>
        ))}
      </div>
      <div className="pointer-events-none absolute inset-y-0 right-0 left-[8rem] overflow-hidden sm:left-[13rem]" aria-hidden>
        {[...marks.map((m) => ({ ...m, kind: 'ref' as const })), { label: fine ? 'Now' : 'Today', at: now, kind: 'now' as const }]
          .filter((m) => inView(m.at))
          .map((m) => (
            <span key={`${m.kind}-${m.label}`} className={`absolute top-6 bottom-0 border-l-2 ${m.kind === 'now' ? 'border-red-500' : 'border-dashed border-violet-500'}`} style={{ left: `${x(m.at)}%` }}>
              <span
                className={`absolute bottom-0 whitespace-nowrap rounded px-1 text-[10px] font-medium ${labelOnRight(m) ? 'right-1' : 'left-1'} ${m.kind === 'now' ? 'bg-red-50 text-red-700' : 'bg-violet-50 text-violet-800'}`}
              >
                {m.label}
              </span>
            </span>
          ))}
      </div>
    </div>
  );
}

/** The same activities as a list per anchor, soonest first: readable on any screen. */
function TimelineList({ items, timeZone, fine }: { items: TimelineItem[]; timeZone: string; fine: boolean }) {
  const groups = [...new Set(items.map((i) => i.group))];
  const when = (iso: string) => dateTime(iso, timeZone, fine);
  return (
    <div className="space-y-4">
      {groups.map((group) => (
        <section key={group} aria-label={group}>
          <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-600">{group}</h3>
          <ol className="divide-y divide-slate-100">
            {items
              .filter((i) => i.group === group)
              .sort((a, b) => a.activateAt.localeCompare(b.activateAt))
              .map((i) => (
                <li key={i.id} className="flex items-start gap-3 py-2">
                  <span className={`mt-1.5 inline-block h-2.5 w-4 shrink-0 rounded ${STATUS_STYLE[i.status].bar}`} aria-hidden />
                  <div className="min-w-0">
                    <p className={`text-sm font-medium ${i.status === 'cancelled' ? 'text-slate-600 line-through' : 'text-slate-900'}`}>
                      {i.label} <span className="font-normal text-slate-600">· {STATUS_STYLE[i.status].label}</span>
                    </p>
                    <p className="text-xs text-slate-600">
                      {i.endAt ? `${when(i.activateAt)} – ${when(i.endAt)}` : when(i.activateAt)}
                      {i.reminders.length > 0 && ` · next reminder ${when(i.reminders[0]!)}`}
                    </p>
                  </div>
                </li>
              ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

function timesGrid(axis: { at: number }[], from: number, to: number) {
  return axis.map((t) => <span key={t.at} aria-hidden className="absolute inset-y-0 border-l border-slate-100" style={{ left: `${((t.at - from) / (to - from)) * 100}%` }} />);
}
