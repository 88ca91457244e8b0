import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '@/db/client';
import { events } from '@/db/schema';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { apiClient, newProject } from '@/server/testing/api';
import { runDueDeliveries } from '@/server/testing/deliveries';
import { startReceiver, type Received } from '@/server/testing/receiver';
import { createCaller } from '@/server/trpc/root';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(() => receiver.setReply(() => ({})));

const MIN = 60_000;
const at = (base: number, minutes: number) => new Date(base + minutes * MIN);

const action = {
  key: 'call',
  type: 'call',
  display: 'Phone check-in',
  start: { offset: 60, offsetUnit: 'min' },
  end: { offset: 2, offsetUnit: 'h' },
  reminders: [
    { offset: 30, offsetUnit: 'min', topic: 'care', body: 'Please pick up' },
    { offset: 10, offsetUnit: 'min' },
  ],
};

/** A project with a one-action template and a care plan: the activity is due 60 min after enrolment. */
async function setup(extra: Record<string, unknown> = {}) {
  const p = await newProject();
  const member = (await p.api.post('/member', { name: 'Pat' })).body;
  const def = await p.api.post('/careplan-definition', { slug: 'check-in', title: 'Check-in', actions: [{ ...action, ...extra }] });
  expect(def.status, JSON.stringify(def.body)).toBe(201);
  const careplan = (await p.api.post('/careplan', { definitionId: def.body.id, subjectId: member.id })).body;
  const activity = careplan.activities[0];
  const t0 = new Date(activity.activateAt).getTime() - 60 * MIN;
  const run = (minutes: number) => runDueTransitions(p.db, { now: at(t0, minutes), projectId: p.projectId });
  return { ...p, member, careplan, activity, t0, run };
}

async function hook(api: ReturnType<typeof apiClient>, triggers: { event: string; strategy?: string }[]) {
  const path = `/t/${Math.random().toString(36).slice(2)}`;
  const res = await api.post('/webhook', { display: 'Lifecycle', url: `${receiver.url}${path}`, triggers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const calls = (): Received[] => receiver.received.filter((r) => r.path === path);
  return { id: res.body.id as number, secret: res.body.secret as string, path, calls };
}

/**
 * Delivers a project's pending `after` deliveries now, as the executor would. Their events ran on the
 * transitions' clock, up to hours ahead of the real one: all of them are due (8.64e15 ms is the latest Date).
 */
const deliver = (db: Queryable, projectId: number) => runDueDeliveries(db, projectId, new Date(), { dueBy: new Date(8.64e15) });

const verified = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] as string,
    'webhook-timestamp': r.headers['webhook-timestamp'] as string,
    'webhook-signature': r.headers['webhook-signature'] as string,
  }) as { event: string; projectId: number; params: any; responseData: any };

const eventNames = async (db: any, projectId: number) =>
  (await db.select({ name: events.name }).from(events).where(eq(events.projectId, projectId)).orderBy(events.id)).map((e: { name: string }) => e.name);

