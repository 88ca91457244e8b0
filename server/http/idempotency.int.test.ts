import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '@/db/schema';
import { runHousekeeping } from '@/server/jobs/housekeeping';
import { apiClient, newProject } from '@/server/testing/api';
import { startReceiver } from '@/server/testing/receiver';

/** CONTRACT 1: `Idempotency-Key` on any POST, stored in the database, per token, for 24 hours. */
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('Idempotency-Key (CONTRACT 1)', () => {
  it('replays the first answer (status, body, Location) for a repeat with the same body, and does nothing else', async () => {
    const { api } = await newProject();
    const first = await api.call('POST', '/member', { body: { name: 'Once' }, ...withKey('create-once-1') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await api.call('POST', '/member', { body: { name: 'Once' }, ...withKey('create-once-1') });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get('/member')).body).toHaveLength(1);
    // Another key is another request.
    expect((await api.call('POST', '/member', { body: { name: 'Once' }, ...withKey('create-once-2') })).status).toBe(201);
    expect((await api.get('/member')).body).toHaveLength(2);
  });

  it('answers 409 for the same key with another body or path, and stores nothing', async () => {
    const { api } = await newProject();
    await api.call('POST', '/member', { body: { name: 'A' }, ...withKey('k') });
    const otherBody = await api.call('POST', '/member', { body: { name: 'B' }, ...withKey('k') });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.errors[0].path).toBe('Idempotency-Key');
    const otherPath = await api.call('POST', '/observation-code', { body: { slug: 'd', display: 'D', type: 'date' }, ...withKey('k') });
    expect(otherPath.status).toBe(409);
    expect((await api.get('/member')).body.map((m: { name: string }) => m.name)).toEqual(['A']);
    expect((await api.get('/observation-code')).body).toEqual([]);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const { api } = await newProject();
    // A slow before webhook holds the first request open.
    await api.post('/webhook', { display: 'Slow', url: `${receiver.url}/slow`, triggers: [{ event: 'member_create', strategy: 'before' }] });
    receiver.setReply((r) => (r.path === '/slow' ? { delayMs: 1_500 } : {}));
    const first = api.call('POST', '/member', { body: { name: 'Slow' }, ...withKey('running') });
    await receiver.waitFor(receiver.received.length + 1);
    const second = await api.call('POST', '/member', { body: { name: 'Slow' }, ...withKey('running') });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatch(/still running/);
    expect((await first).status).toBe(201);
    receiver.setReply(() => ({}));
    expect((await api.call('POST', '/member', { body: { name: 'Slow' }, ...withKey('running') })).headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get('/member')).body).toHaveLength(1);
  });

  it('lets a failed request be sent again with its key: an error changed nothing', async () => {
    const { api } = await newProject();
    await api.post('/member', { email: 'taken@example.org' });
    const conflict = await api.call('POST', '/member', { body: { email: 'taken@example.org' }, ...withKey('retry-me') });
    expect(conflict.status).toBe(409);
    await api.patch(`/member/${(await api.get('/member')).body[0].id}`, { email: 'moved@example.org' });
    const retried = await api.call('POST', '/member', { body: { email: 'taken@example.org' }, ...withKey('retry-me') });
    expect(retried.status).toBe(201);
  });

  it('never lets keys of different tokens meet', async () => {
    const { api } = await newProject();
    const integration = (await api.get('/integration')).body[0];
    const otherKey = (await api.post(`/integration/${integration.id}/key`)).body.key;
    const a = await api.call('POST', '/member', { body: { name: 'Same' }, ...withKey('shared') });
    const b = await apiClient(otherKey).call('POST', '/member', { body: { name: 'Same' }, ...withKey('shared') });
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('refuses keys that are not 1-255 visible ASCII characters', async () => {
    const { api } = await newProject();
    for (const key of ['', 'x'.repeat(256), 'has space', 'ünïcode']) {
      const res = await api.call('POST', '/member', { body: { name: 'K' }, headers: { 'idempotency-key': key } });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.errors[0].path).toBe('Idempotency-Key');
    }
    expect((await api.get('/member')).body).toEqual([]);
  });

  it('forgets a key after 24 hours: housekeeping deletes it, and the same key runs the request again', async () => {
    const { api, db } = await newProject();
    const first = await api.call('POST', '/member', { body: { name: 'Old' }, ...withKey('day-old') });
    const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'day-old'));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(24 * 3_600_000);
    await db.update(idempotencyKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(idempotencyKeys.scope, row!.scope));
    // An expired key is taken over at once...
    const later = await api.call('POST', '/member', { body: { name: 'Old' }, ...withKey('day-old') });
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    // ...and housekeeping removes the ones nobody reuses.
    await db.update(idempotencyKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(idempotencyKeys.scope, row!.scope));
    expect((await runHousekeeping(db, new Date())).idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, row!.scope))).toEqual([]);
  });
});
