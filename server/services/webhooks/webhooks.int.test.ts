import { exampleBody } from '@/server/services/events/catalogue';
import { careplanSchema } from '@/server/services/careplans/schemas';
import { asc, eq, inArray } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { events, webhookAttempts, webhookDeliveries, webhooks as webhookTable } from '@/db/schema';
import { AppError } from '@/server/errors';
import { attemptDelivery } from '@/server/jobs/attempt-delivery';
import { newProject } from '@/server/testing/api';
import { runDueDeliveries } from '@/server/testing/deliveries';
import { startReceiver, type Received } from '@/server/testing/receiver';
import { createWebhook } from './webhooks';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(() => receiver.setReply(() => ({})));

const hooksFor = (path: string) => receiver.received.filter((r) => r.path === path);
const pathOf = () => `/h/${Math.random().toString(36).slice(2)}`;

async function setup(triggers: { event: string; strategy?: string }[] = [{ event: 'member_create' }]) {
  const project = await newProject();
  const path = pathOf();
  const res = await project.api.post('/webhook', { display: 'Receiver', url: `${receiver.url}${path}`, triggers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...project, webhook: res.body, path };
}

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] as string,
    'webhook-timestamp': r.headers['webhook-timestamp'] as string,
    'webhook-signature': r.headers['webhook-signature'] as string,
  });

describe('webhook registration (CONTRACT 7)', () => {
  it('creates with a whsec_ secret shown only at creation and by /secret; strategy defaults to after', async () => {
    const { api, webhook } = await setup([{ event: 'member_create' }, { event: 'member_update', strategy: 'before' }]);
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(webhook).toMatchObject({ enabled: true, disabledReason: null, configurationId: null });
    expect(webhook.triggers).toEqual([
      { event: 'member_create', strategy: 'after' },
      { event: 'member_update', strategy: 'before' },
    ]);
    const read = await api.get(`/webhook/${webhook.id}`);
    expect(read.body).not.toHaveProperty('secret');
    expect((await api.get('/webhook')).body[0]).not.toHaveProperty('secret');
    expect((await api.get(`/webhook/${webhook.id}/secret`)).body).toEqual({ secret: webhook.secret });
  });

  it('validates events, strategies, urls and duplicate triggers', async () => {
    const { api } = await newProject();
    const bad = await api.post('/webhook', {
      display: 'x',
      url: 'ftp://example.org',
      triggers: [{ event: 'member_explode' }, { event: 'member_create', strategy: 'later' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['triggers.0.event', 'triggers.1.strategy', 'url']);
    const twice = await api.post('/webhook', { display: 'x', url: `${receiver.url}/a`, triggers: [{ event: 'member_create' }, { event: 'member_create' }] });
    expect(twice.body.errors[0].path).toBe('triggers.1.event');
    expect((await api.post('/webhook', { display: 'x', url: 'http://user:pw@example.org/', triggers: [{ event: 'member_create' }] })).status).toBe(400);
    expect((await api.post('/webhook', { display: 'x', url: `${receiver.url}/a`, triggers: [] })).status).toBe(400);
    expect((await api.get('/webhook')).body).toEqual([]);
  });

  it('allows at most one handle webhook per event in a project (409)', async () => {
    const { api } = await setup([{ event: 'member_create', strategy: 'handle' }]);
    const second = await api.post('/webhook', { display: 'y', url: `${receiver.url}/b`, triggers: [{ event: 'member_create', strategy: 'handle' }] });
    expect(second.status).toBe(409);
    const asAfter = await api.post('/webhook', { display: 'z', url: `${receiver.url}/c`, triggers: [{ event: 'member_create' }] });
    expect(asAfter.status).toBe(201);
  });

  it('expands //endpoint with the integration endpointUrl, and needs one', async () => {
    const { api, db, projectId } = await newProject();
    const bare = (await api.post('/integration', { display: 'Bare', slug: 'bare' })).body;
    const withUrl = (await api.post('/integration', { display: 'CRM', slug: 'crm', endpointUrl: `${receiver.url}/base` })).body;
    const noConfig = await api.post('/webhook', { display: 'x', url: '//endpoint/hooks', triggers: [{ event: 'member_create' }] });
    expect(noConfig.status).toBe(400);
    const noEndpoint = await api.post('/webhook', { display: 'x', url: '//endpoint/hooks', configurationId: bare.id, triggers: [{ event: 'member_create' }] });
    expect(noEndpoint.body.errors[0].path).toBe('configurationId');
    const other = await newProject();
    const foreign = (await other.api.post('/integration', { display: 'F', slug: 'f', endpointUrl: receiver.url })).body;
    expect((await api.post('/webhook', { display: 'x', url: '//endpoint/x', configurationId: foreign.id, triggers: [{ event: 'member_create' }] })).status).toBe(400);
    const ok = await api.post('/webhook', { display: 'x', url: '//endpoint/hooks/x', configurationId: withUrl.id, triggers: [{ event: 'member_create' }] });
    expect(ok.status).toBe(201);
    await api.post('/member', { name: 'E' });
    await runDueDeliveries(db, projectId);
    expect(hooksFor('/base/hooks/x')).toHaveLength(1);
  });

  it('refuses targets that resolve to private, loopback-in-production, link-local or metadata addresses', async () => {
    const { api, ctx } = await newProject();
    for (const url of ['http://10.0.0.1/x', 'http://169.254.169.254/latest', 'http://192.168.1.1/', 'http://[fd00::1]/', 'http://100.64.0.1/', 'http://0.0.0.0/']) {
      const res = await api.post('/webhook', { display: 'x', url, triggers: [{ event: 'member_create' }] });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].path).toBe('url');
    }
    const resolver = async (host: string) => (host === 'intranet.example' ? ['10.1.2.3'] : ['93.184.215.14']);
    const refused = await createWebhook(ctx, { display: 'x', url: 'http://intranet.example/hook', triggers: [{ event: 'member_create' }] }, resolver).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).errors?.[0]?.message).toContain('private');
  });
});

