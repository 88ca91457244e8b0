import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { apiClient, newProject } from '@/server/testing/api';

/** API keys with names, who made them, last use and expiry (CONTRACT 11). */
describe('API keys', () => {
  it('are named "Key <n>" unless named, and say who made them', async () => {
    const { api } = await newProject();
    const [integration] = (await api.get('/integration')).body;
    const named = await api.post(`/integration/${integration.id}/key`, { name: 'Nightly sync' });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ name: 'Nightly sync', key: expect.stringMatching(/^cb_key_/), expiresAt: null, lastUsedAt: null, revokedAt: null });
    const unnamed = await api.post(`/integration/${integration.id}/key`);
    expect(unnamed.body.name).toBe('Key 3');
    const list = (await api.get(`/integration/${integration.id}/key`)).body;
    expect(list.map((k: any) => k.name)).toEqual(['Key 1', 'Nightly sync', 'Key 3']);
    expect(list[0].createdBy).toEqual({ type: 'system', id: null, name: null });
    expect(list[1].createdBy).toEqual({ type: 'integration', id: integration.id, name: 'Default integration' });
    expect(list.some((k: any) => 'key' in k || 'keyHash' in k)).toBe(false);
    expect((await api.post(`/integration/${integration.id}/key`, { name: '' })).status).toBe(400);
    expect((await api.post(`/integration/${integration.id}/key`, { name: 'x', prefix: 'cb_' })).status).toBe(400);
  });

  it('note their last use to within a minute, writing at most once a minute', async () => {
    const { api, db } = await newProject();
    const [integration] = (await api.get('/integration')).body;
    const created = (await api.post(`/integration/${integration.id}/key`, { name: 'Used' })).body;
    const used = apiClient(created.key);
    const lastUsed = async () => (await db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, created.id)))[0]!.at;
    expect(await lastUsed()).toBeNull();
    const before = Date.now();
    expect((await used.get('/member')).status).toBe(200);
    const first = await lastUsed();
    expect(first!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await used.get('/member')).status).toBe(200);
    expect((await lastUsed())!.getTime()).toBe(first!.getTime());
    // Two minutes later (as far as the stored value says), the next request notes the new use.
    await db.update(apiKeys).set({ lastUsedAt: new Date(Date.now() - 120_000) }).where(eq(apiKeys.id, created.id));
    expect((await used.get('/member')).status).toBe(200);
    expect((await lastUsed())!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const listed = (await api.get(`/integration/${integration.id}/key`)).body.find((k: any) => k.id === created.id);
    expect(listed.lastUsedAt).toEqual(expect.any(String));
  });

  it('expire: an expired key answers 401, and an expiry must lie ahead', async () => {
    const { api, db } = await newProject();
    const [integration] = (await api.get('/integration')).body;
    const past = await api.post(`/integration/${integration.id}/key`, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([{ path: 'expiresAt', message: expect.any(String) }]);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = (await api.post(`/integration/${integration.id}/key`, { name: 'Temporary', expiresAt })).body;
    expect(created.expiresAt).toBe(expiresAt);
    expect((await apiClient(created.key).get('/member')).status).toBe(200);
    await db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, created.id));
    const refused = await apiClient(created.key).get('/member');
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('unauthenticated');
  });
});
