import { describe, expect, it } from 'vitest';
import { afterAll, beforeAll } from 'vitest';
import { EVENT_NAMES } from '@/server/core/event-names';
import { openApiDocument } from '@/server/http/openapi';
import { newProject } from '@/server/testing/api';
import { startReceiver } from '@/server/testing/receiver';
import { EVENT_CATALOGUE } from './catalogue';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('the event log (CONTRACT 11)', () => {
  it('lists every recorded event, whether or not a webhook listened, with filters and paging', async () => {
    const { api } = await newProject();
    const before = new Date().toISOString();
    const a = (await api.post('/member', { name: 'Ada' })).body;
    await api.patch(`/member/${a.id}`, { name: 'Ada King' });
    await api.post('/article', { slug: 'a', title: 'A', body: 'x' });
    const list = await api.get('/event');
    expect(list.status).toBe(200);
    expect(list.body.map((e: any) => e.name)).toEqual(['member_create', 'member_update', 'article_create']);
    expect(list.body[1]).toEqual({ id: expect.any(Number), name: 'member_update', params: { id: a.id, name: 'Ada King' }, responseData: expect.objectContaining({ id: a.id, name: 'Ada King' }), createdAt: expect.any(String) });
    expect((await api.get('/event', { name: 'member_update' })).body.map((e: any) => e.id)).toEqual([list.body[1].id]);
    expect((await api.get('/event', { from: before })).body).toHaveLength(3);
    expect((await api.get('/event', { to: before })).body).toEqual([]);
    const first = await api.get('/event', { limit: 2 });
    expect(first.body).toHaveLength(2);
    const next = new URL(/<([^>]+)>/.exec(first.headers.get('link')!)![1]!);
    expect((await api.get('/event', Object.fromEntries(next.searchParams))).body.map((e: any) => e.name)).toEqual(['article_create']);
    expect((await api.get('/event', { name: 'not_an_event' })).status).toBe(400);
    expect((await api.get('/event', { from: 'yesterday' })).status).toBe(400);
  });

  it('shows, per event, the deliveries it caused: after ones and the synchronous before call', async () => {
    const { api } = await newProject();
    const after = (await api.post('/webhook', { display: 'After', url: `${receiver.url}/after`, triggers: [{ event: 'member_create' }] })).body;
    const before = (await api.post('/webhook', { display: 'Before', url: `${receiver.url}/before`, triggers: [{ event: 'member_create', strategy: 'before' }] })).body;
    await api.post('/member', { name: 'Grace' });
    const [event] = (await api.get('/event', { name: 'member_create' })).body;
    const detail = await api.get(`/event/${event.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.deliveries.map((d: any) => [d.webhookId, d.status])).toEqual([
      [before.id, 'delivered'],
      [after.id, 'pending'],
    ]);
    expect(detail.body.deliveries.every((d: any) => d.eventId === event.id)).toBe(true);
    expect((await api.get('/event/999999999')).status).toBe(404);
    const other = await newProject();
    expect((await other.api.get(`/event/${event.id}`)).status).toBe(404);
  });

  it('is for admins: a member token gets 403', async () => {
    const { api } = await newProject();
    const m = (await api.post('/member', { name: 'Pat' })).body;
    const token = (await api.post(`/member/${m.id}/token`)).body.token;
    const { apiClient } = await import('@/server/testing/api');
    expect((await apiClient(token).get('/event')).status).toBe(403);
  });
});

describe('the webhook payload catalogue (CONTRACT 11)', () => {
  it("describes each of the 27 events, and each example fits the event's own schemas", () => {
    expect(Object.keys(EVENT_CATALOGUE).sort()).toEqual([...EVENT_NAMES].sort());
    for (const name of EVENT_NAMES) {
      const entry = EVENT_CATALOGUE[name];
      const params = entry.params.safeParse(entry.example.params);
      expect(params.success, `${name} params: ${JSON.stringify(params.error?.issues)}`).toBe(true);
      const data = entry.responseData.safeParse(entry.example.responseData);
      expect(data.success, `${name} responseData: ${JSON.stringify(data.error?.issues)}`).toBe(true);
    }
  });

  it("is the OpenAPI 3.1 document's webhooks section, with JSON Schemas and examples", () => {
    const doc = openApiDocument('test') as { openapi: string; webhooks: Record<string, { post: any }>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    for (const name of EVENT_NAMES) {
      const content = doc.webhooks[name]!.post.requestBody.content['application/json'];
      expect(content.schema.properties.event).toEqual({ const: name });
      expect(content.schema.properties.params).toBeTruthy();
      expect(content.schema.properties.responseData).toBeTruthy();
      expect(content.example).toMatchObject({ event: name, params: EVENT_CATALOGUE[name].example.params });
      expect(doc.webhooks[name]!.post.parameters.map((p: any) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
    const refs = [...JSON.stringify(doc.webhooks).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) expect(doc.components.schemas, ref).toHaveProperty(ref);
  });
});
