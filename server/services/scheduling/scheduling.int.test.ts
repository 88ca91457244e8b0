import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { apiClient, httpApiClient, newProject, type ApiClient } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';
import { startNextProcess } from '@/server/testing/next-process';
import { startReceiver } from '@/server/testing/receiver';

const eventsNamed = async (db: any, projectId: number, name: string) => db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, name))).orderBy(events.id);
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const ALL_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => ({ day: d, start: '08:00', end: '18:00' }));

async function setup(schedule: Record<string, unknown> = {}) {
  const p = await newProject();
  const res = await p.api.post('/schedule', { display: 'Dr. Jansen', availability: ALL_DAY, ...schedule });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const member = (await p.api.post('/member', { name: 'Pat' })).body;
  const other = (await p.api.post('/member', { name: 'Sam' })).body;
  const token = async (id: number) => apiClient((await p.api.post(`/member/${id}/token`)).body.token);
  const slots = async (api: ApiClient = p.api, from = day(2), to = day(2)) => (await api.get(`/schedule/${res.body.id}/slot`, { from, to })).body as { start: string; end: string }[];
  return { ...p, schedule: res.body, member, other, token, slots };
}

describe('schedules and slots (CONTRACT 10)', () => {
  it('creates a schedule with defaults, validates windows, exceptions and the time zone at their places', async () => {
    const { api, db, projectId, schedule } = await setup();
    expect(schedule).toEqual({
      id: expect.any(Number),
      display: 'Dr. Jansen',
      timeZone: 'UTC',
      slotMinutes: 30,
      availability: ALL_DAY,
      exceptions: [],
      minimumNoticeMinutes: 0,
      bufferMinutes: 0,
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await eventsNamed(db, projectId, 'schedule_create')).map((e: any) => e.responseData)).toEqual([schedule]);
    const bad = await api.post('/schedule', {
      display: 'Bad',
      timeZone: 'Mars/Olympus',
      slotMinutes: 4,
      availability: [
        { day: 'mon', start: '09:00', end: '12:00' },
        { day: 'mon', start: '11:00', end: '13:00' },
        { day: 'tue', start: '10:00', end: '09:00' },
        { day: 'xyz', start: '9:00', end: '10:00' },
      ],
      exceptions: [
        { date: '2026-12-25', windows: [] },
        { date: '2026-12-25', windows: [] },
        { date: '2026-02-30', windows: [] },
      ],
      minimumNoticeMinutes: 50_000,
      bufferMinutes: -1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(
      ['timeZone', 'slotMinutes', 'availability.3.day', 'availability.3.start', 'exceptions.2.date', 'minimumNoticeMinutes', 'bufferMinutes'].sort(),
    );
    const rules = await api.post('/schedule', {
      display: 'Bad',
      availability: [
        { day: 'mon', start: '09:00', end: '12:00' },
        { day: 'mon', start: '11:00', end: '13:00' },
        { day: 'tue', start: '10:00', end: '09:00' },
      ],
      exceptions: [
        { date: '2026-12-25', windows: [] },
        { date: '2026-12-25', windows: [{ start: '08:00', end: '08:00' }] },
      ],
    });
    expect(rules.body.errors.map((e: any) => e.path).sort()).toEqual(['availability.1.start', 'availability.2.end', 'exceptions.1.date', 'exceptions.1.windows.0.end'].sort());
    const patched = await api.patch(`/schedule/${schedule.id}`, { slotMinutes: 20, timeZone: 'Europe/Amsterdam' });
    expect(patched.body).toMatchObject({ slotMinutes: 20, timeZone: 'Europe/Amsterdam' });
    expect((await eventsNamed(db, projectId, 'schedule_update')).map((e: any) => e.params)).toEqual([{ id: schedule.id, slotMinutes: 20, timeZone: 'Europe/Amsterdam' }]);
    await api.post('/schedule', { display: 'Closed', active: false });
    expect((await api.get('/schedule', { active: 'false' })).body.map((s: any) => s.display)).toEqual(['Closed']);
    expect((await api.get('/schedule')).body).toHaveLength(2);
  });

  it('answers free slots as a bare array, within 62 days, without booked ones widened by the buffer', async () => {
    const { api, schedule, member, slots } = await setup({ bufferMinutes: 30, exceptions: [{ date: day(3), windows: [] }] });
    const free = await slots();
    expect(free).toHaveLength(20);
    expect(free[0]).toEqual({ start: `${day(2)}T08:00:00.000Z`, end: `${day(2)}T08:30:00.000Z` });
    const res = await api.get(`/schedule/${schedule.id}/slot`, { from: day(2), to: day(2) });
    expect(res.headers.get('link')).toBeNull();
    // An exception closes day 3.
    expect(await slots(api, day(3), day(3))).toEqual([]);
    expect((await api.get(`/schedule/${schedule.id}/slot`, { from: day(1), to: day(63) })).body.errors[0].path).toBe('to');
    expect((await api.get(`/schedule/${schedule.id}/slot`, { from: day(2), to: day(1) })).body.errors[0].path).toBe('to');
    expect((await api.get(`/schedule/${schedule.id}/slot`, { from: 'tomorrow', to: day(1) })).body.errors[0].path).toBe('from');
    expect((await api.get(`/schedule/${schedule.id}/slot`, { from: day(1), to: day(62) })).status).toBe(200);
    // A booking at 10:00 takes 10:00 and, with a 30-min buffer, 09:30 and 10:30 too.
    expect((await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: `${day(2)}T10:00:00.000Z` })).status).toBe(201);
    const after = (await slots()).map((s) => s.start.slice(11, 16));
    expect(after).not.toContain('09:30');
    expect(after).not.toContain('10:00');
    expect(after).not.toContain('10:30');
    expect(after).toContain('09:00');
    expect(after).toContain('11:00');
    expect(after).toHaveLength(17);
  });
});

