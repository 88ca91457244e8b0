import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ActionReminder } from '@/db/schema';
import { applyDefault, applyHandled, dueTransition, nextDueAt, reminderSchedule, type Lifecycle, type Transition } from './lifecycle';

const T0 = Date.UTC(2026, 2, 1);
const ZONES = ['UTC', 'Europe/Amsterdam', 'America/New_York', 'Australia/Lord_Howe'];

const reminderArb: fc.Arbitrary<ActionReminder> = fc.record({
  offset: fc.integer({ min: 0, max: 90 }),
  offsetUnit: fc.constantFrom('s', 'min', 'h', 'd') as fc.Arbitrary<ActionReminder['offsetUnit']>,
});

/** A fresh proposed activity as the service creates it: remindAt is the first reminder by time. */
const activityArb = fc
  .record({
    activateMin: fc.integer({ min: -3000, max: 3000 }),
    endMin: fc.option(fc.integer({ min: -60, max: 6000 }), { nil: null }),
    reminders: fc.array(reminderArb, { maxLength: 4 }),
    timeZone: fc.constantFrom(...ZONES),
  })
  .map(({ activateMin, endMin, reminders, timeZone }) => {
    const activateAt = new Date(T0 + activateMin * 60_000);
    const a: Lifecycle = {
      id: 7,
      status: 'proposed',
      activateAt,
      endAt: endMin === null ? null : new Date(activateAt.getTime() + endMin * 60_000),
      remindAt: reminderSchedule(reminders, activateAt, timeZone)[0]?.at ?? null,
      reminders,
      reminderIndex: 0,
      handledTransitions: [],
      transitionSeq: 0,
    };
    return { a, timeZone };
  });

/** Clock readings that only move forward, by jumps from a second to many days. */
const clockArb = fc.array(fc.integer({ min: 1, max: 60 * 24 * 12 }), { minLength: 1, maxLength: 12 }).map((steps) => {
  let t = T0 - 3000 * 60_000;
  return steps.map((s) => new Date((t += s * 60_000)));
});

type Fired = { t: Transition; now: Date; before: Lifecycle['status'] };

/** Runs the scheduler at each clock reading until nothing is due, as the job does. */
function run(start: Lifecycle, timeZone: string, clock: Date[], handles: (t: Transition) => boolean = () => false) {
  let a = start;
  const fired: Fired[] = [];
  for (const now of clock) {
    for (let guard = 0; ; guard++) {
      expect(guard).toBeLessThan(20);
      const t = dueTransition(a, now);
      if (!t) break;
      fired.push({ t, now, before: a.status });
      a = { ...a, ...(handles(t) ? applyHandled(a, t) : applyDefault(a, t, timeZone)) };
    }
    const next = nextDueAt(a);
    if (next) expect(next.getTime()).toBeGreaterThan(now.getTime());
  }
  return { a, fired };
}

const LEGAL: Record<string, string[]> = { proposed: ['proposed', 'scheduled', 'expired'], scheduled: ['scheduled', 'expired'], expired: ['expired'] };

describe('activity state machine', () => {
  it('any due times and clock jumps give a legal sequence of states, each firing once', () => {
    fc.assert(
      fc.property(activityArb, clockArb, ({ a, timeZone }, clock) => {
        const { fired } = run(a, timeZone, clock);
        let status: string = a.status;
        const ids = new Set<string>();
        for (const { t, now, before } of fired) {
          expect(t.at.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(ids.has(t.transitionId)).toBe(false);
          ids.add(t.transitionId);
          if (t.kind === 'reminder') expect(before).toBe('scheduled');
          if (t.kind === 'scheduled') expect(before).toBe('proposed');
          const after = t.kind === 'reminder' ? before : t.kind;
          expect(LEGAL[status]).toContain(after);
          status = after;
        }
        expect(fired.filter((f) => f.t.kind === 'reminder').length).toBeLessThanOrEqual(a.reminders.length);
      }),
      { numRuns: 400 },
    );
  });

  it('ends in the same status however the clock got there', () => {
    fc.assert(
      fc.property(activityArb, clockArb, ({ a, timeZone }, clock) => {
        const last = clock.at(-1)!;
        const stepped = run(a, timeZone, clock).a.status;
        const jumped = run(a, timeZone, [last]).a.status;
        expect(stepped).toBe(jumped);
        const expected = a.endAt && a.endAt <= last ? 'expired' : a.activateAt <= last ? 'scheduled' : 'proposed';
        expect(stepped).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('never runs the scheduled transition when expiry is due with it', () => {
    fc.assert(
      fc.property(activityArb, clockArb, ({ a, timeZone }, clock) => {
        for (const { t, now } of run(a, timeZone, clock).fired) {
          if (t.kind !== 'expired' && a.endAt) expect(a.endAt.getTime()).toBeGreaterThan(now.getTime());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fires reminders in time order while scheduled and stops at expiry', () => {
    fc.assert(
      fc.property(activityArb, clockArb, ({ a, timeZone }, clock) => {
        const reminders = run(a, timeZone, clock).fired.filter((f) => f.t.kind === 'reminder');
        const times = reminders.map((f) => f.t.at.getTime());
        expect(times).toEqual([...times].sort((x, y) => x - y));
        for (const f of reminders) if (a.endAt) expect(f.t.at.getTime()).toBeLessThan(a.endAt.getTime());
      }),
      { numRuns: 300 },
    );
  });

  it('a handle webhook takes a transition over: nothing changes, and it is not fired again', () => {
    fc.assert(
      fc.property(activityArb, clockArb, fc.boolean(), ({ a, timeZone }, clock, handleAll) => {
        const { a: end, fired } = run(a, timeZone, clock, (t) => handleAll || t.kind === 'reminder');
        const keys = fired.map((f) => f.t.key);
        expect(new Set(keys).size).toBe(keys.length);
        if (handleAll) expect(end.status).toBe('proposed');
        // handled reminders leave remindAt where it was, and fire once
        expect(end.remindAt).toEqual(end.status === 'expired' ? null : a.remindAt);
        expect(fired.filter((f) => f.t.kind === 'reminder').length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('gives a retried firing the same transitionId and the next firing a new one', () => {
    const a: Lifecycle = {
      id: 42,
      status: 'proposed',
      activateAt: new Date(T0),
      endAt: new Date(T0 + 3_600_000),
      remindAt: null,
      reminders: [],
      reminderIndex: 0,
      handledTransitions: [],
      transitionSeq: 0,
    };
    const first = dueTransition(a, new Date(T0 + 1))!;
    expect(dueTransition(a, new Date(T0 + 5_000))!.transitionId).toBe(first.transitionId);
    expect(first.transitionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const next = dueTransition({ ...a, ...applyDefault(a, first, 'UTC') }, new Date(T0 + 3_600_000))!;
    expect(next.kind).toBe('expired');
    expect(next.transitionId).not.toBe(first.transitionId);
  });
});
