import { beforeEach, describe, expect, it } from 'vitest';
import { apiClient, newProject, type ApiClient } from '@/server/testing/api';

describe('record types (CONTRACT 3)', () => {
  it('creates, reads, updates and deletes record types with validation', async () => {
    const { api } = await newProject();
    const created = await api.post('/record-type', { type: 'profile', permissions: { user: { read: true } } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/\/api\/v1\/record-type\/profile$/);
    expect(created.body).toMatchObject({ type: 'profile', permissions: { user: { read: true } } });
    expect((await api.post('/record-type', { type: 'profile' })).status).toBe(409);
    const bad = await api.post('/record-type', { type: '1bad', permissions: { user: { read: 'yes', admin: true } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['permissions.user.admin', 'permissions.user.read', 'type']);
    expect((await api.get('/record-type/profile')).body.permissions).toEqual({ user: { read: true } });
    const patched = await api.patch('/record-type/profile', { permissions: { user: { read: true, write: true } } });
    expect(patched.body.permissions).toEqual({ user: { read: true, write: true } });
    expect((await api.get('/record-type')).body.map((t: any) => t.type)).toEqual(['profile']);
    expect((await api.get('/record-type/missing')).status).toBe(404);

    const m = (await api.post('/member', {})).body;
    await api.post('/record/profile', { memberId: m.id, fields: {} });
    const blocked = await api.del('/record-type/profile');
    expect(blocked.status).toBe(409);
    const [record] = (await api.get('/record/profile')).body;
    await api.del(`/record/profile/${record.id}`);
    expect((await api.del('/record-type/profile')).status).toBe(204);
    expect((await api.get('/record-type/profile')).status).toBe(404);
  });
});

describe('records (CONTRACT 3)', () => {
  let api: ApiClient;
  let alice: any;
  let bob: any;
  let carer: any;

  beforeEach(async () => {
    ({ api } = await newProject());
    alice = (await api.post('/member', { name: 'Alice', role: 'user' })).body;
    bob = (await api.post('/member', { name: 'Bob', role: 'user' })).body;
    carer = (await api.post('/member', { name: 'Carer', role: 'caregiver' })).body;
    await api.post('/record-type', { type: 'profile', permissions: { user: { read: true } } });
    await api.post('/record-type', { type: 'diary', permissions: { user: { read: true, write: true } } });
    await api.post('/record-type', { type: 'secret', permissions: {} });
  });

  it('creates records as admin; memberId must be a member of the project', async () => {
    const res = await api.post('/record/profile', { memberId: alice.id, fields: { city: 'Oslo' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'profile', memberId: alice.id, fields: { city: 'Oslo' } });
    expect(res.headers.get('location')).toMatch(new RegExp(`/record/profile/${res.body.id}$`));
    const missing = await api.post('/record/profile', { memberId: 99999999, fields: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('memberId');
    const other = await newProject();
    const foreign = (await other.api.post('/member', {})).body;
    expect((await api.post('/record/profile', { memberId: foreign.id, fields: {} })).status).toBe(400);
    expect((await api.post('/record/profile', { memberId: alice.id, fields: [1] })).status).toBe(400);
    expect((await api.post('/record/profile', { memberId: alice.id })).body.errors[0].path).toBe('fields');
  });

  it('allows records of a type without a record type, readable only by admins', async () => {
    const res = await api.post('/record/untyped', { memberId: alice.id, fields: { a: 1 } });
    expect(res.status).toBe(201);
    expect((await api.get('/record/untyped')).body).toHaveLength(1);
    expect((await api.get('/record/untyped', { actorId: alice.id })).body).toEqual([]);
  });

  it('filters by type, member and fields containment (nested objects, array subsets)', async () => {
    const r1 = (await api.post('/record/profile', { memberId: alice.id, fields: { city: 'Oslo', tags: ['a', 'b'], address: { zip: '1', street: 'x' } } })).body;
    const r2 = (await api.post('/record/profile', { memberId: bob.id, fields: { city: 'Rome', tags: ['b'] } })).body;
    const r3 = (await api.post('/record/diary', { memberId: alice.id, fields: { city: 'Oslo' } })).body;
    const ids = (res: any) => res.body.map((r: any) => r.id);
    expect(ids(await api.get('/record', { fields: JSON.stringify({ city: 'Oslo' }) }))).toEqual([r1.id, r3.id]);
    expect(ids(await api.get('/record', { fields: JSON.stringify({ city: 'Oslo' }), type: 'profile' }))).toEqual([r1.id]);
    expect(ids(await api.get('/record/profile', { fields: JSON.stringify({ tags: ['b'] }) }))).toEqual([r1.id, r2.id]);
    expect(ids(await api.get('/record/profile', { fields: JSON.stringify({ tags: ['a', 'b'] }) }))).toEqual([r1.id]);
    expect(ids(await api.get('/record/profile', { fields: JSON.stringify({ address: { zip: '1' } }) }))).toEqual([r1.id]);
    expect(ids(await api.get('/record', { memberId: alice.id }))).toEqual([r1.id, r3.id]);
    expect(ids(await api.get('/record/profile', { memberId: bob.id }))).toEqual([r2.id]);
    expect(ids(await api.get('/record', { fields: '{}' }))).toEqual([r1.id, r2.id, r3.id]);
    for (const bad of ['[1]', 'null', '"x"', '{nope', '5']) {
      const res = await api.get('/record', { fields: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('fields');
    }
  });

  it('shows a non-admin actor only its own records of types granting its role read', async () => {
    const ownProfile = (await api.post('/record/profile', { memberId: alice.id, fields: { n: 1 } })).body;
    const bobProfile = (await api.post('/record/profile', { memberId: bob.id, fields: { n: 2 } })).body;
    await api.post('/record/secret', { memberId: alice.id, fields: { n: 3 } });
    const ownDiary = (await api.post('/record/diary', { memberId: alice.id, fields: { n: 4 } })).body;

    expect((await api.get('/record', { actorId: alice.id })).body.map((r: any) => r.id)).toEqual([ownProfile.id, ownDiary.id]);
    expect((await api.get('/record/profile', { actorId: alice.id })).body.map((r: any) => r.id)).toEqual([ownProfile.id]);
    expect((await api.get('/record/secret', { actorId: alice.id })).body).toEqual([]);
    expect((await api.get('/record/profile', { actorId: carer.id })).body).toEqual([]);
    expect((await api.get(`/record/profile/${bobProfile.id}`, { actorId: alice.id })).status).toBe(404);
    expect((await api.get(`/record/profile/${ownProfile.id}`, { actorId: alice.id })).body.id).toBe(ownProfile.id);
    expect((await api.patch(`/record/profile/${bobProfile.id}`, { fields: { n: 9 } }, { actorId: alice.id })).status).toBe(404);
    expect((await api.del(`/record/profile/${bobProfile.id}`, { actorId: alice.id })).status).toBe(404);

    const token = (await api.post(`/member/${alice.id}/token`)).body.token;
    const asAlice = apiClient(token);
    expect((await asAlice.get('/record')).body.map((r: any) => r.id)).toEqual([ownProfile.id, ownDiary.id]);
    expect((await asAlice.get('/record', { memberId: bob.id })).body).toEqual([]);
    expect((await api.get('/record')).body).toHaveLength(4);
  });

  it('lets a role with only read not create or change (403), and a role with write only for itself', async () => {
    const created = await api.post('/record/profile', { memberId: alice.id, fields: {} }, { actorId: alice.id });
    expect(created.status).toBe(403);
    const own = (await api.post('/record/profile', { memberId: alice.id, fields: { a: 1 } })).body;
    expect((await api.patch(`/record/profile/${own.id}`, { fields: { a: 2 } }, { actorId: alice.id })).status).toBe(403);
    expect((await api.del(`/record/profile/${own.id}`, { actorId: alice.id })).status).toBe(403);

    const diary = await api.post('/record/diary', { memberId: alice.id, fields: { mood: 'ok' } }, { actorId: alice.id });
    expect(diary.status).toBe(201);
    expect((await api.post('/record/diary', { memberId: bob.id, fields: {} }, { actorId: alice.id })).status).toBe(403);
    const changed = await api.patch(`/record/diary/${diary.body.id}`, { fields: { mood: 'good' } }, { actorId: alice.id });
    expect(changed.body.fields).toEqual({ mood: 'good' });
    expect((await api.del(`/record/diary/${diary.body.id}`, { actorId: alice.id })).status).toBe(204);
    expect((await api.get('/record/diary')).body).toEqual([]);
  });

  it('applies PATCH as a JSON Merge Patch of fields', async () => {
    const r = (await api.post('/record/profile', { memberId: alice.id, fields: { a: 1, b: { c: 2, d: 3 }, list: [1, 2] } })).body;
    const res = await api.patch(`/record/profile/${r.id}`, { fields: { a: null, b: { c: null, e: 4 }, list: [3], z: 'new' } });
    expect(res.status).toBe(200);
    expect(res.body.fields).toEqual({ b: { d: 3, e: 4 }, list: [3], z: 'new' });
    expect((await api.get(`/record/profile/${r.id}`)).body.fields).toEqual(res.body.fields);
    expect((await api.patch(`/record/profile/${r.id}`, { memberId: bob.id })).status).toBe(400);
    expect((await api.get(`/record/diary/${r.id}`)).status).toBe(404);
  });
});