describe('appointments (CONTRACT 10)', () => {
  it('books only a free slot start; end is start + slotMinutes; a taken slot is 409', async () => {
    const { api, db, projectId, schedule, member, other, slots } = await setup({ minimumNoticeMinutes: 60 });
    const [first] = await slots();
    const body = { scheduleId: schedule.id, subjectId: member.id, start: first!.start, title: 'Consultation' };
    const booked = await api.post('/appointment', body);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body).toEqual({
      id: expect.any(Number),
      scheduleId: schedule.id,
      subjectId: member.id,
      activityId: null,
      title: 'Consultation',
      note: null,
      start: first!.start,
      end: first!.end,
      status: 'booked',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await eventsNamed(db, projectId, 'appointment_create')).map((e: any) => e.responseData)).toEqual([booked.body]);
    const taken = await api.post('/appointment', { ...body, subjectId: other.id });
    expect(taken.status).toBe(409);
    expect(taken.body.errors[0].path).toBe('start');
    const notStart = await api.post('/appointment', { ...body, start: first!.start.replace(':00:00.000Z', ':10:00.000Z') });
    expect(notStart.body.errors).toEqual([{ path: 'start', message: expect.stringContaining('Not the start of a slot') }]);
    const soon = new Date(Date.now() + 30 * 60_000);
    soon.setUTCMinutes(soon.getUTCMinutes() < 30 ? 30 : 60, 0, 0);
    const tooSoon = await api.post('/appointment', { ...body, start: soon.toISOString() });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.errors[0].path).toBe('start');
    const past = await api.post('/appointment', { ...body, start: `${day(-1)}T09:00:00.000Z` });
    expect(past.body.errors[0].message).toMatch(/begun/);
    const fields = await api.post('/appointment', { scheduleId: 2147483647, subjectId: 2147483647, start: first!.start });
    expect(fields.body.errors.map((e: any) => e.path).sort()).toEqual(['scheduleId', 'subjectId']);
    await api.patch(`/schedule/${schedule.id}`, { active: false });
    const inactive = await api.post('/appointment', { ...body, start: `${day(3)}T09:00:00.000Z` });
    expect(inactive.body.errors).toEqual([{ path: 'start', message: expect.stringContaining('not active') }]);
    expect(await slots()).toEqual([]);
    expect((await api.get('/appointment', { scheduleId: schedule.id })).body).toHaveLength(1);
  });

  it('reschedules under the same rules, ends in final states, and final ones never change', async () => {
    const { api, db, projectId, schedule, member, slots } = await setup();
    const [a, b, c] = await slots();
    const one = (await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: a!.start })).body;
    const two = (await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: c!.start })).body;
    expect((await api.patch(`/appointment/${one.id}`, { start: c!.start })).status).toBe(409);
    const moved = await api.patch(`/appointment/${one.id}`, { start: b!.start, note: 'Moved by phone' });
    expect(moved.body).toMatchObject({ start: b!.start, end: b!.end, note: 'Moved by phone', status: 'booked' });
    // The old slot is free again.
    expect((await slots()).map((s) => s.start)).toContain(a!.start);
    expect((await api.patch(`/appointment/${one.id}`, { status: 'noshow' })).body.status).toBe('noshow');
    for (const change of [{ status: 'booked' }, { note: 'x' }, { start: a!.start }, { status: 'cancelled' }]) {
      expect((await api.patch(`/appointment/${one.id}`, change)).status).toBe(409);
    }
    expect((await api.patch(`/appointment/${two.id}`, { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await api.del(`/appointment/${two.id}`)).status).toBe(405);
    expect((await api.get('/appointment', { status: 'cancelled' })).body.map((x: any) => x.id)).toEqual([two.id]);
    expect((await api.get('/appointment', { from: b!.start, to: c!.start })).body.map((x: any) => x.id)).toEqual([one.id]);
    expect((await eventsNamed(db, projectId, 'appointment_update')).map((e: any) => e.params)).toEqual([
      { id: one.id, start: b!.start, note: 'Moved by phone' },
      { id: one.id, status: 'noshow' },
      { id: two.id, status: 'cancelled' },
    ]);
  });

  it('a booking completes its appointment activity; cancelling it reopens the activity; both recorded after-only', async () => {
    const { api, db, projectId, schedule, member, other, slots } = await setup();
    const otherSchedule = (await api.post('/schedule', { display: 'Room 2', availability: ALL_DAY })).body;
    const def = await api.post('/careplan-definition', {
      slug: 'consult',
      title: 'Consult',
      actions: [
        { key: 'book', kind: 'appointment', scheduleId: schedule.id, type: 'visit', display: 'Book a consultation', start: { offset: 0, offsetUnit: 'd' } },
        { key: 'phone', type: 'call', display: 'Call', start: { offset: 0, offsetUnit: 'd' } },
      ],
    });
    expect(def.status, JSON.stringify(def.body)).toBe(201);
    const plan = (await api.post('/careplan', { definitionId: def.body.id, subjectId: member.id })).body;
    const act = (key: string) => plan.activities.find((a: any) => a.actionKey === key);
    expect(act('book')).toMatchObject({ kind: 'appointment', scheduleId: schedule.id });
    const [slot] = await slots();
    const base = { scheduleId: schedule.id, subjectId: member.id, start: slot!.start };
    expect((await api.post('/appointment', { ...base, activityId: act('book').id })).body.errors[0]).toMatchObject({ path: 'activityId', message: expect.stringContaining('proposed') });
    await runDueTransitions(db, { now: new Date(Date.now() + 1000), projectId });
    expect((await api.post('/appointment', { ...base, activityId: act('phone').id })).body.errors[0].path).toBe('activityId');
    expect((await api.post('/appointment', { ...base, subjectId: other.id, activityId: act('book').id })).body.errors[0].path).toBe('activityId');
    expect((await api.post('/appointment', { ...base, scheduleId: otherSchedule.id, activityId: act('book').id })).body.errors[0]).toMatchObject({ path: 'activityId', message: expect.stringContaining('another schedule') });

    const booked = (await api.post('/appointment', { ...base, activityId: act('book').id })).body;
    const completed = (await api.get(`/activity/${act('book').id}`)).body;
    expect(completed).toMatchObject({ status: 'completed', appointmentId: booked.id, completedAt: expect.any(String) });
    expect((await api.patch(`/activity/${act('book').id}`, { status: 'completed' })).status).toBe(409);
    await api.patch(`/appointment/${booked.id}`, { status: 'cancelled' });
    const reopened = (await api.get(`/activity/${act('book').id}`)).body;
    expect(reopened).toMatchObject({ status: 'scheduled', appointmentId: null, completedAt: null });
    const updates = (await eventsNamed(db, projectId, 'activity_update')).filter((e: any) => e.params.id === act('book').id);
    expect(updates.map((e: any) => e.params)).toEqual([
      { id: act('book').id, status: 'completed', completedAt: completed.completedAt, appointmentId: booked.id },
      { id: act('book').id, status: 'scheduled', completedAt: null, appointmentId: null },
    ]);
    // Booked again, then the visit happens: the activity stays completed.
    const again = (await api.post('/appointment', { ...base, activityId: act('book').id })).body;
    expect((await api.get(`/activity/${act('book').id}`)).body).toMatchObject({ status: 'completed', appointmentId: again.id });
  });
});

