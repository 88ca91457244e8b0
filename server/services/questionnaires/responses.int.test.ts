import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events, observations } from '@/db/schema';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { apiClient, httpApiClient, newProject, type ApiClient } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';
import { startReceiver } from '@/server/testing/receiver';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(() => receiver.setReply(() => ({})));

const eventsNamed = async (db: any, projectId: number, name: string) => db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, name))).orderBy(events.id);

const items = [
  { linkId: 'intro', type: 'display', text: 'Before your surgery' },
  { linkId: 'smoker', type: 'boolean', text: 'Do you smoke?', required: true },
  { linkId: 'per-day', type: 'integer', text: 'How many a day?', required: true, min: 1, max: 100, enableWhen: { linkId: 'smoker', operator: 'equals', answer: true } },
  { linkId: 'weight', type: 'decimal', text: 'Weight (kg)', min: 20, max: 400 },
  { linkId: 'allergies', type: 'choice', repeats: true, text: 'Allergies', options: [{ value: 'latex', display: 'Latex' }, { value: 'penicillin', display: 'Penicillin' }] },
  { linkId: 'name', type: 'string', text: 'Name' },
];

async function setup() {
  const p = await newProject();
  const surgery = (await p.api.post('/observation-code', { slug: 'surgery-date', display: 'Surgery date', type: 'date' })).body;
  const member = (await p.api.post('/member', { name: 'Pat' })).body;
  const other = (await p.api.post('/member', { name: 'Sam' })).body;
  const q = await p.api.post('/questionnaire', { slug: 'pre-op', title: 'Before your surgery', items });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  const token = async (id: number) => apiClient((await p.api.post(`/member/${id}/token`)).body.token);
  return { ...p, surgery, member, other, questionnaire: q.body, token };
}

/** A template with a surgery-date input, a questionnaire asking for it, and a plan of the member waiting on it. */
async function surgeryPlan(api: ApiClient, surgeryCodeId: number, subjectId: number) {
  const form = (
    await api.post('/questionnaire', {
      slug: 'surgery',
      title: 'Your surgery',
      items: [
        { linkId: 'when', type: 'date', text: 'When is your surgery?', required: true, observationCodeId: surgeryCodeId },
        { linkId: 'note', type: 'string', text: 'Anything else?' },
      ],
    })
  ).body;
  const def = await api.post('/careplan-definition', {
    slug: 'knee',
    title: 'Knee',
    inputs: [{ key: 'surgery', observationCodeId: surgeryCodeId }],
    actions: [
      { key: 'ask', kind: 'questionnaire', questionnaireId: form.id, type: 'form', display: 'Tell us the date', start: { offset: 0, offsetUnit: 'd' } },
      { key: 'fast', type: 'task', display: 'Stop eating', inputKey: 'surgery', start: { offset: -12, offsetUnit: 'h' } },
      { key: 'check', type: 'visit', display: 'Check-up', inputKey: 'surgery', start: { offset: 14, offsetUnit: 'd' } },
    ],
  });
  expect(def.status, JSON.stringify(def.body)).toBe(201);
  const plan = (await api.post('/careplan', { definitionId: def.body.id, subjectId })).body;
  const ask = plan.activities.find((a: any) => a.actionKey === 'ask');
  return { form, definition: def.body, plan, ask };
}

const byKey = async (api: ApiClient, careplanId: number) => {
  const list = (await api.get('/activity', { careplanId })).body as any[];
  const live = list.filter((a) => a.status !== 'cancelled');
  return { all: list, live: Object.fromEntries(live.map((a) => [a.actionKey, a])) };
};