describe('activity transitions (CONTRACT 6)', () => {
  it('proposed -> scheduled at activateAt, with a signed event carrying the activity as it was', async () => {
    const { api, db, projectId, activity, run } = await setup();
    const after = await hook(api, [{ event: 'activity_transition_scheduled' }]);
    expect(activity).toMatchObject({ status: 'proposed', remindAt: new Date(new Date(activity.activateAt).getTime() + 10 * MIN).toISOString() });
    expect((await run(59)).applied).toBe(0);
    expect((await api.get(`/activity/${activity.id}`)).body.status).toBe('proposed');
    expect((await run(60)).applied).toBe(1);
    const now = (await api.get(`/activity/${activity.id}`)).body;
    expect(now.status).toBe('scheduled');
    await deliver(db, projectId);
    const [call] = after.calls();
    const body = verified(after.secret, call!);
    expect(body.event).toBe('activity_transition_scheduled');
    expect(body.params).toEqual({ id: activity.id, transitionId: expect.stringMatching(/^[0-9a-f-]{36}$/), activity: { ...activity }, status: 'scheduled' });
    expect(body.responseData).toMatchObject({ id: activity.id, status: 'scheduled' });
    // each due transition runs once: running again at the same time does nothing
    expect((await run(60)).applied).toBe(0);
    expect((await eventNames(db, projectId)).filter((n: string) => n === 'activity_transition_scheduled')).toHaveLength(1);
  });

  it('reminders: a notification titled <type>: <display> for the subject, then remindAt moves on, then null', async () => {
    const { api, member, activity, run, t0 } = await setup();
    await run(60);
    await run(70); // first reminder by time: 10 min after activateAt
    const a1 = (await api.get(`/activity/${activity.id}`)).body;
    expect(a1).toMatchObject({ status: 'scheduled', remindAt: at(t0, 90).toISOString() });
    let list = (await api.get('/notification', { activityId: activity.id })).body;
    expect(list).toEqual([
      {
        id: expect.any(Number),
        memberId: member.id,
        activityId: activity.id,
        title: 'call: Phone check-in',
        body: null,
        topic: null,
        medium: null,
        status: 'sent',
        createdAt: at(t0, 70).toISOString(),
        readAt: null,
      },
    ]);
    await run(95);
    expect((await api.get(`/activity/${activity.id}`)).body.remindAt).toBeNull();
    list = (await api.get('/notification', { activityId: activity.id })).body;
    expect(list.map((n: any) => [n.title, n.body, n.topic])).toEqual([
      ['call: Phone check-in', null, null],
      ['call: Phone check-in', 'Please pick up', 'care'],
    ]);
  });

  it('no reminder before the activity is scheduled, and overdue reminders fire one by one', async () => {
    const { api, activity, run } = await setup({ end: { offset: 5, offsetUnit: 'h' } });
    await run(100); // activation and both reminders are due: scheduled first, then each reminder
    expect((await api.get(`/activity/${activity.id}`)).body).toMatchObject({ status: 'scheduled', remindAt: null });
    expect((await api.get('/notification', { activityId: activity.id })).body).toHaveLength(2);
  });

  it('proposed or scheduled -> expired at endAt; when both are due expiry wins and no scheduled transition runs', async () => {
    const { api, db, projectId, activity, run } = await setup();
    await run(60 * 4); // past activateAt and endAt (activateAt + 2 h)
    expect((await api.get(`/activity/${activity.id}`)).body).toMatchObject({ status: 'expired', remindAt: null });
    const names = await eventNames(db, projectId);
    expect(names).toContain('activity_transition_expired');
    expect(names).not.toContain('activity_transition_scheduled');
    expect(names).not.toContain('activity_reminder');

    const second = await setup();
    await second.run(60);
    await second.run(60 * 3);
    expect((await second.api.get(`/activity/${second.activity.id}`)).body.status).toBe('expired');
    expect((await eventNames(second.db, second.projectId)).filter((n: string) => n.startsWith('activity_transition'))).toEqual([
      'activity_transition_scheduled',
      'activity_transition_expired',
    ]);
  });

  it('stores the notification as suppressed when actorType is not subject, still for the subject', async () => {
    const { api, member, activity, run } = await setup({ actorType: 'nurse' });
    await run(60);
    await run(70);
    const [n] = (await api.get('/notification', { activityId: activity.id })).body;
    expect(n).toMatchObject({ memberId: member.id, status: 'suppressed' });
    expect((await api.patch(`/notification/${n.id}`, { status: 'sent' })).status).toBe(409);
  });

  it('a reminder with a medium waits, pending, until an integration reports it sent', async () => {
    const { api, activity, run } = await setup({ reminders: [{ offset: 0, offsetUnit: 's', medium: ['sms', 'email'] }] });
    await run(60);
    const [n] = (await api.get('/notification', { activityId: activity.id })).body;
    expect(n).toMatchObject({ status: 'pending', medium: ['sms', 'email'] });
    expect((await api.patch(`/notification/${n.id}`, { status: 'sent' })).body.status).toBe('sent');
  });

  it('reminder events carry the reminder, and transitionIds are unique per firing', async () => {
    const { api, db, projectId, run } = await setup();
    const after = await hook(api, [{ event: 'activity_transition_scheduled' }, { event: 'activity_reminder' }, { event: 'activity_transition_expired' }]);
    for (const m of [60, 70, 90, 180]) await run(m);
    await deliver(db, projectId);
    const bodies = after.calls().map((c) => verified(after.secret, c));
    expect(bodies.map((b) => b.event)).toEqual(['activity_transition_scheduled', 'activity_reminder', 'activity_reminder', 'activity_transition_expired']);
    expect(bodies[1]!.params.reminder).toEqual({ offset: 10, offsetUnit: 'min' });
    expect(bodies[2]!.params.reminder).toEqual({ offset: 30, offsetUnit: 'min', topic: 'care', body: 'Please pick up' });
    expect(bodies[1]!.params).not.toHaveProperty('status');
    expect(bodies[1]!.responseData.notification).toMatchObject({ title: 'call: Phone check-in', status: 'sent' });
    expect(bodies[3]!.params.status).toBe('expired');
    expect(new Set(bodies.map((b) => b.params.transitionId)).size).toBe(4);
  });

  for (const [event, minute] of [
    ['activity_transition_scheduled', 60],
    ['activity_reminder', 70],
    ['activity_transition_expired', 180],
  ] as const) {
    it(`a handle webhook on ${event} replaces the default; after webhooks get its answer`, async () => {
      const { api, db, projectId, activity, run } = await setup();
      if (event !== 'activity_transition_scheduled') await run(60);
      const before = (await api.get(`/activity/${activity.id}`)).body;
      const handler = await hook(api, [{ event, strategy: 'handle' }]);
      const after = await hook(api, [{ event }]);
      receiver.setReply((r) => (r.path === handler.path ? { body: JSON.stringify({ decided: 'later' }) } : {}));
      await run(minute);
      expect(handler.calls()).toHaveLength(1);
      const call = verified(handler.secret, handler.calls()[0]!);
      expect(call.params).toMatchObject({ id: activity.id, activity: before, transitionId: expect.any(String) });
      const unchanged = (await api.get(`/activity/${activity.id}`)).body;
      expect({ ...unchanged, updatedAt: before.updatedAt }).toEqual(before);
      expect((await api.get('/notification', { activityId: activity.id })).body).toHaveLength(0);
      // the transition was taken over: it is not fired again
      await run(minute);
      expect(handler.calls()).toHaveLength(1);
      await deliver(db, projectId);
      expect(verified(after.secret, after.calls()[0]!).responseData).toEqual({ decided: 'later' });
      if (event === 'activity_transition_scheduled') {
        // the integration decides, and applies the transition through the API
        const applied = await api.patch(`/activity/${activity.id}`, { status: 'scheduled' });
        expect(applied.body.status).toBe('scheduled');
      }
    });
  }

  it('a failing before webhook holds the transition back; it is retried and applied once it passes', async () => {
    const { api, activity, run } = await setup();
    const gate = await hook(api, [{ event: 'activity_transition_scheduled', strategy: 'before' }]);
    receiver.setReply((r) => (r.path === gate.path ? { status: 503 } : {}));
    expect((await run(60)).failed).toBe(1);
    expect((await api.get(`/activity/${activity.id}`)).body.status).toBe('proposed');
    expect((await run(60)).failed).toBe(0); // backing off: not called again at once
    receiver.setReply(() => ({}));
    expect((await run(61)).applied).toBe(1); // the 5 s backoff has passed
    expect(gate.calls()).toHaveLength(2);
    expect((await api.get(`/activity/${activity.id}`)).body.status).toBe('scheduled');
  });
});