describe('appointments through emit (CONTRACT 10)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((r) => (r.path === '/handle' ? { body: '{"id":"ext-42","calendar":"external"}' } : r.path === '/refuse' ? { status: 409, body: '{"error":"busy"}' } : {}));
  });
  afterAll(() => receiver.close());

  it('a handle webhook books in an external calendar instead (its answer is the appointment); a before webhook refuses a booking', async () => {
    const { api, schedule, member, slots } = await setup();
    const [a, b] = await slots();
    const handler = (await api.post('/webhook', { display: 'External calendar', url: `${receiver.url}/handle`, triggers: [{ event: 'appointment_create', strategy: 'handle' }] })).body;
    const taken = await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: a!.start });
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ id: 'ext-42', calendar: 'external' });
    expect(JSON.parse(receiver.received.find((r) => r.path === '/handle')!.body).params).toEqual({ scheduleId: schedule.id, subjectId: member.id, start: a!.start });
    // Nothing was booked here: the slot is still free.
    expect((await api.get('/appointment', { scheduleId: schedule.id })).body).toEqual([]);
    expect((await slots()).map((s) => s.start)).toContain(a!.start);
    await api.del(`/webhook/${handler.id}`);

    await api.post('/webhook', { display: 'Gate', url: `${receiver.url}/refuse`, triggers: [{ event: 'appointment_create', strategy: 'before' }] });
    const refused = await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: b!.start });
    expect(refused.status).toBe(502);
    expect((await api.get('/appointment', { scheduleId: schedule.id })).body).toEqual([]);
  });
});

