import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '@/db/schema';
import { withTransaction } from '@/server/context';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { routes } from '@/server/http/routes';
import { createMember } from '@/server/services/members/members';
import { httpApiClient, newProject, type ApiClient } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';
import { startReceiver } from '@/server/testing/receiver';
import { createUser } from '@/server/services/users/users';

/**
 * The audit trail (issue 13, CONTRACT 11), over real HTTP: every mutating route writes exactly one audit
 * event, in the same transaction as its change, naming the key that made it and the request id the
 * client got; a refused or rolled-back change writes none; secrets never reach it; nothing changes it.
 */
let server: Awaited<ReturnType<typeof startHttpServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  [server, receiver] = await Promise.all([startHttpServer(), startReceiver()]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

type Project = Awaited<ReturnType<typeof newProject>>;

const ok = async <T = any>(res: Promise<{ status: number; body: T }>): Promise<T> => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
};

/** One of everything, made through the API, for the mutating routes to act on. */
async function fixture(p: Project) {
  const { api } = p;
  const member = await ok(api.post('/member', { name: 'Ada Lovelace', email: 'ada@example.org' }));
  const spareMember = await ok(api.post('/member', { name: 'Spare' }));
  await ok(api.post('/record-type', { type: 'profile', permissions: { user: { read: true } } }));
  await ok(api.post('/record-type', { type: 'spare', permissions: {} }));
  const record = await ok(api.post('/record/profile', { memberId: member.id, fields: { city: 'London' } }));
  const spareRecord = await ok(api.post('/record/profile', { memberId: member.id, fields: { city: 'Oslo' } }));
  const integration = await ok(api.post('/integration', { display: 'CRM', slug: 'crm' }));
  const spareIntegration = await ok(api.post('/integration', { display: 'Spare', slug: 'spare' }));
  const key = await ok(api.post(`/integration/${integration.id}/key`, { name: 'Nightly sync' }));
  const webhook = await ok(api.post('/webhook', { display: 'CRM', url: `${receiver.url}/audit`, triggers: [{ event: 'member_update' }] }));
  const spareWebhook = await ok(api.post('/webhook', { display: 'Spare', url: `${receiver.url}/spare`, triggers: [{ event: 'article_create' }] }));
  await ok(api.patch(`/member/${member.id}`, { name: 'Ada King' }));
  const [delivery] = await ok(api.get(`/webhook/${webhook.id}/delivery`));
  const provider = await ok(api.post('/identity-provider', { display: 'Login', issuer: 'https://93.184.215.14/', clientId: 'c', clientSecret: 'provider-secret-value' }));
  const spareProvider = await ok(api.post('/identity-provider', { display: 'Spare', issuer: 'https://93.184.215.14/', clientId: 'c', clientSecret: 's' }));
  const code = await ok(api.post('/observation-code', { slug: 'surgery', display: 'Surgery', type: 'date' }));
  const spareCode = await ok(api.post('/observation-code', { slug: 'spare', display: 'Spare', type: 'string' }));
  const definition = await ok(
    api.post('/careplan-definition', {
      slug: 'knee',
      title: 'Knee',
      inputs: [{ key: 'surgery', observationCodeId: code.id }],
      actions: [{ key: 'call', type: 'call', display: 'Call', inputKey: 'surgery', start: { offset: -1, offsetUnit: 'd' } }],
    }),
  );
  const spareDefinition = await ok(api.post('/careplan-definition', { slug: 'spare', title: 'Spare', actions: [] }));
  const careplan = await ok(api.post('/careplan', { definitionId: definition.id, subjectId: member.id }));
  const spareCareplan = await ok(api.post('/careplan', { definitionId: definition.id, subjectId: member.id }));
  const datedCareplan = await ok(api.post('/careplan', { definitionId: definition.id, subjectId: member.id }));
  const parameter = await ok(api.post('/careplan-parameter', { careplanId: datedCareplan.id, inputId: datedCareplan.parameters[0].inputId, observation: { value: '2031-01-10', observedAt: '2026-01-01T00:00:00Z' } }));
  const now = Date.now();
  const activity = await ok(api.post('/activity', { careplanId: careplan.id, type: 'task', display: 'Log your mood', activateAt: new Date(now - 1000).toISOString(), reminders: [{ offset: 0, offsetUnit: 's' }] }));
  const spareActivity = await ok(api.post('/activity', { careplanId: careplan.id, type: 'task', display: 'Spare', activateAt: '2031-01-01T09:00:00Z' }));
  await runDueTransitions(p.db, { now: new Date(now + 1000), projectId: p.projectId });
  await runDueTransitions(p.db, { now: new Date(now + 2000), projectId: p.projectId });
  const [notification] = await ok(api.get('/notification', { activityId: activity.id }));
  const article = await ok(api.post('/article', { slug: 'knee', title: 'Knee', body: 'Read' }));
  const spareArticle = await ok(api.post('/article', { slug: 'spare', title: 'Spare', body: 'x' }));
  const questionnaire = await ok(api.post('/questionnaire', { slug: 'q', title: 'Q', items: [{ linkId: 'pain', type: 'integer', text: 'Pain?' }] }));
  const spareQuestionnaire = await ok(api.post('/questionnaire', { slug: 'spare', title: 'Spare', items: [] }));
  const response = await ok(api.post('/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: member.id, status: 'in-progress', answers: [] }));
  const schedule = await ok(api.post('/schedule', { display: 'Clinic', availability: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, start: '09:00', end: '12:00' })) }));
  const spareSchedule = await ok(api.post('/schedule', { display: 'Spare' }));
  const day = new Date(now + 2 * 86_400_000).toISOString().slice(0, 10);
  const slots = await ok(api.get(`/schedule/${schedule.id}/slot`, { from: day, to: day }));
  const appointment = await ok(api.post('/appointment', { scheduleId: schedule.id, subjectId: member.id, start: slots[1].start }));
  const encounter = await ok(api.post('/encounter', { subjectId: member.id }));
  return {
    member, spareMember, record, spareRecord, integration, spareIntegration, key, webhook, spareWebhook, delivery, provider, spareProvider, code, spareCode,
    definition, spareDefinition, careplan, spareCareplan, parameter, activity, spareActivity, notification, article, spareArticle, questionnaire, spareQuestionnaire,
    response, schedule, spareSchedule, slots, appointment, encounter,
  };
}
type Fixture = Awaited<ReturnType<typeof fixture>>;

