import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, projects } from '@/db/schema';
import { newProject, type ApiClient } from '@/server/testing/api';

async function setup(timeZone = 'UTC') {
  const p = await newProject();
  await p.db.update(projects).set({ timeZone }).where(eq(projects.id, p.projectId));
  const birth = (await p.api.post('/observation-code', { slug: 'birth-date', display: 'Birth date', type: 'date' })).body;
  const surgery = (await p.api.post('/observation-code', { slug: 'surgery-date', display: 'Surgery date', type: 'date' })).body;
  const member = (await p.api.post('/member', { name: 'Pat' })).body;
  return { ...p, birth, surgery, member };
}

const template = (surgeryCodeId: number) => ({
  slug: 'knee-surgery',
  title: 'Knee surgery',
  inputs: [{ key: 'surgery', observationCodeId: surgeryCodeId }],
  actions: [
    { key: 'intake', type: 'call', display: 'Intake call', start: { offset: 1, offsetUnit: 'd' } },
    { key: 'prep', type: 'task', display: 'Stop eating', inputKey: 'surgery', start: { offset: -12, offsetUnit: 'h' }, end: { offset: 12, offsetUnit: 'h' } },
    {
      key: 'checkup',
      type: 'visit',
      display: 'Check-up',
      actorType: 'nurse',
      inputKey: 'surgery',
      start: { offset: 1, offsetUnit: 'mo' },
      end: { offset: 2, offsetUnit: 'wk' },
      reminders: [{ offset: 2, offsetUnit: 'd', title: 'Plan it' }, { offset: 0, offsetUnit: 's' }],
    },
  ],
});