describe('encounters (CONTRACT 10)', () => {
  it('one per appointment; planned -> in-progress -> finished; finishing fulfils the appointment', async () => {
    const { api, db, projectId, schedule, member, other, slots } = await setup();
    const [a, b] = await slots();
    const appointment = (await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: a!.start })).body;
    expect((await api.post('/encounter', { subjectId: other.id, appointmentId: appointment.id })).body.errors[0].path).toBe('appointmentId');
    const enc = await api.post('/encounter', { subjectId: member.id, appointmentId: appointment.id, status: 'planned' });
    expect(enc.status).toBe(201);
    expect(enc.body).toMatchObject({ subjectId: member.id, appointmentId: appointment.id, status: 'planned', end: null, start: expect.any(String) });
    expect((await api.post('/encounter', { subjectId: member.id, appointmentId: appointment.id })).status).toBe(409);
    expect((await api.patch(`/encounter/${enc.body.id}`, { status: 'finished' })).status).toBe(409);
    expect((await api.patch(`/encounter/${enc.body.id}`, { status: 'in-progress' })).body.status).toBe('in-progress');
    const finished = await api.patch(`/encounter/${enc.body.id}`, { status: 'finished', note: 'Knee looks good' });
    expect(finished.body).toMatchObject({ status: 'finished', note: 'Knee looks good', end: expect.any(String) });
    expect((await api.get(`/appointment/${appointment.id}`)).body.status).toBe('fulfilled');
    const fulfilled = (await eventsNamed(db, projectId, 'appointment_update')).map((e: any) => e.params);
    expect(fulfilled).toEqual([{ id: appointment.id, status: 'fulfilled' }]);
    expect((await api.patch(`/encounter/${enc.body.id}`, { note: 'later' })).status).toBe(409);
    // Without an appointment, and cancelled.
    const walkIn = (await api.post('/encounter', { subjectId: other.id })).body;
    expect(walkIn.status).toBe('in-progress');
    expect((await api.patch(`/encounter/${walkIn.id}`, { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await api.get('/encounter', { subjectId: member.id })).body.map((e: any) => e.id)).toEqual([enc.body.id]);
    expect((await eventsNamed(db, projectId, 'encounter_update')).length).toBe(3);
    expect((await api.post('/encounter', { subjectId: member.id, status: 'finished' })).body.errors[0].path).toBe('status');
    expect(b).toBeDefined();
  });
});

