import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { apiClient, newProject } from '@/server/testing/api';

describe('members (CONTRACT 4)', () => {
  it('creates with role user by default and the documented shape', async () => {
    const { api } = await newProject();
    const res = await api.post('/member', { name: 'Ada', email: 'ada@example.org', externalId: 'crm-1', meta: { tier: 2 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      role: 'user',
      name: 'Ada',
      email: 'ada@example.org',
      externalId: 'crm-1',
      meta: { tier: 2 },
      timeZone: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('keeps email unique per project (409), but not across projects', async () => {
    const a = await newProject();
    const b = await newProject();
    expect((await a.api.post('/member', { email: 'same@example.org' })).status).toBe(201);
    const dup = await a.api.post('/member', { email: 'Same@Example.org' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflict');
    expect((await b.api.post('/member', { email: 'same@example.org' })).status).toBe(201);
    const other = (await a.api.post('/member', { email: 'other@example.org' })).body;
    expect((await a.api.patch(`/member/${other.id}`, { email: 'same@example.org' })).status).toBe(409);
  });

  it('filters by role, email and externalId', async () => {
    const { api } = await newProject();
    await api.post('/member', { name: 'A', role: 'caregiver', email: 'a@x.org', externalId: 'e1' });
    await api.post('/member', { name: 'B', email: 'b@x.org', externalId: 'e2' });
    await api.post('/member', { name: 'C', role: 'caregiver' });
    expect((await api.get('/member', { role: 'caregiver' })).body.map((m: any) => m.name)).toEqual(['A', 'C']);
    expect((await api.get('/member', { email: 'b@x.org' })).body.map((m: any) => m.name)).toEqual(['B']);
    expect((await api.get('/member', { externalId: 'e1' })).body.map((m: any) => m.name)).toEqual(['A']);
  });

  it('updates, deletes and records member_create/update/delete events in order', async () => {
    const { api, db, projectId } = await newProject();
    const created = (await api.post('/member', { name: 'Ev', role: 'user' })).body;
    const updated = await api.patch(`/member/${created.id}`, { name: 'Eve', meta: { a: 1 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, name: 'Eve', meta: { a: 1 }, role: 'user' });
    expect((await api.del(`/member/${created.id}`)).status).toBe(204);
    expect((await api.get(`/member/${created.id}`)).status).toBe(404);

    const rows = await db.select().from(events).where(eq(events.projectId, projectId)).orderBy(asc(events.id));
    expect(rows.map((r) => r.name)).toEqual(['member_create', 'member_update', 'member_delete']);
    expect(rows[0]!.params).toEqual({ name: 'Ev', role: 'user' });
    expect(rows[0]!.responseData).toEqual(created);
    expect(rows[1]!.params).toEqual({ id: created.id, name: 'Eve', meta: { a: 1 } });
    expect(rows[1]!.responseData).toEqual(updated.body);
    expect(rows[2]!.params).toEqual({ id: created.id });
    expect(rows[2]!.responseData).toEqual(updated.body);
  });

  it('records no event when the operation fails', async () => {
    const { api, db, projectId } = await newProject();
    await api.post('/member', { email: 'x@x.org' });
    await api.post('/member', { email: 'x@x.org' });
    const rows = await db.select().from(events).where(and(eq(events.projectId, projectId), eq(events.name, 'member_create')));
    expect(rows).toHaveLength(1);
  });

  it('issues member tokens (admin only) that act as the member with its role', async () => {
    const { api } = await newProject();
    const user = (await api.post('/member', { name: 'U' })).body;
    const boss = (await api.post('/member', { name: 'Boss', role: 'admin' })).body;
    const issued = await api.post(`/member/${user.id}/token`);
    expect(issued.status).toBe(201);
    expect(issued.body.token).toMatch(/^cb_mem_/);
    const asUser = apiClient(issued.body.token);
    expect((await asUser.get('/member')).status).toBe(403);
    expect((await asUser.post('/member', { name: 'X' })).status).toBe(403);
    expect((await asUser.post(`/member/${user.id}/token`)).status).toBe(403);
    expect((await api.post(`/member/${user.id}/token`, undefined, { actorId: user.id })).status).toBe(403);
    const asBoss = apiClient((await api.post(`/member/${boss.id}/token`)).body.token);
    expect((await asBoss.post('/member', { name: 'Made by boss' })).status).toBe(201);
    expect((await api.post('/member/99999999/token')).status).toBe(404);
  });

  it('stops accepting a member token once its member is deleted', async () => {
    const { api } = await newProject();
    const m = (await api.post('/member', { name: 'Gone' })).body;
    const asMember = apiClient((await api.post(`/member/${m.id}/token`)).body.token);
    expect((await asMember.get('/record')).status).toBe(200);
    await api.del(`/member/${m.id}`);
    expect((await asMember.get('/record')).status).toBe(401);
  });
});