async function enrol(api: ApiClient, definitionId: number, subjectId: number) {
  const res = await api.post('/careplan', { definitionId, subjectId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('observation codes and observations (CONTRACT 5)', () => {
  it('manages codes by id or slug and validates values by type', async () => {
    const { api, member, birth } = await setup();
    expect((await api.post('/observation-code', { slug: 'birth-date', display: 'x', type: 'date' })).status).toBe(409);
    expect((await api.post('/observation-code', { slug: 'Bad Slug', display: 'x', type: 'colour' })).body.errors.map((e: any) => e.path).sort()).toEqual(['slug', 'type']);
    expect((await api.get('/observation-code/birth-date')).body).toEqual(birth);
    expect((await api.get(`/observation-code/${birth.id}`)).body).toEqual(birth);
    expect((await api.patch('/observation-code/birth-date', { display: 'Date of birth' })).body.display).toBe('Date of birth');
    const weight = (await api.post('/observation-code', { slug: 'weight', display: 'Weight', type: 'number' })).body;
    const ok = await api.post('/observation', { subjectId: member.id, observationCodeId: birth.id, value: '1990-02-28', observedAt: '2026-01-01T10:00:00Z' });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ id: expect.any(Number), subjectId: member.id, observationCodeId: birth.id, value: '1990-02-28', observedAt: '2026-01-01T10:00:00.000Z' });
    for (const [code, value] of [[birth.id, '1990-02-30'], [birth.id, '28-02-1990'], [weight.id, 'heavy']] as const) {
      const bad = await api.post('/observation', { subjectId: member.id, observationCodeId: code, value, observedAt: '2026-01-01T10:00:00Z' });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe('value');
    }
    expect((await api.post('/observation', { subjectId: 999999, observationCodeId: birth.id, value: '2000-01-01', observedAt: '2026-01-01T10:00:00Z' })).body.errors[0].path).toBe('subjectId');
    expect((await api.get('/observation', { subjectId: member.id })).body).toHaveLength(1);
    expect((await api.get('/observation', { observationCodeId: weight.id })).body).toEqual([]);
    expect((await api.del('/observation-code/birth-date')).status).toBe(409);
  });
});

describe('care plan definitions (CONTRACT 5)', () => {
  it('creates version 1 and serves the include variants', async () => {
    const { api, surgery, db, projectId } = await setup();
    const created = await api.post('/careplan-definition', template(surgery.id));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const d = created.body;
    expect(d).toMatchObject({ slug: 'knee-surgery', title: 'Knee surgery', version: 1 });
    expect(d.actions[0]).toEqual({ key: 'intake', kind: 'task', type: 'call', display: 'Intake call', actorType: 'subject', start: { offset: 1, offsetUnit: 'd' }, reminders: [] });
    const plain = (await api.get(`/careplan-definition/${d.id}`)).body;
    expect(plain).not.toHaveProperty('inputs');
    expect(plain.actions).toHaveLength(3);
    const bySlug = (await api.get('/careplan-definition/knee-surgery', { include: 'inputs' })).body;
    expect(bySlug.inputs).toEqual([{ id: expect.any(Number), key: 'surgery', observationCodeId: surgery.id }]);
    const withCode = (await api.get(`/careplan-definition/${d.id}`, { include: 'inputs.observationCode' })).body;
    expect(withCode.inputs[0].observationCode).toEqual(surgery);
    const list = (await api.get('/careplan-definition', { id: d.id, include: 'inputs.observationCode' })).body;
    expect(list).toHaveLength(1);
    expect(list[0].inputs[0].observationCode.slug).toBe('surgery-date');
    expect((await api.get('/careplan-definition', { include: 'everything' })).status).toBe(400);
    const [event] = await db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, 'careplan_definition_create')));
    expect(event!.params).toMatchObject({ slug: 'knee-surgery' });
  });

  it('validates keys, anchors and codes', async () => {
    const { api, surgery } = await setup();
    const weight = (await api.post('/observation-code', { slug: 'weight', display: 'Weight', type: 'number' })).body;
    const bad = await api.post('/careplan-definition', {
      slug: 'bad',
      title: 'Bad',
      inputs: [{ key: 'w', observationCodeId: weight.id }],
      actions: [
        { key: 'a', type: 't', display: 'A', inputKey: 'nope', start: { offset: 1, offsetUnit: 'fortnight' } },
        { key: 'a', type: 't', display: 'B', start: { offset: 1, offsetUnit: 'd' }, end: { offset: 0, offsetUnit: 'd' }, reminders: [{ offset: -1, offsetUnit: 'd' }] },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['actions.0.start.offsetUnit', 'actions.1.end.offset', 'actions.1.reminders.0.offset']);
    const keys = await api.post('/careplan-definition', { slug: 'bad', title: 'Bad', inputs: [], actions: [{ key: 'a', type: 't', display: 'A', inputKey: 'nope', start: { offset: 1, offsetUnit: 'd' } }, { key: 'a', type: 't', display: 'B', start: { offset: 1, offsetUnit: 'd' } }] });
    expect(keys.body.errors.map((e: any) => e.path).sort()).toEqual(['actions.0.inputKey', 'actions.1.key']);
    const notDate = await api.post('/careplan-definition', { slug: 'bad', title: 'Bad', inputs: [{ key: 'w', observationCodeId: weight.id }], actions: [] });
    expect(notDate.body.errors[0]).toMatchObject({ path: 'inputs.0.observationCodeId' });
    expect((await api.post('/careplan-definition', template(surgery.id))).status).toBe(201);
    expect((await api.post('/careplan-definition', template(surgery.id))).status).toBe(409);
  });

  it('edits in place while unused, and saves a new version once a care plan uses it', async () => {
    const { api, surgery, member } = await setup();
    const d = (await api.post('/careplan-definition', template(surgery.id))).body;
    const inPlace = await api.patch(`/careplan-definition/${d.id}`, { title: 'Knee surgery (v1 edited)' });
    expect(inPlace.body).toMatchObject({ version: 1, title: 'Knee surgery (v1 edited)' });
    const forced = await api.patch(`/careplan-definition/${d.id}`, { title: 'Forced v2', newVersion: true });
    expect(forced.body.version).toBe(2);
    const plan = await enrol(api, d.id, member.id);
    expect(plan).toMatchObject({ version: 2, title: 'Forced v2', slug: 'knee-surgery', status: 'ongoing' });
    const v3 = await api.patch('/careplan-definition/knee-surgery', { actions: template(surgery.id).actions.slice(0, 1) });
    expect(v3.body.version).toBe(3);
    expect((await api.get(`/careplan-definition/${d.id}`, { version: 2 })).body.actions).toHaveLength(3);
    expect((await api.get(`/careplan-definition/${d.id}`)).body).toMatchObject({ version: 3 });
    expect((await api.get(`/careplan/${plan.id}`)).body.version).toBe(2);
    expect((await api.get(`/careplan-definition/${d.id}`, { version: 9 })).status).toBe(404);
    expect((await api.del(`/careplan-definition/${d.id}`)).status).toBe(409);
    await api.patch(`/careplan/${plan.id}`, { status: 'completed' });
    expect((await api.del(`/careplan-definition/${d.id}`)).status).toBe(204);
    expect((await api.get(`/careplan/${plan.id}`)).status).toBe(404);
  });
});