describe('who may do what (CONTRACT 10)', () => {
  it('member tokens read active schedules, book, move and cancel their own appointments, and read their own encounters', async () => {
    const { api, schedule, member, other, token, slots } = await setup();
    const hidden = (await api.post('/schedule', { display: 'Hidden', active: false, availability: ALL_DAY })).body;
    const asPat = await token(member.id);
    expect((await asPat.get('/schedule')).body.map((s: any) => s.id)).toEqual([schedule.id]);
    expect((await asPat.get(`/schedule/${hidden.id}`)).status).toBe(404);
    expect((await asPat.get(`/schedule/${hidden.id}/slot`, { from: day(2), to: day(2) })).status).toBe(404);
    const free = await slots(asPat);
    expect(free.length).toBeGreaterThan(3);
    expect((await asPat.post('/schedule', { display: 'Mine' })).status).toBe(403);
    expect((await asPat.patch(`/schedule/${schedule.id}`, { display: 'Mine' })).status).toBe(403);
    expect((await asPat.post('/appointment', { scheduleId: schedule.id, subjectId: other.id, start: free[0]!.start })).status).toBe(403);
    const mine = await asPat.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: free[0]!.start });
    expect(mine.status).toBe(201);
    const theirs = (await api.post('/appointment', { scheduleId: schedule.id, subjectId: other.id, start: free[1]!.start })).body;
    expect((await asPat.get('/appointment')).body.map((a: any) => a.id)).toEqual([mine.body.id]);
    expect((await asPat.get(`/appointment/${theirs.id}`)).status).toBe(404);
    expect((await asPat.patch(`/appointment/${theirs.id}`, { status: 'cancelled' })).status).toBe(404);
    expect((await asPat.patch(`/appointment/${mine.body.id}`, { start: free[2]!.start })).body.start).toBe(free[2]!.start);
    expect((await asPat.patch(`/appointment/${mine.body.id}`, { status: 'fulfilled' })).status).toBe(403);
    expect((await asPat.patch(`/appointment/${mine.body.id}`, { status: 'noshow' })).status).toBe(403);
    const enc = (await api.post('/encounter', { subjectId: member.id, appointmentId: mine.body.id })).body;
    const otherEnc = (await api.post('/encounter', { subjectId: other.id, appointmentId: theirs.id })).body;
    expect((await asPat.get('/encounter')).body.map((e: any) => e.id)).toEqual([enc.id]);
    expect((await asPat.get(`/encounter/${otherEnc.id}`)).status).toBe(404);
    expect((await asPat.post('/encounter', { subjectId: member.id })).status).toBe(403);
    expect((await asPat.patch(`/encounter/${enc.id}`, { status: 'finished' })).status).toBe(403);
    expect((await asPat.patch(`/appointment/${mine.body.id}`, { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await asPat.del(`/schedule/${schedule.id}`)).status).toBe(403);
  });

  it('deleting a schedule waits for its future bookings', async () => {
    const { api, schedule, member, slots } = await setup();
    const [slot] = await slots();
    const booked = (await api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: slot!.start })).body;
    expect((await api.del(`/schedule/${schedule.id}`)).status).toBe(409);
    await api.patch(`/appointment/${booked.id}`, { status: 'cancelled' });
    expect((await api.del(`/schedule/${schedule.id}`)).status).toBe(204);
    expect((await api.get(`/schedule/${schedule.id}`)).status).toBe(404);
  });
});

describe('double booking over HTTP', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    server = await startHttpServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('of 20 simultaneous bookings of one slot (over HTTP and in process), exactly one wins; the rest get 409', async () => {
    const { api, apiKey, schedule, slots } = await setup({ bufferMinutes: 10 });
    const overHttp = httpApiClient(server.url, apiKey);
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post('/member', { name: `Person ${i}` }).then((r) => r.body.id as number)));
    const [slot] = await slots();
    const results = await Promise.all(people.map((subjectId, i) => (i % 2 ? overHttp : api).post('/appointment', { scheduleId: schedule.id, subjectId, start: slot!.start })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201), statuses.join(',')).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect((await api.get('/appointment', { scheduleId: schedule.id, status: 'booked' })).body).toHaveLength(1);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('double booking across two app processes (PostgreSQL)', () => {
  // A second app process (`next start` on the same production build) sharing the test's database.
  let second: Awaited<ReturnType<typeof startNextProcess>>;
  beforeAll(async () => {
    second = await startNextProcess();
  }, 90_000);
  afterAll(() => second?.stop());

  it('of 20 simultaneous bookings of one slot split over two processes, exactly one wins', async () => {
    const { api, apiKey, schedule, slots } = await setup({ bufferMinutes: 15 });
    const other = httpApiClient(second.url, apiKey);
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post('/member', { name: `Person ${i}` }).then((r) => r.body.id as number)));
    const free = await slots();
    // Half aim at one slot, half at the next one (which the buffer makes clash with it): still one winner.
    const results = await Promise.all(people.map((subjectId, i) => (i % 2 ? other : api).post('/appointment', { scheduleId: schedule.id, subjectId, start: free[i % 4 < 2 ? 0 : 1]!.start })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    expect(results.some((r) => r.status >= 500)).toBe(false);
  }, 60_000);
});