describe('activities API (CONTRACT 6)', () => {
  it('lists with filters and gets one', async () => {
    const { api, careplan, member, activity } = await setup();
    expect((await api.get('/activity', { careplanId: careplan.id })).body).toEqual([activity]);
    expect((await api.get('/activity', { subjectId: member.id, status: 'proposed' })).body).toHaveLength(1);
    expect((await api.get('/activity', { status: 'expired' })).body).toEqual([]);
    expect((await api.get('/activity', { status: 'done' })).status).toBe(400);
    expect((await api.get(`/activity/${activity.id}`)).body).toEqual(activity);
    expect((await api.get('/activity/999999')).status).toBe(404);
  });

  it('creates a custom activity, which the scheduler moves like any other', async () => {
    const { api, db, projectId, careplan, member } = await setup();
    const t = Date.UTC(2030, 0, 1, 9);
    const res = await api.post('/activity', {
      careplanId: careplan.id,
      type: 'task',
      display: 'Upload photo',
      activateAt: new Date(t).toISOString(),
      endAt: new Date(t + 60 * MIN).toISOString(),
      reminders: [{ offset: 15, offsetUnit: 'min' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`/api/v1/activity/${res.body.id}$`));
    expect(res.body).toMatchObject({ careplanId: careplan.id, subjectId: member.id, actionKey: null, actorType: 'subject', status: 'proposed', remindAt: new Date(t + 15 * MIN).toISOString(), completedAt: null });
    expect(await eventNames(db, projectId)).toContain('activity_create');
    await runDueTransitions(db, { now: new Date(t + 20 * MIN), projectId });
    expect((await api.get(`/activity/${res.body.id}`)).body).toMatchObject({ status: 'scheduled', remindAt: null });

    const bad = await api.post('/activity', { careplanId: careplan.id, type: '', display: 'x', activateAt: 'tomorrow', endAt: '2020-01-01T00:00:00Z', colour: 1 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const reversed = await api.post('/activity', { careplanId: careplan.id, type: 't', display: 'x', activateAt: '2030-01-02T00:00:00Z', endAt: '2030-01-01T00:00:00Z' });
    expect(reversed.body.errors[0].path).toBe('endAt');
    expect((await api.post('/activity', { careplanId: 999999, type: 't', display: 'x', activateAt: '2030-01-02T00:00:00Z' })).body.errors[0].path).toBe('careplanId');
    await api.patch(`/careplan/${careplan.id}`, { status: 'completed' });
    expect((await api.post('/activity', { careplanId: careplan.id, type: 't', display: 'x', activateAt: '2030-01-02T00:00:00Z' })).status).toBe(409);
  });

  it('completes and cancels open activities; final ones do not change', async () => {
    const { api, activity, run, careplan } = await setup();
    const done = await api.patch(`/activity/${activity.id}`, { status: 'completed' });
    expect(done.body).toMatchObject({ status: 'completed', remindAt: null, completedAt: expect.any(String) });
    expect((await api.patch(`/activity/${activity.id}`, { status: 'cancelled' })).status).toBe(409);
    expect((await api.patch(`/activity/${activity.id}`, { activateAt: '2030-01-01T00:00:00Z' })).status).toBe(409);
    await run(60 * 5);
    expect((await api.get(`/activity/${activity.id}`)).body.status).toBe('completed');
    const custom = (await api.post('/activity', { careplanId: careplan.id, type: 't', display: 'x', activateAt: '2030-01-02T00:00:00Z' })).body;
    expect((await api.patch(`/activity/${custom.id}`, { status: 'cancelled' })).body).toMatchObject({ status: 'cancelled', completedAt: null });
    expect((await api.patch(`/activity/${custom.id}`, { status: 'proposed' })).status).toBe(400);
    expect((await api.patch(`/activity/${custom.id}`, {})).status).toBe(400);
  });

  it('changing timestamps moves the pending reminder and the next due transition', async () => {
    const { api, activity, run, t0 } = await setup();
    const moved = await api.patch(`/activity/${activity.id}`, { activateAt: at(t0, 120).toISOString() });
    expect(moved.body).toMatchObject({ activateAt: at(t0, 120).toISOString(), remindAt: at(t0, 130).toISOString(), status: 'proposed' });
    await run(90);
    expect((await api.get(`/activity/${activity.id}`)).body.status).toBe('proposed');
    await run(120);
    expect((await api.get(`/activity/${activity.id}`)).body.status).toBe('scheduled');
    const explicit = await api.patch(`/activity/${activity.id}`, { remindAt: at(t0, 125).toISOString(), endAt: null });
    expect(explicit.body).toMatchObject({ remindAt: at(t0, 125).toISOString(), endAt: null });
    await run(125);
    expect((await api.get('/notification', { activityId: activity.id })).body).toHaveLength(1);
    expect((await api.patch(`/activity/${activity.id}`, { endAt: at(t0, 100).toISOString() })).body.errors[0].path).toBe('endAt');
  });

  it('deletes an activity; its notifications stay without it; events for update and delete', async () => {
    const { api, db, projectId, activity, run } = await setup();
    await run(60);
    await run(70);
    const [n] = (await api.get('/notification', { activityId: activity.id })).body;
    expect((await api.del(`/activity/${activity.id}`)).status).toBe(204);
    expect((await api.get(`/activity/${activity.id}`)).status).toBe(404);
    expect((await api.get(`/notification/${n.id}`)).body.activityId).toBeNull();
    expect(await eventNames(db, projectId)).toContain('activity_delete');
    expect((await api.del(`/activity/${activity.id}`)).status).toBe(404);
  });

  it('a care plan leaving ongoing cancels its open activities, and nothing fires for them after', async () => {
    const { api, db, projectId, activity, careplan, run } = await setup();
    await api.patch(`/careplan/${careplan.id}`, { status: 'cancelled' });
    expect((await api.get(`/activity/${activity.id}`)).body).toMatchObject({ status: 'cancelled', remindAt: null });
    await run(60 * 5);
    expect((await eventNames(db, projectId)).filter((n: string) => n.startsWith('activity_transition') || n === 'activity_reminder')).toEqual([]);
  });
});

describe('notifications (CONTRACT 6)', () => {
  it('lists with filters, marks read, and a member token sees only its own (activities too)', async () => {
    const { api, member, activity, run, careplan } = await setup();
    const other = (await api.post('/member', { name: 'Sam' })).body;
    const otherPlan = (await api.post('/careplan', { definitionId: careplan.definitionId, subjectId: other.id })).body;
    await run(61); // the second care plan started a few ms later
    await run(71);
    const mine = (await api.get('/notification', { memberId: member.id })).body;
    const theirs = (await api.get('/notification', { memberId: other.id })).body;
    expect(mine).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(theirs[0].activityId).toBe(otherPlan.activities[0].id);
    expect(mine[0].activityId).toBe(activity.id);

    const asMember = apiClient((await api.post(`/member/${member.id}/token`)).body.token);
    expect((await asMember.get('/notification')).body.map((n: any) => n.id)).toEqual([mine[0].id]);
    expect((await asMember.get('/notification', { memberId: other.id })).body).toEqual([]);
    expect((await asMember.get(`/notification/${theirs[0].id}`)).status).toBe(404);
    expect((await asMember.patch(`/notification/${theirs[0].id}`, { read: true })).status).toBe(404);
    const read = await asMember.patch(`/notification/${mine[0].id}`, { read: true });
    expect(read.status).toBe(200);
    expect(read.body.readAt).toEqual(expect.any(String));
    expect((await asMember.patch(`/notification/${mine[0].id}`, { read: true })).body.readAt).toBe(read.body.readAt);
    expect((await asMember.patch(`/notification/${mine[0].id}`, { status: 'sent' })).status).toBe(403);
    expect((await asMember.patch(`/notification/${mine[0].id}`, { read: 'yes' })).status).toBe(400);
    // activities: a member token sees and completes only its own
    expect((await asMember.get('/activity')).body.map((a: any) => a.id)).toEqual([activity.id]);
    expect((await asMember.get(`/activity/${otherPlan.activities[0].id}`)).status).toBe(404);
    expect((await asMember.patch(`/activity/${otherPlan.activities[0].id}`, { status: 'completed' })).status).toBe(404);
    expect((await asMember.patch(`/activity/${activity.id}`, { status: 'cancelled' })).status).toBe(403);
    expect((await asMember.patch(`/activity/${activity.id}`, { status: 'completed', display: 'Done' })).status).toBe(403);
    expect((await asMember.patch(`/activity/${activity.id}`, { status: 'completed' })).body).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expect((await asMember.post('/activity', { careplanId: careplan.id, type: 't', display: 'x', activateAt: '2030-01-02T00:00:00Z' })).status).toBe(403);
    expect((await api.patch(`/notification/${mine[0].id}`, { read: false })).body.readAt).toBeNull();
  });
});

describe('member inbox (/me)', () => {
  it('shows the member their notifications (not suppressed ones) and to-dos; they mark their own read or done', async () => {
    const { api, member, run, careplan } = await setup();
    const nurse = await api.post('/activity', {
      careplanId: careplan.id,
      type: 'visit',
      display: 'Home visit',
      actorType: 'nurse',
      activateAt: (await api.get('/activity', { careplanId: careplan.id })).body[0].activateAt,
      reminders: [{ offset: 10, offsetUnit: 'min' }],
    });
    expect(nurse.status).toBe(201);
    await run(60);
    await run(70);
    const me = createCaller({ memberId: member.id });
    const home = await me.me.home();
    expect(home.notifications.map((n) => [n.title, n.status])).toEqual([['call: Phone check-in', 'sent']]);
    const other = (await api.post('/member', { name: 'Sam' })).body;
    await expect(createCaller({ memberId: other.id }).me.markNotificationRead({ id: home.notifications[0]!.id })).rejects.toThrow('Notification not found');
    expect((await me.me.home()).notifications[0]!.readAt).toBeNull();
    await me.me.markNotificationRead({ id: home.notifications[0]!.id });
    expect((await me.me.home()).notifications[0]!.readAt).toEqual(expect.any(String));
    // their to-do list: scheduled activities that are theirs to do, not the nurse's
    expect(home.activities.map((a) => a.display)).toEqual(['Phone check-in']);
    await expect(me.me.completeActivity({ id: nurse.body.id })).rejects.toThrow('only mark their own activities completed');
    await me.me.completeActivity({ id: home.activities[0]!.id });
    expect((await me.me.home()).activities).toEqual([]);
    // staff and visitors have no member page
    await expect(createCaller({}).me.home()).rejects.toThrow('Sign in first');
  });
});