describe('care plans and parameters (CONTRACT 5)', () => {
  it('enrols: pins the version, one empty parameter per input, the unanchored activities', async () => {
    const { api, surgery, member, db, projectId } = await setup();
    const d = (await api.post('/careplan-definition', template(surgery.id))).body;
    const plan = await enrol(api, d.id, member.id);
    const full = (await api.get(`/careplan/${plan.id}`, { include: 'parameters.observation,activities' })).body;
    expect(full.parameters).toEqual([{ id: expect.any(Number), careplanId: plan.id, inputId: expect.any(Number), observationId: null, observation: null }]);
    expect(full.activities.map((a: any) => [a.actionKey, a.status])).toEqual([['intake', 'proposed']]);
    const created = new Date(plan.createdAt).getTime();
    expect(new Date(full.activities[0].activateAt).getTime() - created).toBe(24 * 3_600_000);
    const [ev] = await db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, 'careplan_create')));
    expect(ev!.params).toEqual({ definitionId: d.id, subjectId: member.id });
    expect(ev!.responseData).toMatchObject({ id: plan.id, definitionId: d.id });
    expect((await api.post('/careplan', { definitionSlug: 'knee-surgery', subjectId: member.id, title: 'Left knee' })).body.title).toBe('Left knee');
    expect((await api.post('/careplan', { definitionId: 999999, subjectId: member.id })).body.errors[0].path).toBe('definitionId');
    expect((await api.post('/careplan', { definitionId: d.id, subjectId: 999999 })).body.errors[0].path).toBe('subjectId');
    expect((await api.get('/careplan', { subjectId: member.id })).body).toHaveLength(2);
    expect((await api.get('/careplan', { status: 'completed' })).body).toEqual([]);
  });

  it('creates, moves and cancels the activities of an input as its date is set, changed and emptied', async () => {
    const { api, surgery, member } = await setup('Europe/Amsterdam');
    const d = (await api.post('/careplan-definition', template(surgery.id))).body;
    const plan = await enrol(api, d.id, member.id);
    const [param] = (await api.get(`/careplan/${plan.id}`, { include: 'parameters' })).body.parameters;

    const set = await api.post('/careplan-parameter', { careplanId: plan.id, inputId: param.inputId, observation: { value: '2026-03-29', observedAt: '2026-03-01T09:00:00Z' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: param.id, observation: { value: '2026-03-29', subjectId: member.id, observationCodeId: surgery.id } });
    const acts = () => api.get('/activity', { careplanId: plan.id }).then((r) => Object.fromEntries(r.body.map((a: any) => [a.actionKey, a])));
    let a = await acts();
    // Midnight of 29 March in Amsterdam is 23:00 UTC on the 28th (before the clocks go forward).
    expect(a.prep).toMatchObject({ status: 'proposed', activateAt: '2026-03-28T11:00:00.000Z', endAt: '2026-03-28T23:00:00.000Z' });
    expect(a.checkup).toMatchObject({ activateAt: '2026-04-28T22:00:00.000Z', endAt: '2026-05-12T22:00:00.000Z', remindAt: '2026-04-28T22:00:00.000Z', actorType: 'nurse' });

    const before = a;
    const moved = await api.patch(`/careplan-parameter/${param.id}`, { observation: { value: '2026-01-31', observedAt: '2026-03-02T09:00:00Z' } });
    expect(moved.status).toBe(200);
    a = await acts();
    // The same activities moved (not new ones): midnight of 31 January in Amsterdam is 23:00 UTC on the 30th.
    expect(a.prep).toMatchObject({ id: before.prep.id, status: 'proposed', activateAt: '2026-01-30T11:00:00.000Z', endAt: '2026-01-30T23:00:00.000Z' });
    // 31 Jan + 1 mo = 28 Feb (calendar arithmetic), + 2 wk; the pending reminder moves with activateAt.
    expect(a.checkup).toMatchObject({
      id: before.checkup.id,
      status: 'proposed',
      activateAt: '2026-02-27T23:00:00.000Z',
      endAt: '2026-03-13T23:00:00.000Z',
      remindAt: '2026-02-27T23:00:00.000Z',
    });
    // The activity anchored on the care plan's start does not move with the input.
    expect(a.intake).toEqual(before.intake);
    expect(Object.keys(a).sort()).toEqual(['checkup', 'intake', 'prep']);

    const emptied = await api.patch(`/careplan-parameter/${param.id}`, { observationId: null });
    expect(emptied.body).toMatchObject({ observationId: null, observation: null });
    a = await acts();
    expect([a.prep.status, a.checkup.status, a.intake.status]).toEqual(['cancelled', 'cancelled', 'proposed']);
    const refill = await api.patch(`/careplan-parameter/${param.id}`, { observation: { value: '2026-06-01', observedAt: '2026-03-03T09:00:00Z' } });
    expect(refill.status).toBe(200);
    const all = (await api.get('/activity', { careplanId: plan.id })).body;
    expect(all.filter((x: any) => x.status === 'proposed').map((x: any) => x.actionKey).sort()).toEqual(['checkup', 'intake', 'prep']);
    expect(all.filter((x: any) => x.status === 'cancelled')).toHaveLength(2);
  });

  it('links existing observations only when they are the subject\u2019s and of the input\u2019s code', async () => {
    const { api, surgery, birth, member } = await setup();
    const d = (await api.post('/careplan-definition', template(surgery.id))).body;
    const plan = await enrol(api, d.id, member.id);
    const [param] = (await api.get(`/careplan/${plan.id}`, { include: 'parameters' })).body.parameters;
    const other = (await api.post('/member', { name: 'Other' })).body;
    const obs = (s: number, c: number) => api.post('/observation', { subjectId: s, observationCodeId: c, value: '2026-05-05', observedAt: '2026-01-01T00:00:00Z' }).then((r) => r.body);
    const wrongSubject = await obs(other.id, surgery.id);
    const wrongCode = await obs(member.id, birth.id);
    const right = await obs(member.id, surgery.id);
    for (const o of [wrongSubject, wrongCode]) {
      const res = await api.post('/careplan-parameter', { careplanId: plan.id, inputId: param.inputId, observationId: o.id });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('observationId');
    }
    expect((await api.post('/careplan-parameter', { careplanId: plan.id, inputId: param.inputId, observationId: right.id })).body.observationId).toBe(right.id);
    expect((await api.post('/careplan-parameter', { careplanId: 999999, inputId: param.inputId, observationId: right.id })).body.errors[0].path).toBe('careplanId');
    expect((await api.post('/careplan-parameter', { careplanId: plan.id, inputId: 999999, observationId: right.id })).body.errors[0].path).toBe('inputId');
    const bad = await api.post('/careplan-parameter', { careplanId: plan.id, inputId: param.inputId, observation: { value: 'soon', observedAt: '2026-01-01T00:00:00Z' } });
    expect(bad.body.errors[0].path).toBe('observation.value');
    expect((await api.post('/careplan-parameter', { careplanId: plan.id, inputId: param.inputId })).status).toBe(400);
    expect((await api.patch('/careplan-parameter/999999', { observationId: null })).status).toBe(404);
  });

  it('finishing a care plan cancels its open activities, and its status is then final', async () => {
    const { api, surgery, member } = await setup();
    const d = (await api.post('/careplan-definition', template(surgery.id))).body;
    const plan = await enrol(api, d.id, member.id);
    const res = await api.patch(`/careplan/${plan.id}`, { status: 'cancelled', title: 'Stopped' });
    expect(res.body).toMatchObject({ status: 'cancelled', title: 'Stopped' });
    expect((await api.get('/activity', { careplanId: plan.id })).body.map((a: any) => a.status)).toEqual(['cancelled']);
    expect((await api.patch(`/careplan/${plan.id}`, { status: 'ongoing' })).status).toBe(409);
    expect((await api.patch(`/careplan/${plan.id}`, { title: 'Renamed' })).status).toBe(200);
    expect((await api.del(`/careplan/${plan.id}`)).status).toBe(204);
    expect((await api.get('/activity', { careplanId: plan.id })).body).toEqual([]);
  });
});
