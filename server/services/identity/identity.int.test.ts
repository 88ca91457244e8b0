import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, webhookDeliveries } from '@/db/schema';
import { AppError } from '@/server/errors';
import { attemptDelivery } from '@/server/jobs/attempt-delivery';
import { createUser } from '@/server/services/users/users';
import { newProject } from '@/server/testing/api';
import { startReceiver } from '@/server/testing/receiver';
import { linkAccount } from './link-account';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const idp = { display: 'Login', issuer: 'https://93.184.215.14/', clientId: 'carebase', clientSecret: 's3cret' };
const claims = { sub: 'ext-1', email: 'Linked@Example.org', name: 'Lin Ked', preferred_username: 'lk' };

describe('identity providers (CONTRACT 8)', () => {
  it('creates, reads, updates and deletes; the client secret is write-only', async () => {
    const { api } = await newProject();
    const created = await api.post('/identity-provider', { ...idp, mapping: { name: 'preferred_username', email: 'email' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      display: 'Login',
      issuer: 'https://93.184.215.14',
      clientId: 'carebase',
      mapping: { name: 'preferred_username', email: 'email' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify((await api.get('/identity-provider')).body)).not.toContain('s3cret');
    const patched = await api.patch(`/identity-provider/${created.body.id}`, { display: 'Staff login', clientSecret: 'rotated' });
    expect(patched.body).toMatchObject({ display: 'Staff login' });
    expect(patched.body).not.toHaveProperty('clientSecret');
    const bad = await api.post('/identity-provider', { display: 'x', issuer: 'ftp://x', clientId: 'c', clientSecret: 's', mapping: { age: 'age' } });
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['issuer', 'mapping.age']);
    expect((await api.del(`/identity-provider/${created.body.id}`)).status).toBe(204);
    expect((await api.get(`/identity-provider/${created.body.id}`)).status).toBe(404);
  });
});

describe('account_link (CONTRACT 8)', () => {
  it('by default links to the member with the mapped email, then reuses the link', async () => {
    const { api, db } = await newProject();
    const member = (await api.post('/member', { name: 'Existing', email: 'linked@example.org' })).body;
    const provider = (await api.post('/identity-provider', idp)).body;
    const linked = await linkAccount(db, { providerId: provider.id, sub: 'ext-1', userinfo: claims });
    expect(linked).toMatchObject({ kind: 'member', memberId: member.id });
    const again = await linkAccount(db, { providerId: provider.id, sub: 'ext-1', userinfo: { sub: 'ext-1', email: 'changed@example.org' } });
    expect(again).toMatchObject({ kind: 'member', memberId: member.id });
    expect((await api.get('/member')).body).toHaveLength(1);
  });

  it('by default creates a member with role user from the mapped claims', async () => {
    const { api, db } = await newProject();
    const provider = (await api.post('/identity-provider', { ...idp, mapping: { name: 'name', email: 'email', externalId: 'sub' } })).body;
    const linked = await linkAccount(db, { providerId: provider.id, sub: 'ext-2', userinfo: { ...claims, sub: 'ext-2', email: 'new@example.org' } });
    const created = (await api.get(`/member/${(linked as { memberId: number }).memberId}`)).body;
    expect(created).toMatchObject({ role: 'user', name: 'Lin Ked', email: 'new@example.org', externalId: 'ext-2' });
  });

  it('lets a handle webhook decide, with params {sub, providerId, userinfo, mapping, mapped}; after webhooks get the result', async () => {
    const { api, db, projectId } = await newProject();
    const chosen = (await api.post('/member', { name: 'Chosen' })).body;
    const provider = (await api.post('/identity-provider', idp)).body;
    await api.post('/webhook', { display: 'link', url: `${receiver.url}/link-handle`, triggers: [{ event: 'account_link', strategy: 'handle' }] });
    const afterHook = (await api.post('/webhook', { display: 'after', url: `${receiver.url}/link-after`, triggers: [{ event: 'account_link' }] })).body;
    receiver.setReply((r) => (r.path === '/link-handle' ? { body: JSON.stringify({ memberId: chosen.id }) } : {}));
    const linked = await linkAccount(db, { providerId: provider.id, sub: 'ext-3', userinfo: claims });
    expect(linked).toMatchObject({ kind: 'member', memberId: chosen.id });
    const call = JSON.parse(receiver.received.find((r) => r.path === '/link-handle')!.body);
    expect(call).toEqual({
      event: 'account_link',
      projectId,
      params: { sub: 'ext-3', providerId: provider.id, userinfo: claims, mapping: { name: 'name', email: 'email' }, mapped: { name: 'Lin Ked', email: 'Linked@Example.org' } },
    });
    const [after] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, afterHook.id));
    await attemptDelivery(db, after!.id);
    expect(JSON.parse(receiver.received.find((r) => r.path === '/link-after')!.body).responseData).toEqual({ memberId: chosen.id });
    expect((await api.get('/member')).body).toHaveLength(1);
    receiver.setReply(() => ({}));
  });

  it('links to a staff user when the handle answers {userId} of the project', async () => {
    const { api, db, projectId } = await newProject();
    const { userId } = await createUser(db, { email: `staff-${projectId}@example.org`, password: 'password-1', role: 'coordinator', projectId });
    const provider = (await api.post('/identity-provider', idp)).body;
    await api.post('/webhook', { display: 'link', url: `${receiver.url}/link-user-${projectId}`, triggers: [{ event: 'account_link', strategy: 'handle' }] });
    receiver.setReply((r) => (r.path === `/link-user-${projectId}` ? { body: JSON.stringify({ userId }) } : {}));
    expect(await linkAccount(db, { providerId: provider.id, sub: 'staff-1', userinfo: claims })).toMatchObject({ kind: 'user', userId });
    receiver.setReply(() => ({}));
  });

  it('refuses sign-in and links nothing when the answer names nobody in the project, or the webhook fails', async () => {
    const { api, db, projectId } = await newProject();
    const other = await newProject();
    const stranger = (await other.api.post('/member', { name: 'Stranger' })).body;
    const provider = (await api.post('/identity-provider', idp)).body;
    const path = `/link-refuse-${projectId}`;
    await api.post('/webhook', { display: 'link', url: `${receiver.url}${path}`, triggers: [{ event: 'account_link', strategy: 'handle' }] });
    for (const reply of [{ body: JSON.stringify({ memberId: stranger.id }) }, { body: '{"nobody":true}' }, { status: 500 }, { body: 'not json' }]) {
      receiver.setReply((r) => (r.path === path ? reply : {}));
      const err = await linkAccount(db, { providerId: provider.id, sub: 'ext-9', userinfo: claims }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
    }
    expect(await db.select().from(accountLinks).where(eq(accountLinks.providerId, provider.id))).toEqual([]);
    expect((await api.get('/member')).body).toEqual([]);
    receiver.setReply(() => ({}));
  });
});

describe('outbound policy for addresses the server calls (defect 2)', () => {
  it('refuses identity provider issuers and integration endpoints on metadata, private and embedded addresses', async () => {
    const { api } = await newProject();
    for (const issuer of ['http://169.254.169.254/latest', 'http://10.1.2.3/realm', 'http://[::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::]/']) {
      const res = await api.post('/identity-provider', { ...idp, issuer });
      expect(res.status, issuer).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ path: 'issuer', message: expect.stringContaining('Refused to call') });
    }
    const created = (await api.post('/identity-provider', idp)).body;
    const patched = await api.patch(`/identity-provider/${created.id}`, { issuer: 'http://169.254.169.254/' });
    expect(patched.status).toBe(400);
    expect((await api.get(`/identity-provider/${created.id}`)).body.issuer).toBe(created.issuer);

    const integration = (await api.post('/integration', { display: 'CRM', slug: 'crm' })).body;
    for (const endpointUrl of ['http://169.254.169.254/', 'http://192.168.1.10/hooks', 'http://[::ffff:10.0.0.1]/']) {
      const res = await api.patch(`/integration/${integration.id}`, { endpointUrl });
      expect(res.status, endpointUrl).toBe(400);
      expect(res.body.errors[0].path).toBe('endpointUrl');
    }
    expect((await api.post('/integration', { display: 'Bad', slug: 'bad', endpointUrl: 'http://169.254.169.254/' })).status).toBe(400);
    expect((await api.get(`/integration/${integration.id}`)).body.endpointUrl).toBeNull();
    expect((await api.patch(`/integration/${integration.id}`, { endpointUrl: 'https://93.184.215.14/hooks' })).status).toBe(200);
  });
});
