import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '@/db/schema';
import { newProject } from '@/server/testing/api';
import { runDueDeliveries } from '@/server/testing/deliveries';
import { startReceiver } from '@/server/testing/receiver';

/** Issue 13: custom headers, health, bulk recovery and re-enabling (CONTRACT 11). */
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
afterEach(() => receiver.setReply(() => ({})));

const pathOf = () => `/r/${Math.random().toString(36).slice(2)}`;
const hitsOf = (path: string) => receiver.received.filter((r) => r.path === path);

describe('custom request headers', () => {
  it('sends them on every call beside the signature, and refuses the names Carebase sets itself', async () => {
    const { api, db, projectId } = await newProject();
    const path = pathOf();
    const created = await api.post('/webhook', { display: 'CRM', url: `${receiver.url}${path}`, triggers: [{ event: 'member_create' }], headers: { 'X-Api-Key': 'k-123', 'X-Tenant': 'north' } });
    expect(created.status).toBe(201);
    expect(created.body.headers).toEqual({ 'X-Api-Key': 'k-123', 'X-Tenant': 'north' });
    await api.post('/member', { name: 'Ada' });
    await runDueDeliveries(db, projectId);
    const [hit] = hitsOf(path);
    expect(hit!.headers).toMatchObject({ 'x-api-key': 'k-123', 'x-tenant': 'north', 'content-type': 'application/json' });
    expect(() => new Webhook(created.body.secret).verify(hit!.body, hit!.headers as Record<string, string>)).not.toThrow();

    for (const name of ['webhook-signature', 'Webhook-Id', 'content-type', 'Content-Length', 'host', 'User-Agent']) {
      const res = await api.patch(`/webhook/${created.body.id}`, { headers: { [name]: 'x' } });
      expect(res.status, name).toBe(400);
      expect(res.body.errors).toEqual([{ path: `headers.${name}`, message: expect.stringContaining('Carebase sets') }]);
    }
    const bad = await api.patch(`/webhook/${created.body.id}`, { headers: { 'Bad Name': 'x', 'X-Line': 'a\r\nInjected: yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['headers.Bad Name', 'headers.X-Line']);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    expect((await api.patch(`/webhook/${created.body.id}`, { headers: many })).status).toBe(400);
    expect((await api.get(`/webhook/${created.body.id}`)).body.headers).toEqual({ 'X-Api-Key': 'k-123', 'X-Tenant': 'north' });
    expect((await api.patch(`/webhook/${created.body.id}`, { headers: {} })).body.headers).toEqual({});
  });
});

describe('health', () => {
  it('shows the last delivery, the success rate over 24 hours and since when it fails', async () => {
    const { api, db, projectId } = await newProject();
    const path = pathOf();
    const { body: webhook } = await api.post('/webhook', { display: 'W', url: `${receiver.url}${path}`, triggers: [{ event: 'member_create' }] });
    expect(webhook.health).toEqual({ lastDeliveryAt: null, lastDeliveryStatus: null, deliveries24h: 0, successRate24h: null, failingSince: null });
    for (const name of ['a', 'b', 'c']) await api.post('/member', { name });
    await runDueDeliveries(db, projectId);
    receiver.setReply((r) => (r.path === path ? { status: 500 } : {}));
    await api.post('/member', { name: 'd' });
    await runDueDeliveries(db, projectId);
    const health = (await api.get(`/webhook/${webhook.id}`)).body.health;
    expect(health).toMatchObject({ lastDeliveryStatus: 'pending', deliveries24h: 4, successRate24h: 0.75, failingSince: expect.any(String) });
    const [listed] = (await api.get('/webhook')).body;
    expect(listed.health).toEqual(health);
  });
});

describe('bulk recovery', () => {
  it('resends every failed delivery since a time to a receiver that came back, keeping their ids, and enables the webhook', async () => {
    const { api, db, projectId } = await newProject();
    const path = pathOf();
    const { body: webhook } = await api.post('/webhook', { display: 'W', url: `${receiver.url}${path}`, triggers: [{ event: 'member_create' }] });
    const start = new Date(Date.now() - 1000).toISOString();
    await api.post('/member', { name: 'a' });
    await api.post('/member', { name: 'b' });
    // The receiver is gone (410): the webhook is disabled and its deliveries fail.
    receiver.setReply((r) => (r.path === path ? { status: 410 } : {}));
    await runDueDeliveries(db, projectId);
    const failed = (await api.get(`/webhook/${webhook.id}/delivery`, { status: 'failed' })).body;
    expect(failed).toHaveLength(2);
    expect((await api.get(`/webhook/${webhook.id}`)).body).toMatchObject({ enabled: false });
    const firstIds = hitsOf(path).map((h) => h.headers['webhook-id']);

    // It comes back; an admin recovers.
    receiver.setReply(() => ({}));
    expect((await api.post(`/webhook/${webhook.id}/recover`, { since: new Date(Date.now() - 15 * 86_400_000).toISOString() })).status).toBe(400);
    expect((await api.post(`/webhook/${webhook.id}/recover`, { since: 'last week' })).status).toBe(400);
    expect((await api.post(`/webhook/${webhook.id}/recover`, {})).status).toBe(400);
    const recovered = await api.post(`/webhook/${webhook.id}/recover`, { since: start });
    expect(recovered.status).toBe(200);
    expect(recovered.body).toEqual({ queued: 2 });
    expect((await api.get(`/webhook/${webhook.id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
    await runDueDeliveries(db, projectId);
    const delivered = (await api.get(`/webhook/${webhook.id}/delivery`, { status: 'delivered' })).body;
    expect(delivered.map((d: any) => d.id).sort()).toEqual(failed.map((d: any) => d.id).sort());
    // The 410 answered the first call; the second was failed with the webhook, unsent. Both go now, as themselves.
    expect(firstIds).toHaveLength(1);
    const resentIds = hitsOf(path).slice(firstIds.length).map((h) => h.headers['webhook-id']);
    expect(resentIds.sort()).toEqual(failed.map((d: any) => String(d.id)).sort());
    expect(resentIds).toContain(firstIds[0]);
    // Nothing failed remains; recovering again queues nothing. The trail has the recovery.
    expect((await api.post(`/webhook/${webhook.id}/recover`, { since: start })).body).toEqual({ queued: 0 });
    const trail = await db.select().from(auditEvents).where(and(eq(auditEvents.projectId, projectId), eq(auditEvents.resource, 'webhook'), eq(auditEvents.resourceId, webhook.id)));
    expect(trail.map((t: any) => [t.actorType, t.changes.enabled ?? null])).toEqual([
      ['integration', { before: null, after: true }],
      ['system', { before: true, after: false }],
      ['integration', { before: false, after: true }],
      ['integration', null],
    ]);
  });

  it('leaves deliveries failed before `since` alone', async () => {
    const { api, db, projectId } = await newProject();
    const path = pathOf();
    const { body: webhook } = await api.post('/webhook', { display: 'W', url: `${receiver.url}${path}`, triggers: [{ event: 'member_create' }] });
    receiver.setReply((r) => (r.path === path ? { status: 410 } : {}));
    await api.post('/member', { name: 'old' });
    await runDueDeliveries(db, projectId);
    await new Promise((r) => setTimeout(r, 20));
    const since = new Date().toISOString();
    const res = await api.post(`/webhook/${webhook.id}/recover`, { since });
    expect(res.body).toEqual({ queued: 0 });
    expect((await api.get(`/webhook/${webhook.id}/delivery`, { status: 'failed' })).body).toHaveLength(1);
  });
});