describe('after delivery (CONTRACT 7)', () => {
  it('posts the event with Standard Webhooks headers that verify with the secret', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    const member = (await api.post('/member', { name: 'Signed', email: 'signed@example.org' })).body;
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(delivery).toMatchObject({ status: 'pending', event: 'member_create', attemptCount: 0 });
    await runDueDeliveries(db, projectId);
    const [got] = hooksFor(path);
    expect(got).toBeDefined();
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toMatch(/^Carebase\/\d+\.\d+\.\d+$/);
    expect(got!.headers['webhook-id']).toBe(String(delivery!.id));
    expect(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(verify(webhook.secret, got!)).toEqual({
      event: 'member_create',
      projectId,
      params: { name: 'Signed', email: 'signed@example.org' },
      responseData: member,
    });
    expect(() => verify('whsec_' + Buffer.from('another secret 123456').toString('base64'), got!)).toThrow();
    const log = await api.get(`/webhook/${webhook.id}/delivery/${delivery!.id}`);
    expect(log.body).toMatchObject({ status: 'delivered', attemptCount: 1, deliveredAt: expect.any(String) });
    expect(log.body.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 200, error: null, response: '{"ok":true}', durationMs: expect.any(Number) }),
    ]);
  });

  it('retries on failure with the same webhook-id, after 5 s ±20 %, and records every attempt', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    receiver.setReply((r) => (r.path === path ? { status: 500, body: 'boom' } : {}));
    await api.post('/member', { name: 'Retry' });
    const before = Date.now();
    await runDueDeliveries(db, projectId);
    const [d1] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(d1).toMatchObject({ status: 'pending', attemptCount: 1 });
    const wait = d1!.nextAttemptAt!.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(4000 - 50);
    expect(wait).toBeLessThanOrEqual(6000 + 1000);
    receiver.setReply(() => ({}));
    await runDueDeliveries(db, projectId, new Date(d1!.nextAttemptAt!.getTime() + 1));
    const calls = hooksFor(path);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers['webhook-id']).toBe(calls[1]!.headers['webhook-id']);
    expect(calls[0]!.body).toBe(calls[1]!.body);
    const log = await api.get(`/webhook/${webhook.id}/delivery/${d1!.id}`);
    expect(log.body.status).toBe('delivered');
    expect(log.body.attempts.map((a: any) => [a.attempt, a.statusCode, a.error, a.response])).toEqual([
      [1, 500, 'HTTP 500', 'boom'],
      [2, 200, null, '{"ok":true}'],
    ]);
    const webhookRow = (await db.select().from(webhookTable).where(eq(webhookTable.id, webhook.id)))[0];
    expect(webhookRow!.failingSince).toBeNull();
  });

  it('honours Retry-After, keeps only the first 4 KiB of an answer, and does not follow redirects', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    receiver.setReply((r) => (r.path === path ? { status: 503, headers: { 'retry-after': '2' }, body: 'x'.repeat(10_000) } : {}));
    await api.post('/member', { name: 'Later' });
    const t = new Date();
    await runDueDeliveries(db, projectId, t);
    const [d] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(d!.nextAttemptAt!.getTime() - t.getTime()).toBe(2000);
    const log = await api.get(`/webhook/${webhook.id}/delivery/${d!.id}`);
    expect(log.body.attempts[0].response).toHaveLength(4096);

    receiver.setReply((r) => (r.path === path ? { status: 302, headers: { location: `${receiver.url}/landed` } } : {}));
    await runDueDeliveries(db, projectId, new Date(t.getTime() + 2001));
    const after = await api.get(`/webhook/${webhook.id}/delivery/${d!.id}`);
    expect(after.body.attempts[1]).toMatchObject({ statusCode: 302, error: 'redirect (302) not followed' });
    expect(hooksFor('/landed')).toHaveLength(0);
  });

  it('counts a 2xx answer over the 1 MiB read cap as delivered, and stores answers with NUL and broken UTF-16 (defect 9)', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    receiver.setReply((r) => (r.path === path ? { body: 'y'.repeat(2 * 1024 * 1024) } : {}));
    await api.post('/member', { name: 'Big answer' });
    await runDueDeliveries(db, projectId);
    const [d] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(d).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(hooksFor(path)).toHaveLength(1);
    // A receiver answering bytes a text column cannot hold: the attempt is still recorded.
    receiver.setReply((r) => (r.path === path ? { status: 500, body: 'nul\u0000 and \ud800' } : {}));
    await api.post('/member', { name: 'Odd answer' });
    await runDueDeliveries(db, projectId);
    const log = (await api.get(`/webhook/${webhook.id}/delivery`, { status: 'pending' })).body;
    expect(log).toHaveLength(1);
    const attempt = (await api.get(`/webhook/${webhook.id}/delivery/${log[0].id}`)).body.attempts[0];
    expect(attempt).toMatchObject({ statusCode: 500, response: 'nul\uFFFD and \uFFFD' });
  });

  it('gives up after the last retry, and disables a webhook that fails for 5 days', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    receiver.setReply((r) => (r.path === path ? { status: 500 } : {}));
    await api.post('/member', { name: 'Doomed' });
    let now = new Date();
    for (let i = 0; i < 8; i++) {
      await runDueDeliveries(db, projectId, now);
      const [d] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
      if (d!.nextAttemptAt) now = new Date(d!.nextAttemptAt.getTime() + 1);
    }
    const [d] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(d).toMatchObject({ status: 'failed', attemptCount: 8, nextAttemptAt: null });
    expect(hooksFor(path)).toHaveLength(8);
    // Attempts span 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 10 h ≈ 27.6 h, so not yet disabled...
    expect((await api.get(`/webhook/${webhook.id}`)).body.enabled).toBe(true);
    // ...but a failure five days after the first one disables it.
    await api.post('/member', { name: 'Five days later' });
    const [, d2] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id)).orderBy(webhookDeliveries.id);
    await attemptDelivery(db, d2!.id, { now: new Date(Date.now() + 5 * 24 * 3_600_000 + 1000) });
    const after = (await api.get(`/webhook/${webhook.id}`)).body;
    expect(after).toMatchObject({ enabled: false, disabledReason: 'failing for 5 days' });
    expect((await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d2!.id)))[0]!.status).toBe('failed');
  });

  it('disables the webhook at once on 410 and fails its pending deliveries', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    receiver.setReply((r) => (r.path === path ? { status: 410 } : {}));
    await api.post('/member', { name: 'A' });
    await api.post('/member', { name: 'B' });
    const [first] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id)).orderBy(webhookDeliveries.id);
    await attemptDelivery(db, first!.id);
    expect((await api.get(`/webhook/${webhook.id}`)).body).toMatchObject({ enabled: false, disabledReason: 'the target answered 410 Gone' });
    const statuses = (await api.get(`/webhook/${webhook.id}/delivery`)).body.map((d: any) => d.status);
    expect(statuses).toEqual(['failed', 'failed']);
    await runDueDeliveries(db, projectId);
    expect(hooksFor(path)).toHaveLength(1);
    await api.post('/member', { name: 'C' });
    expect((await api.get(`/webhook/${webhook.id}/delivery`)).body).toHaveLength(2);
    expect((await api.post(`/webhook/${webhook.id}/delivery/${first!.id}/retry`)).status).toBe(409);
    const reenabled = await api.patch(`/webhook/${webhook.id}`, { enabled: true });
    expect(reenabled.body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('retries a delivery by hand and filters the log by status and event', async () => {
    const { api, webhook, path, projectId, db } = await setup([{ event: 'member_create' }, { event: 'member_delete' }]);
    receiver.setReply((r) => (r.path === path ? { status: 400 } : {}));
    const m = (await api.post('/member', { name: 'Log' })).body;
    await api.del(`/member/${m.id}`);
    await runDueDeliveries(db, projectId);
    receiver.setReply(() => ({}));
    const all = (await api.get(`/webhook/${webhook.id}/delivery`)).body;
    expect(all.map((d: any) => d.event)).toEqual(['member_create', 'member_delete']);
    expect((await api.get(`/webhook/${webhook.id}/delivery`, { event: 'member_delete' })).body).toHaveLength(1);
    expect((await api.get(`/webhook/${webhook.id}/delivery`, { status: 'delivered' })).body).toHaveLength(0);
    const retried = await api.post(`/webhook/${webhook.id}/delivery/${all[0].id}/retry`);
    expect(retried.body).toMatchObject({ status: 'pending', id: all[0].id });
    await runDueDeliveries(db, projectId);
    expect((await api.get(`/webhook/${webhook.id}/delivery`, { status: 'delivered' })).body.map((d: any) => d.id)).toEqual([all[0].id]);
    expect((await api.get(`/webhook/${webhook.id}/delivery`, { status: 'nope' })).status).toBe(400);
  });

  it('signs with both secrets during the 24 h after a rotation', async () => {
    const { api, webhook, path, projectId, db } = await setup();
    const rotated = await api.post(`/webhook/${webhook.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(webhook.secret);
    expect((await api.get(`/webhook/${webhook.id}/secret`)).body.secret).toBe(rotated.body.secret);
    await api.post('/member', { name: 'Rotated' });
    await runDueDeliveries(db, projectId);
    const [got] = hooksFor(path);
    expect((got!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(webhook.secret, got!)).toMatchObject({ event: 'member_create' });
    expect(verify(rotated.body.secret, got!)).toMatchObject({ event: 'member_create' });
    await api.post('/member', { name: 'A day later' });
    const [, d2] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id)).orderBy(webhookDeliveries.id);
    await attemptDelivery(db, d2!.id, { now: new Date(Date.now() + 24 * 3_600_000 + 1000) });
    const late = hooksFor(path)[1]!;
    expect((late.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(() => verify(webhook.secret, late)).toThrow();
    expect(verify(rotated.body.secret, late)).toMatchObject({ event: 'member_create' });
  });

  it("sends the catalogue's example of the event now, signed, and answers the attempt (CONTRACT 11)", async () => {
    const { api, webhook, path, projectId } = await setup();
    const res = await api.post(`/webhook/${webhook.id}/test`, { event: 'careplan_create' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ attempt: 1, statusCode: 200, error: null });
    const [got] = hooksFor(path);
    const body = verify(webhook.secret, got!) as any;
    expect(body).toEqual({ ...exampleBody('careplan_create', projectId), projectId });
    expect(careplanSchema.safeParse(body.responseData).success).toBe(true);
  });
});

describe('before and handle (CONTRACT 7)', () => {
  it('lets a before webhook veto: 502, nothing stored, no after calls', async () => {
    const { api, path, webhook, db } = await setup([{ event: 'member_create', strategy: 'before' }]);
    const afterPath = pathOf();
    await api.post('/webhook', { display: 'after', url: `${receiver.url}${afterPath}`, triggers: [{ event: 'member_create' }] });
    receiver.setReply((r) => (r.path === path ? { status: 403, body: '{"error":"no"}' } : {}));
    const res = await api.post('/member', { name: 'Vetoed' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('webhook_failed');
    expect((await api.get('/member')).body).toEqual([]);
    const [got] = hooksFor(path);
    expect(verify(webhook.secret, got!)).toEqual({ event: 'member_create', projectId: expect.any(Number), params: { name: 'Vetoed' } });
    receiver.setReply(() => ({}));
    expect((await api.post('/member', { name: 'Allowed' })).status).toBe(201);
    expect((await api.get('/member')).body.map((m: any) => m.name)).toEqual(['Allowed']);
    expect(hooksFor(afterPath)).toHaveLength(0);
    // Each call is a one-attempt delivery: the veto failed and has no event; the other is linked to the event it let through.
    const logged = await db
      .select({ status: webhookDeliveries.status, event: events.name, params: events.params })
      .from(webhookDeliveries)
      .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.webhookId, webhook.id))
      .orderBy(asc(webhookDeliveries.id));
    expect(logged).toEqual([
      { status: 'failed', event: null, params: null },
      { status: 'delivered', event: 'member_create', params: { name: 'Allowed' } },
    ]);
  });

  it('aborts when a before webhook times out', async () => {
    const { api, path } = await setup([{ event: 'member_create', strategy: 'before' }]);
    receiver.setReply((r) => (r.path === path ? { delayMs: 11_000 } : {}));
    const started = Date.now();
    const res = await api.post('/member', { name: 'Slow' });
    expect(res.status).toBe(502);
    expect(res.body.detail).toContain('timed out after 10 s');
    expect(Date.now() - started).toBeLessThan(12_000);
    expect((await api.get('/member')).body).toEqual([]);
  }, 20_000);

  it('lets a handle webhook run instead of the operation: its JSON is the answer', async () => {
    const { api, path, db, projectId, webhook } = await setup([{ event: 'member_create', strategy: 'handle' }]);
    const afterPath = pathOf();
    await api.post('/webhook', { display: 'after', url: `${receiver.url}${afterPath}`, triggers: [{ event: 'member_create' }] });
    receiver.setReply((r) => (r.path === path ? { body: '{"id":4242,"handled":true}' } : {}));
    const res = await api.post('/member', { name: 'Handled' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 4242, handled: true });
    expect((await api.get('/member')).body).toEqual([]);
    await runDueDeliveries(db, projectId);
    const [after] = hooksFor(afterPath);
    expect(JSON.parse(after!.body).responseData).toEqual({ id: 4242, handled: true });

    receiver.setReply((r) => (r.path === path ? { body: '{"handled":true}' } : {}));
    const noId = await api.post('/member', { name: 'No id' });
    expect(noId.status).toBe(201);
    expect(noId.headers.get('location')).toBeNull();
    receiver.setReply((r) => (r.path === path ? { body: 'not json' } : {}));
    const notJson = await api.post('/member', { name: 'X' });
    expect(notJson.status).toBe(502);
    receiver.setReply((r) => (r.path === path ? { status: 500 } : {}));
    expect((await api.post('/member', { name: 'Y' })).status).toBe(502);
    expect((await api.get('/member')).body).toEqual([]);

    // Each call is a one-attempt delivery: the two handled ones delivered and linked to their event; the one
    // whose answer was not JSON failed, its attempt saying why; the 500 failed.
    const logged = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id)).orderBy(asc(webhookDeliveries.id));
    expect(logged.map((d) => [d.status, d.attemptCount, d.eventId !== null, d.deliveredAt !== null])).toEqual([
      ['delivered', 1, true, true],
      ['delivered', 1, true, true],
      ['failed', 1, false, false],
      ['failed', 1, false, false],
    ]);
    const attempts = await db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, logged.map((d) => d.id)))
      .orderBy(asc(webhookAttempts.deliveryId));
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 200, null],
      [1, 200, null],
      [1, 200, 'the handle webhook did not answer JSON'],
      [1, 500, expect.stringContaining('500')],
    ]);
  });

  it('skips disabled webhooks', async () => {
    const { api, webhook, path, db, projectId } = await setup([{ event: 'member_create', strategy: 'before' }]);
    receiver.setReply((r) => (r.path === path ? { status: 500 } : {}));
    await api.patch(`/webhook/${webhook.id}`, { enabled: false });
    expect((await api.post('/member', { name: 'Free' })).status).toBe(201);
    await runDueDeliveries(db, projectId);
    expect(hooksFor(path)).toHaveLength(0);
  });
});