type Case = { resource: string; action: 'create' | 'update' | 'delete'; send: (api: ApiClient, f: Fixture) => Promise<{ status: number; headers: Headers; body: any }> };

/** A valid request for every mutating route, and what its audit event must say. */
const CASES: Record<string, Case> = {
  'POST /member': { resource: 'member', action: 'create', send: (api) => api.post('/member', { name: 'Grace Hopper' }) },
  'PATCH /member/{id}': { resource: 'member', action: 'update', send: (api, f) => api.patch(`/member/${f.member.id}`, { timeZone: 'Europe/London' }) },
  'POST /member/{id}/token': { resource: 'member-token', action: 'create', send: (api, f) => api.post(`/member/${f.member.id}/token`) },
  'DELETE /member/{id}': { resource: 'member', action: 'delete', send: (api, f) => api.del(`/member/${f.spareMember.id}`) },
  'POST /record-type': { resource: 'record-type', action: 'create', send: (api) => api.post('/record-type', { type: 'notes' }) },
  'PATCH /record-type/{type}': { resource: 'record-type', action: 'update', send: (api) => api.patch('/record-type/profile', { permissions: { user: { read: true, write: true } } }) },
  'DELETE /record-type/{type}': { resource: 'record-type', action: 'delete', send: (api) => api.del('/record-type/spare') },
  'POST /record/{type}': { resource: 'record', action: 'create', send: (api, f) => api.post('/record/profile', { memberId: f.member.id, fields: { plan: 'basic' } }) },
  'PATCH /record/{type}/{id}': { resource: 'record', action: 'update', send: (api, f) => api.patch(`/record/profile/${f.record.id}`, { fields: { city: 'Paris' } }) },
  'DELETE /record/{type}/{id}': { resource: 'record', action: 'delete', send: (api, f) => api.del(`/record/profile/${f.spareRecord.id}`) },
  'POST /integration': { resource: 'integration', action: 'create', send: (api) => api.post('/integration', { display: 'Calendar', slug: 'calendar' }) },
  'PATCH /integration/{id}': { resource: 'integration', action: 'update', send: (api, f) => api.patch(`/integration/${f.integration.id}`, { display: 'CRM (prod)' }) },
  'DELETE /integration/{id}': { resource: 'integration', action: 'delete', send: (api, f) => api.del(`/integration/${f.spareIntegration.id}`) },
  'POST /integration/{id}/key': { resource: 'api-key', action: 'create', send: (api, f) => api.post(`/integration/${f.integration.id}/key`) },
  'DELETE /integration/{id}/key/{keyId}': { resource: 'api-key', action: 'delete', send: (api, f) => api.del(`/integration/${f.integration.id}/key/${f.key.id}`) },
  'POST /webhook': { resource: 'webhook', action: 'create', send: (api) => api.post('/webhook', { display: 'New', url: `${receiver.url}/new`, triggers: [{ event: 'member_create' }] }) },
  'PATCH /webhook/{id}': { resource: 'webhook', action: 'update', send: (api, f) => api.patch(`/webhook/${f.webhook.id}`, { headers: { 'X-Api-Key': 'crm-secret-header' } }) },
  'DELETE /webhook/{id}': { resource: 'webhook', action: 'delete', send: (api, f) => api.del(`/webhook/${f.spareWebhook.id}`) },
  'POST /webhook/{id}/secret/rotate': { resource: 'webhook', action: 'update', send: (api, f) => api.post(`/webhook/${f.webhook.id}/secret/rotate`) },
  'POST /webhook/{id}/test': { resource: 'webhook-delivery', action: 'create', send: (api, f) => api.post(`/webhook/${f.webhook.id}/test`, { event: 'member_create' }) },
  'POST /webhook/{id}/delivery/{deliveryId}/retry': { resource: 'webhook-delivery', action: 'update', send: (api, f) => api.post(`/webhook/${f.webhook.id}/delivery/${f.delivery.id}/retry`) },
  'POST /webhook/{id}/recover': { resource: 'webhook', action: 'update', send: (api, f) => api.post(`/webhook/${f.webhook.id}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString() }) },
  'POST /identity-provider': { resource: 'identity-provider', action: 'create', send: (api) => api.post('/identity-provider', { display: 'Staff login', issuer: 'https://93.184.215.14/', clientId: 'x', clientSecret: 'another-provider-secret' }) },
  'PATCH /identity-provider/{id}': { resource: 'identity-provider', action: 'update', send: (api, f) => api.patch(`/identity-provider/${f.provider.id}`, { clientSecret: 'rotated-provider-secret' }) },
  'DELETE /identity-provider/{id}': { resource: 'identity-provider', action: 'delete', send: (api, f) => api.del(`/identity-provider/${f.spareProvider.id}`) },
  'POST /observation-code': { resource: 'observation-code', action: 'create', send: (api) => api.post('/observation-code', { slug: 'weight', display: 'Weight', type: 'number' }) },
  'PATCH /observation-code/{idOrSlug}': { resource: 'observation-code', action: 'update', send: (api) => api.patch('/observation-code/surgery', { display: 'Surgery date' }) },
  'DELETE /observation-code/{idOrSlug}': { resource: 'observation-code', action: 'delete', send: (api) => api.del('/observation-code/spare') },
  'POST /observation': { resource: 'observation', action: 'create', send: (api, f) => api.post('/observation', { subjectId: f.member.id, observationCodeId: f.code.id, value: '2031-02-01', observedAt: '2026-01-01T00:00:00Z' }) },
  'POST /careplan-definition': { resource: 'careplan-definition', action: 'create', send: (api) => api.post('/careplan-definition', { slug: 'hip', title: 'Hip', actions: [] }) },
  'PATCH /careplan-definition/{idOrSlug}': { resource: 'careplan-definition', action: 'update', send: (api) => api.patch('/careplan-definition/knee', { title: 'Knee replacement' }) },
  'DELETE /careplan-definition/{idOrSlug}': { resource: 'careplan-definition', action: 'delete', send: (api) => api.del('/careplan-definition/spare') },
  'POST /careplan': { resource: 'careplan', action: 'create', send: (api, f) => api.post('/careplan', { definitionSlug: 'knee', subjectId: f.member.id }) },
  'PATCH /careplan/{id}': { resource: 'careplan', action: 'update', send: (api, f) => api.patch(`/careplan/${f.careplan.id}`, { title: 'Ada’s knee' }) },
  'DELETE /careplan/{id}': { resource: 'careplan', action: 'delete', send: (api, f) => api.del(`/careplan/${f.spareCareplan.id}`) },
  'POST /careplan-parameter': {
    resource: 'careplan-parameter',
    action: 'update',
    send: (api, f) => api.post('/careplan-parameter', { careplanId: f.careplan.id, inputId: f.careplan.parameters[0].inputId, observation: { value: '2031-03-01', observedAt: '2026-01-01T00:00:00Z' } }),
  },
  'PATCH /careplan-parameter/{id}': {
    resource: 'careplan-parameter',
    action: 'update',
    send: (api, f) => api.patch(`/careplan-parameter/${f.parameter.id}`, { observation: { value: '2031-01-17', observedAt: '2026-01-02T00:00:00Z' } }),
  },
  'POST /activity': { resource: 'activity', action: 'create', send: (api, f) => api.post('/activity', { careplanId: f.careplan.id, type: 'call', display: 'Extra call', activateAt: '2031-01-01T09:00:00Z' }) },
  'PATCH /activity/{id}': { resource: 'activity', action: 'update', send: (api, f) => api.patch(`/activity/${f.activity.id}`, { status: 'completed' }) },
  'DELETE /activity/{id}': { resource: 'activity', action: 'delete', send: (api, f) => api.del(`/activity/${f.spareActivity.id}`) },
  'PATCH /notification/{id}': { resource: 'notification', action: 'update', send: (api, f) => api.patch(`/notification/${f.notification.id}`, { read: true }) },
  'POST /article': { resource: 'article', action: 'create', send: (api) => api.post('/article', { slug: 'after', title: 'After surgery', body: '# Rest' }) },
  'PATCH /article/{idOrSlug}': { resource: 'article', action: 'update', send: (api) => api.patch('/article/knee', { status: 'published' }) },
  'DELETE /article/{idOrSlug}': { resource: 'article', action: 'delete', send: (api) => api.del('/article/spare') },
  'POST /questionnaire': { resource: 'questionnaire', action: 'create', send: (api) => api.post('/questionnaire', { slug: 'mood', title: 'Mood', items: [] }) },
  'PATCH /questionnaire/{idOrSlug}': { resource: 'questionnaire', action: 'update', send: (api) => api.patch('/questionnaire/q', { title: 'Pain check' }) },
  'DELETE /questionnaire/{idOrSlug}': { resource: 'questionnaire', action: 'delete', send: (api) => api.del('/questionnaire/spare') },
  'POST /questionnaire-response': { resource: 'questionnaire-response', action: 'create', send: (api, f) => api.post('/questionnaire-response', { questionnaireId: f.questionnaire.id, subjectId: f.member.id, answers: [{ linkId: 'pain', value: 3 }] }) },
  'PATCH /questionnaire-response/{id}': { resource: 'questionnaire-response', action: 'update', send: (api, f) => api.patch(`/questionnaire-response/${f.response.id}`, { answers: [{ linkId: 'pain', value: 2 }] }) },
  'POST /schedule': { resource: 'schedule', action: 'create', send: (api) => api.post('/schedule', { display: 'Phone line' }) },
  'PATCH /schedule/{id}': { resource: 'schedule', action: 'update', send: (api, f) => api.patch(`/schedule/${f.schedule.id}`, { bufferMinutes: 5 }) },
  'DELETE /schedule/{id}': { resource: 'schedule', action: 'delete', send: (api, f) => api.del(`/schedule/${f.spareSchedule.id}`) },
  'POST /appointment': { resource: 'appointment', action: 'create', send: (api, f) => api.post('/appointment', { scheduleId: f.schedule.id, subjectId: f.member.id, start: f.slots[3].start }) },
  'PATCH /appointment/{id}': { resource: 'appointment', action: 'update', send: (api, f) => api.patch(`/appointment/${f.appointment.id}`, { note: 'By phone' }) },
  'POST /encounter': { resource: 'encounter', action: 'create', send: (api, f) => api.post('/encounter', { subjectId: f.member.id }) },
  'PATCH /encounter/{id}': { resource: 'encounter', action: 'update', send: (api, f) => api.patch(`/encounter/${f.encounter.id}`, { status: 'finished' }) },
};

const mutating = routes.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

async function auditOf(p: Project, requestId: string | null) {
  return p.db.select().from(auditEvents).where(and(eq(auditEvents.projectId, p.projectId), eq(auditEvents.requestId, requestId ?? '')));
}

describe('the audit trail (CONTRACT 11)', () => {
  it('has a case for every mutating route', () => {
    expect(mutating.filter((r) => !CASES[r])).toEqual([]);
    expect(Object.keys(CASES).filter((c) => !mutating.includes(c))).toEqual([]);
  });

  it('records exactly one audit event for each mutating route, with who, what, the changed fields and the request id', async () => {
    const p = await newProject();
    const http = httpApiClient(server.url, p.apiKey);
    const f = await fixture(p);
    const [defaultKey] = (await p.api.get(`/integration/${(await p.api.get('/integration')).body[0].id}/key`)).body;
    for (const [route, c] of Object.entries(CASES)) {
      const res = await c.send(http, f);
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      const requestId = res.headers.get('x-request-id');
      const written = await auditOf(p, requestId);
      expect(written.map((w) => `${w.action} ${w.resource}`), route).toEqual([`${c.action} ${c.resource}`]);
      expect(written[0], route).toMatchObject({ actorType: 'integration', actorKeyId: defaultKey.id });
      if (c.action !== 'delete' && route !== 'POST /webhook/{id}/secret/rotate') expect(Object.keys(written[0]!.changes).length, route).toBeGreaterThan(0);
    }
    // The trail says what changed, before and after.
    const [rename] = await p.db.select().from(auditEvents).where(and(eq(auditEvents.projectId, p.projectId), eq(auditEvents.resource, 'member'), eq(auditEvents.resourceId, f.member.id), eq(auditEvents.action, 'update')));
    expect(rename!.changes).toEqual({ name: { before: 'Ada Lovelace', after: 'Ada King' } });
    const moved = (await http.get('/audit-event', { resource: 'careplan-parameter', resourceId: f.parameter.id })).body;
    expect(moved.at(-1).changes.observationId.before).toBe(f.parameter.observationId);
    expect(moved.at(-1).changes.observation.after.value).toBe('2031-01-17');
  }, 120_000);

  it('never stores secrets, key or token values', async () => {
    const p = await newProject();
    const http = httpApiClient(server.url, p.apiKey);
    const f = await fixture(p);
    const secrets = [f.key.key, f.webhook.secret, 'provider-secret-value'];
    secrets.push((await http.post(`/member/${f.member.id}/token`)).body.token);
    secrets.push((await http.post(`/webhook/${f.webhook.id}/secret/rotate`)).body.secret);
    secrets.push((await http.post(`/integration/${f.integration.id}/key`)).body.key);
    await http.patch(`/identity-provider/${f.provider.id}`, { clientSecret: 'rotated-provider-secret' });
    await http.patch(`/webhook/${f.webhook.id}`, { headers: { Authorization: 'Bearer crm-header-secret' } });
    secrets.push('rotated-provider-secret', 'crm-header-secret', p.apiKey);
    const trail = JSON.stringify(await p.db.select().from(auditEvents).where(eq(auditEvents.projectId, p.projectId)));
    for (const secret of secrets) expect(trail).not.toContain(secret);
    // ... but says that they changed.
    const rotation = (await http.get('/audit-event', { resource: 'webhook', resourceId: f.webhook.id })).body.find((e: any) => e.action === 'update' && e.changes.secret);
    expect(rotation.changes.secret).toEqual({ before: '[redacted]', after: '[redacted]' });
    const headers = (await http.get('/audit-event', { resource: 'webhook', resourceId: f.webhook.id })).body.find((e: any) => e.action === 'update' && e.changes.headers);
    expect(headers.changes.headers.after).toEqual({ Authorization: '[redacted]' });
  }, 120_000);

  it('writes none for a refused change, and none when the transaction rolls back', async () => {
    const p = await newProject();
    const http = httpApiClient(server.url, p.apiKey);
    const count = async () => (await p.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents).where(eq(auditEvents.projectId, p.projectId)))[0]!.n;
    const before = await count();
    expect((await http.post('/member', { email: 'not an email' })).status).toBe(400);
    expect((await http.patch('/member/999999', { name: 'x' })).status).toBe(404);
    // A before webhook vetoes: 502, nothing stored, nothing audited but the webhook's own creation.
    await http.post('/webhook', { display: 'Veto', url: `${receiver.url}/veto`, triggers: [{ event: 'member_create', strategy: 'before' }] });
    receiver.setReply((r) => (r.path === '/veto' ? { status: 403 } : {}));
    expect((await http.post('/member', { name: 'Vetoed' })).status).toBe(502);
    receiver.setReply(() => ({}));
    expect(await count()).toBe(before + 1);
    // A change whose transaction fails after the audit row was written leaves neither behind.
    await expect(
      withTransaction(p.ctx, async (tx) => {
        await createMember({ ...tx, actor: { kind: 'system', role: 'admin' } }, { name: 'Rolled back' });
        throw new Error('the surrounding work failed');
      }),
    ).rejects.toThrow('the surrounding work failed');
    expect(await count()).toBe(before + 1);
    expect((await http.get('/member')).body.map((m: any) => m.name)).not.toContain('Rolled back');
  });

  it('cannot be changed or deleted, not even in SQL', async () => {
    const p = await newProject();
    await p.api.post('/member', { name: 'Kept' });
    const [row] = await p.db.select().from(auditEvents).where(eq(auditEvents.projectId, p.projectId)).limit(1);
    await expect(p.db.update(auditEvents).set({ resource: 'x' }).where(eq(auditEvents.id, row!.id))).rejects.toThrow();
    await expect(p.db.delete(auditEvents).where(eq(auditEvents.id, row!.id))).rejects.toThrow();
    expect(routes.filter((r) => r.path.startsWith('/audit-event') && r.method !== 'GET')).toEqual([]);
  });

  it('answers GET /audit-event with filters to admins, and 403 to members', async () => {
    const p = await newProject();
    const http = httpApiClient(server.url, p.apiKey);
    const member = (await http.post('/member', { name: 'Filter me' })).body;
    await http.patch(`/member/${member.id}`, { name: 'Filtered' });
    const list = await http.get('/audit-event', { resource: 'member', resourceId: member.id });
    expect(list.status).toBe(200);
    expect(list.body.map((e: any) => e.action)).toEqual(['create', 'update']);
    expect(list.body[1]).toMatchObject({ actor: { type: 'integration', id: expect.any(Number), keyId: expect.any(Number), name: 'Default integration' }, resource: 'member', resourceId: member.id });
    const one = await http.get(`/audit-event/${list.body[1].id}`);
    expect(one.body).toEqual(list.body[1]);
    expect((await http.get('/audit-event', { from: new Date(Date.now() + 60_000).toISOString() })).body).toEqual([]);
    expect((await http.get('/audit-event', { actorType: 'member' })).body).toEqual([]);
    expect((await http.get('/audit-event/999999999')).status).toBe(404);
    const other = await newProject();
    expect((await httpApiClient(server.url, other.apiKey).get(`/audit-event/${list.body[0].id}`)).status).toBe(404);
    const token = (await http.post(`/member/${member.id}/token`)).body.token;
    expect((await httpApiClient(server.url, token).get('/audit-event')).status).toBe(403);
  });

  it('names staff, members and the system as actors, for changes through the console, member tokens and background work', async () => {
    const p = await newProject();
    const { userId } = await createUser(p.db, { email: `audit-${p.projectId}@example.org`, password: 'password-123', role: 'coordinator', projectId: p.projectId });
    // Loaded after the server: next-auth needs the AsyncLocalStorage that Next's server sets up.
    const { createCaller } = await import('@/server/trpc/root');
    const caller = createCaller({ userId, requestedProjectId: p.projectId, requestId: 'console-request-1' });
    const member = (await p.api.post('/member', { name: 'Pat' })).body;
    const definition = (await p.api.post('/careplan-definition', { slug: 'd', title: 'D', actions: [{ key: 'a', type: 'task', display: 'Walk', start: { offset: 0, offsetUnit: 's' } }] })).body;
    const plan = await caller.careplans.create({ definitionId: definition.id, subjectId: member.id });
    const [byStaff] = await auditOf(p, 'console-request-1');
    expect(byStaff).toMatchObject({ actorType: 'user', actorId: userId, action: 'create', resource: 'careplan', resourceId: plan.id });

    await runDueTransitions(p.db, { now: new Date(Date.now() + 5_000), projectId: p.projectId });
    const [transition] = await p.db.select().from(auditEvents).where(and(eq(auditEvents.projectId, p.projectId), eq(auditEvents.actorType, 'system'), eq(auditEvents.resource, 'activity')));
    expect(transition).toMatchObject({ action: 'update', requestId: null, changes: { status: { before: 'proposed', after: 'scheduled' } } });

    const token = (await p.api.post(`/member/${member.id}/token`)).body.token;
    const done = await httpApiClient(server.url, token).patch(`/activity/${transition!.resourceId}`, { status: 'completed' });
    expect(done.status).toBe(200);
    const [byMember] = await auditOf(p, done.headers.get('x-request-id'));
    expect(byMember).toMatchObject({ actorType: 'member', actorId: member.id, actorKeyId: null, changes: { status: { before: 'scheduled', after: 'completed' } } });
  });
});