describe('questionnaire responses (CONTRACT 9)', () => {
  it('lists every failing place at once and stores nothing; a valid response is kept in item order', async () => {
    const { api, db, projectId, member, questionnaire } = await setup();
    const bad = await api.post('/questionnaire-response', {
      questionnaireId: questionnaire.id,
      subjectId: member.id,
      answers: [
        { linkId: 'weight', value: 500 },
        { linkId: 'unknown', value: 'x' },
        { linkId: 'intro', value: 'x' },
        { linkId: 'per-day', value: 3 },
        { linkId: 'allergies', value: ['latex', 'latex'] },
        { linkId: 'name', value: '  ' },
        { linkId: 'weight', value: 70 },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'answers.0.value', message: expect.any(String) },
        { path: 'answers.1.linkId', message: expect.any(String) },
        { path: 'answers.2.linkId', message: expect.any(String) },
        // smoker is unanswered, so per-day is not enabled and must not be answered
        { path: 'answers.3.linkId', message: expect.any(String) },
        { path: 'answers.4.value', message: expect.any(String) },
        { path: 'answers.5.value', message: expect.any(String) },
        { path: 'answers.6.linkId', message: expect.any(String) },
        { path: 'answers', message: expect.stringContaining('smoker') },
      ]),
    );
    expect(bad.body.errors).toHaveLength(8);
    // An enabled required item left out is named too; a disabled one never is.
    const missing = await api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, answers: [{ linkId: 'smoker', value: true }] });
    expect(missing.body.errors).toEqual([{ path: 'answers', message: expect.stringContaining('per-day') }]);
    const types = await api.post('/questionnaire-response', {
      questionnaireId: questionnaire.id,
      subjectId: member.id,
      answers: [
        { linkId: 'smoker', value: 'yes' },
        { linkId: 'weight', value: '70' },
        { linkId: 'allergies', value: 'latex' },
      ],
    });
    // A required item answered with a bad value is named once, at its value, not also as unanswered.
    expect(types.body.errors.map((e: any) => e.path)).toEqual(['answers.0.value', 'answers.1.value', 'answers.2.value']);
    expect((await api.get('/questionnaire-response')).body).toEqual([]);
    expect(await eventsNamed(db, projectId, 'questionnaire_response_create')).toEqual([]);

    const ok = await api.post('/questionnaire-response', {
      questionnaireId: questionnaire.id,
      subjectId: member.id,
      answers: [
        { linkId: 'allergies', value: ['penicillin'] },
        { linkId: 'per-day', value: 10 },
        { linkId: 'smoker', value: true },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.headers.get('location')).toMatch(new RegExp(`/api/v1/questionnaire-response/${ok.body.id}$`));
    expect(ok.body).toEqual({
      id: expect.any(Number),
      questionnaireId: questionnaire.id,
      questionnaireVersion: 1,
      subjectId: member.id,
      activityId: null,
      status: 'completed',
      answers: [
        { linkId: 'smoker', value: true },
        { linkId: 'per-day', value: 10 },
        { linkId: 'allergies', value: ['penicillin'] },
      ],
      authoredAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api.get(`/questionnaire-response/${ok.body.id}`)).body).toEqual(ok.body);
    expect((await eventsNamed(db, projectId, 'questionnaire_response_create')).map((e: any) => e.responseData)).toEqual([ok.body]);
    await api.patch(`/questionnaire/${questionnaire.id}`, { status: 'retired' });
    const retired = await api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, answers: [{ linkId: 'smoker', value: false }] });
    expect(retired.body.errors).toEqual([{ path: 'questionnaireId', message: expect.stringContaining('retired') }]);
    const both = await api.post('/questionnaire-response', { questionnaireId: 2147483647, subjectId: 2147483647, answers: [] });
    expect(both.body.errors.map((e: any) => e.path).sort()).toEqual(['questionnaireId', 'subjectId']);
  });

  it('drafts need nothing yet; completing checks everything; completed answers change to amended, never back to a draft', async () => {
    const { api, db, projectId, member, questionnaire } = await setup();
    const draft = await api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, status: 'in-progress', answers: [{ linkId: 'weight', value: 70 }] });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: 'in-progress', answers: [{ linkId: 'weight', value: 70 }] });
    // A draft still takes only valid values.
    expect((await api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, status: 'in-progress', answers: [{ linkId: 'weight', value: 1 }] })).body.errors[0].path).toBe('answers.0.value');
    const id = draft.body.id;
    expect((await api.patch(`/questionnaire-response/${id}`, { status: 'amended' })).status).toBe(409);
    const saved = await api.patch(`/questionnaire-response/${id}`, { answers: [{ linkId: 'weight', value: 71.5 }] });
    expect(saved.body).toMatchObject({ status: 'in-progress', answers: [{ linkId: 'weight', value: 71.5 }] });
    expect(new Date(saved.body.authoredAt).getTime()).toBeGreaterThanOrEqual(new Date(draft.body.authoredAt).getTime());
    const incomplete = await api.patch(`/questionnaire-response/${id}`, { status: 'completed' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors).toEqual([{ path: 'answers', message: expect.stringContaining('smoker') }]);
    const completed = await api.patch(`/questionnaire-response/${id}`, { status: 'completed', answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 71.5 }] });
    expect(completed.body).toMatchObject({ status: 'completed' });
    expect((await api.patch(`/questionnaire-response/${id}`, { status: 'in-progress' })).status).toBe(409);
    // The same answers again change nothing; different ones amend.
    expect((await api.patch(`/questionnaire-response/${id}`, { answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 71.5 }] })).body.status).toBe('completed');
    const amended = await api.patch(`/questionnaire-response/${id}`, { answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 72 }] });
    expect(amended.body).toMatchObject({ status: 'amended', answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 72 }] });
    expect((await api.patch(`/questionnaire-response/${id}`, { status: 'in-progress' })).status).toBe(409);
    expect((await api.patch(`/questionnaire-response/${id}`, { answers: [] })).body.errors).toEqual([{ path: 'answers', message: expect.stringContaining('smoker') }]);

    // Answers are checked against the response's own version, not the latest one.
    const v2 = await api.patch(`/questionnaire/${questionnaire.id}`, { items: [...items, { linkId: 'new', type: 'string', text: 'New and required', required: true }] });
    expect(v2.body.version).toBe(2);
    const again = await api.patch(`/questionnaire-response/${id}`, { answers: [{ linkId: 'smoker', value: true }, { linkId: 'per-day', value: 2 }] });
    expect(again.body).toMatchObject({ status: 'amended', questionnaireVersion: 1 });
    expect((await api.patch(`/questionnaire-response/${id}`, { answers: [{ linkId: 'smoker', value: true }, { linkId: 'per-day', value: 2 }, { linkId: 'new', value: 'x' }] })).body.errors[0].path).toBe('answers.2.linkId');
    expect((await api.get('/questionnaire-response', { status: 'amended' })).body.map((r: any) => r.id)).toEqual([id]);
    expect((await api.get('/questionnaire-response', { status: 'in-progress' })).body).toEqual([]);
    expect((await eventsNamed(db, projectId, 'questionnaire_response_update')).map((e: any) => e.params)).toEqual([
      { id, answers: [{ linkId: 'weight', value: 71.5 }] },
      { id, status: 'completed', answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 71.5 }] },
      { id, answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 71.5 }] },
      { id, answers: [{ linkId: 'smoker', value: false }, { linkId: 'weight', value: 72 }] },
      { id, answers: [{ linkId: 'smoker', value: true }, { linkId: 'per-day', value: 2 }] },
    ]);
  });

  it('member tokens answer for themselves and see only their own responses', async () => {
    const { api, member, other, questionnaire, token } = await setup();
    const asPat = await token(member.id);
    const answers = [{ linkId: 'smoker', value: false }];
    const forOther = await asPat.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: other.id, answers });
    expect(forOther.status).toBe(403);
    const own = await asPat.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, answers });
    expect(own.status).toBe(201);
    const onBehalf = (await api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: other.id, answers })).body;
    expect((await asPat.get('/questionnaire-response')).body.map((r: any) => r.id)).toEqual([own.body.id]);
    expect((await asPat.get(`/questionnaire-response/${onBehalf.id}`)).status).toBe(404);
    expect((await asPat.patch(`/questionnaire-response/${onBehalf.id}`, { answers: [{ linkId: 'smoker', value: true }] })).status).toBe(404);
    expect((await asPat.patch(`/questionnaire-response/${own.body.id}`, { answers: [{ linkId: 'smoker', value: true }, { linkId: 'per-day', value: 1 }] })).body.status).toBe('amended');
    expect((await api.get('/questionnaire-response', { subjectId: other.id })).body.map((r: any) => r.id)).toEqual([onBehalf.id]);
    expect((await api.get('/questionnaire-response')).body).toHaveLength(2);
  });

  it('a completed response completes its activity, recording activity_update after-only; the activity must fit', async () => {
    const { api, db, projectId, surgery, member, other, token } = await setup();
    const { form, plan, ask } = await surgeryPlan(api, surgery.id, member.id);
    const answers = [{ linkId: 'when', value: '2031-05-01' }];
    const base = { questionnaireId: form.id, subjectId: member.id, answers };
    // Not yet scheduled: 400 naming activityId.
    const early = await api.post('/questionnaire-response', { ...base, activityId: ask.id });
    expect(early.body.errors).toEqual([{ path: 'activityId', message: expect.stringContaining('proposed') }]);
    await runDueTransitions(db, { now: new Date(Date.now() + 1000), projectId });
    const otherPlan = (await api.post('/careplan', { definitionId: plan.definitionId, subjectId: other.id })).body;
    const fast = (await byKey(api, plan.id)).all.find((a: any) => a.actionKey === 'fast');
    expect(fast).toBeUndefined();
    expect((await api.post('/questionnaire-response', { ...base, activityId: otherPlan.activities[0].id })).body.errors[0].path).toBe('activityId');
    const intro = (await api.post('/activity', { careplanId: plan.id, type: 'x', display: 'X', activateAt: '2030-01-01T00:00:00Z' })).body;
    expect((await api.post('/questionnaire-response', { ...base, activityId: intro.id })).body.errors[0]).toMatchObject({ path: 'activityId', message: expect.stringContaining('questionnaire') });
    expect(await eventsNamed(db, projectId, 'questionnaire_response_create')).toEqual([]);

    // A draft names the activity without completing it; completing the draft completes it.
    const asPat = await token(member.id);
    const draft = (await asPat.post('/questionnaire-response', { ...base, status: 'in-progress', answers: [], activityId: ask.id })).body;
    expect((await api.get(`/activity/${ask.id}`)).body).toMatchObject({ status: 'scheduled', questionnaireResponseId: null });
    const done = await asPat.patch(`/questionnaire-response/${draft.id}`, { status: 'completed', answers });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const completed = (await api.get(`/activity/${ask.id}`)).body;
    expect(completed).toMatchObject({ status: 'completed', questionnaireResponseId: draft.id, completedAt: expect.any(String) });
    const [update] = await eventsNamed(db, projectId, 'activity_update');
    expect(update.params).toEqual({ id: ask.id, status: 'completed', completedAt: completed.completedAt, questionnaireResponseId: draft.id });
    expect(update.responseData).toMatchObject({ id: ask.id, status: 'completed' });
    // A second completed response naming it: 409.
    const twice = await api.post('/questionnaire-response', { ...base, activityId: ask.id });
    expect(twice.status).toBe(409);
    expect((await api.get('/questionnaire-response', { activityId: ask.id })).body.map((r: any) => r.id)).toEqual([draft.id]);
  });

  it('answers fill empty parameters and an amended answer moves what the earlier answer set, through the parameter rules', async () => {
    const { api, db, projectId, surgery, member } = await setup();
    const { form, plan, definition } = await surgeryPlan(api, surgery.id, member.id);
    // A second plan whose parameter a coordinator set: answers never touch it.
    const manual = (await api.post('/careplan', { definitionId: definition.id, subjectId: member.id })).body;
    const [manualParam] = (await api.get(`/careplan/${manual.id}`, { include: 'parameters.observation' })).body.parameters;
    await api.post('/careplan-parameter', { careplanId: manual.id, inputId: manualParam.inputId, observation: { value: '2032-01-10', observedAt: '2031-01-01T00:00:00Z' } });
    const manualBefore = await byKey(api, manual.id);

    expect(Object.keys((await byKey(api, plan.id)).live).sort()).toEqual(['ask']);
    const res = await api.post('/questionnaire-response', { questionnaireId: form.id, subjectId: member.id, answers: [{ linkId: 'when', value: '2031-05-01' }, { linkId: 'note', value: 'Left knee' }] });
    expect(res.status).toBe(201);
    const [param] = (await api.get(`/careplan/${plan.id}`, { include: 'parameters.observation' })).body.parameters;
    expect(param.observation).toMatchObject({ value: '2031-05-01', observationCodeId: surgery.id, subjectId: member.id, observedAt: res.body.authoredAt });
    let acts = (await byKey(api, plan.id)).live;
    expect(Object.keys(acts).sort()).toEqual(['ask', 'check', 'fast']);
    expect(acts.fast.activateAt).toBe('2031-04-30T12:00:00.000Z');
    expect(acts.check.activateAt).toBe('2031-05-15T00:00:00.000Z');
    const created = acts;
    // Only mapped answers become observations.
    expect(await db.select().from(observations).where(and(eq(observations.projectId, projectId), eq(observations.subjectId, member.id)))).toHaveLength(2);

    // The same answer again makes nothing new; a changed one moves the same activities.
    await api.patch(`/questionnaire-response/${res.body.id}`, { answers: [{ linkId: 'when', value: '2031-05-01' }, { linkId: 'note', value: 'Right knee' }] });
    expect(await db.select().from(observations).where(and(eq(observations.projectId, projectId), eq(observations.subjectId, member.id)))).toHaveLength(2);
    const amended = await api.patch(`/questionnaire-response/${res.body.id}`, { answers: [{ linkId: 'when', value: '2031-06-10' }] });
    expect(amended.body.status).toBe('amended');
    const [moved] = (await api.get(`/careplan/${plan.id}`, { include: 'parameters.observation' })).body.parameters;
    expect(moved.observation).toMatchObject({ value: '2031-06-10', observedAt: amended.body.authoredAt });
    expect(moved.observationId).not.toBe(param.observationId);
    acts = (await byKey(api, plan.id)).live;
    expect(acts.fast).toMatchObject({ id: created.fast.id, activateAt: '2031-06-09T12:00:00.000Z' });
    expect(acts.check).toMatchObject({ id: created.check.id, activateAt: '2031-06-24T00:00:00.000Z' });
    expect(await byKey(api, manual.id)).toEqual(manualBefore);
    // A parameter the coordinator re-pointed elsewhere is no longer this response's to move.
    await api.patch(`/careplan-parameter/${moved.id}`, { observation: { value: '2031-07-01', observedAt: '2031-01-02T00:00:00Z' } });
    await api.patch(`/questionnaire-response/${res.body.id}`, { answers: [{ linkId: 'when', value: '2031-08-01' }] });
    expect((await api.get(`/careplan/${plan.id}`, { include: 'parameters.observation' })).body.parameters[0].observation.value).toBe('2031-07-01');
    // Every change went through the parameter code path: the activities' events are there.
    const names = (await db.select({ name: events.name }).from(events).where(eq(events.projectId, projectId))).map((e: any) => e.name);
    expect(names.filter((n: string) => n === 'questionnaire_response_update')).toHaveLength(3);
  });

  it('a handle webhook takes over a response; a failing before webhook refuses it; nothing is stored either way', async () => {
    const { api, surgery, member } = await setup();
    const { form, plan } = await surgeryPlan(api, surgery.id, member.id);
    const handler = await api.post('/webhook', { display: 'Forms', url: `${receiver.url}/handle`, triggers: [{ event: 'questionnaire_response_create', strategy: 'handle' }] });
    expect(handler.status).toBe(201);
    receiver.setReply((r) => (r.path === '/handle' ? { body: '{"id":77,"external":true}' } : {}));
    const taken = await api.post('/questionnaire-response', { questionnaireId: form.id, subjectId: member.id, answers: [{ linkId: 'when', value: '2031-05-01' }] });
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ id: 77, external: true });
    expect(JSON.parse(receiver.received.at(-1)!.body).params).toEqual({ questionnaireId: form.id, subjectId: member.id, status: 'completed', answers: [{ linkId: 'when', value: '2031-05-01' }] });
    expect((await api.get('/questionnaire-response')).body).toEqual([]);
    expect(Object.keys((await byKey(api, plan.id)).live)).toEqual(['ask']);
    await api.del(`/webhook/${handler.body.id}`);

    await api.post('/webhook', { display: 'Gate', url: `${receiver.url}/gate`, triggers: [{ event: 'questionnaire_response_create', strategy: 'before' }] });
    receiver.setReply((r) => (r.path === '/gate' ? { status: 422, body: '{"error":"no"}' } : {}));
    const refused = await api.post('/questionnaire-response', { questionnaireId: form.id, subjectId: member.id, answers: [{ linkId: 'when', value: '2031-05-01' }] });
    expect(refused.status).toBe(502);
    expect((await api.get('/questionnaire-response')).body).toEqual([]);
    expect(Object.keys((await byKey(api, plan.id)).live)).toEqual(['ask']);
  });
});

