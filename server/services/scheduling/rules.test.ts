import { describe, expect, it } from 'vitest';
import { freeSlots, slotProblem, slotsOn, type ScheduleRules } from './rules';

const amsterdam: ScheduleRules = {
  timeZone: 'Europe/Amsterdam',
  slotMinutes: 30,
  availability: [
    { day: 'mon', start: '09:00', end: '10:00' },
    { day: 'sun', start: '09:00', end: '10:15' },
    { day: 'sat', start: '09:00', end: '10:00' },
  ],
  exceptions: [],
  minimumNoticeMinutes: 0,
  bufferMinutes: 0,
};
const iso = (slots: { start: Date }[]) => slots.map((s) => s.start.toISOString());
const longAgo = new Date('2000-01-01T00:00:00Z');

describe('free slots (CONTRACT 10)', () => {
  it('keeps 09:00 local on both sides of a daylight saving change, and drops a short remainder', () => {
    // Europe/Amsterdam goes from UTC+1 to UTC+2 on Sunday 29 March 2026.
    expect(iso(slotsOn(amsterdam, '2026-03-28'))).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-28T08:30:00.000Z']);
    // 09:00-10:15 holds two 30-min slots; the 15 min left over is no slot.
    expect(iso(slotsOn(amsterdam, '2026-03-29'))).toEqual(['2026-03-29T07:00:00.000Z', '2026-03-29T07:30:00.000Z']);
    expect(iso(slotsOn(amsterdam, '2026-03-30'))).toEqual(['2026-03-30T07:00:00.000Z', '2026-03-30T07:30:00.000Z']);
    // And back in autumn (25 October 2026).
    expect(iso(slotsOn(amsterdam, '2026-10-25'))[0]).toBe('2026-10-25T08:00:00.000Z');
  });

  it('lets an exception replace a day, closing it or opening other hours', () => {
    const rules = { ...amsterdam, exceptions: [{ date: '2026-03-30', windows: [] }, { date: '2026-04-01', windows: [{ start: '13:00', end: '14:00' }] }] };
    expect(slotsOn(rules, '2026-03-30')).toEqual([]);
    // A Wednesday without weekly hours opens for the exception.
    expect(iso(slotsOn(rules, '2026-04-01'))).toEqual(['2026-04-01T11:00:00.000Z', '2026-04-01T11:30:00.000Z']);
  });

  it('leaves out slots that have begun, fall within the notice, or touch a booking widened by the buffer', () => {
    const rules = { ...amsterdam, availability: [{ day: 'mon', start: '09:00', end: '12:00' }], bufferMinutes: 15, minimumNoticeMinutes: 60 };
    const now = new Date('2026-03-30T06:30:00Z'); // 08:30 local
    const booked = [{ start: new Date('2026-03-30T09:00:00Z'), end: new Date('2026-03-30T09:30:00Z') }]; // 11:00-11:30 local
    // 09:00 is within the hour's notice; 10:30 and 11:30 lie within 15 min of the 11:00 booking.
    expect(iso(freeSlots(rules, '2026-03-30', '2026-03-30', booked, now))).toEqual(['2026-03-30T07:30:00.000Z', '2026-03-30T08:00:00.000Z']);
    expect(slotProblem(rules, new Date('2026-03-30T07:00:00Z'), new Date('2026-03-30T07:10:00Z'))).toMatch(/begun/);
    expect(slotProblem(rules, new Date('2026-03-30T07:00:00Z'), now)).toMatch(/notice/);
    expect(slotProblem(rules, new Date('2026-03-30T08:15:00Z'), now)).toMatch(/Not the start of a slot/);
    expect(slotProblem(rules, new Date('2026-03-30T08:00:00Z'), now)).toBeNull();
  });

  it('counts from and to both, in the schedule\u2019s dates', () => {
    const slots = freeSlots(amsterdam, '2026-03-28', '2026-03-30', [], longAgo);
    expect(slots).toHaveLength(6);
    expect(iso(slots)).toEqual([...iso(slots)].sort());
  });
});