describe('questionnaire responses over HTTP', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    server = await startHttpServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('a member answers over a real connection: 400 with places, then 201 that fills the plan', async () => {
    const { api, apiKey, surgery, member } = await setup();
    const { form, plan } = await surgeryPlan(api, surgery.id, member.id);
    const memberToken = (await httpApiClient(server.url, apiKey).post(`/member/${member.id}/token`)).body.token;
    const asPat = httpApiClient(server.url, memberToken);
    const bad = await asPat.post('/questionnaire-response', { questionnaireId: form.id, subjectId: member.id, answers: [{ linkId: 'when', value: '1 May' }] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.errors).toEqual([{ path: 'answers.0.value', message: expect.any(String) }]);
    const ok = await asPat.post('/questionnaire-response', { questionnaireId: form.id, subjectId: member.id, answers: [{ linkId: 'when', value: '2031-05-01' }] });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('location')).toBe(`${server.url}/api/v1/questionnaire-response/${ok.body.id}`);
    expect(Object.keys((await byKey(api, plan.id)).live).sort()).toEqual(['ask', 'check', 'fast']);
    expect((await asPat.get(`/questionnaire-response/${ok.body.id}`)).body.answers).toEqual([{ linkId: 'when', value: '2031-05-01' }]);
  });
});
