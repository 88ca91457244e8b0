import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { createUser } from '@/server/services/users/users';
import { newProject } from '@/server/testing/api';
import { createCaller } from './root';

async function staffOf(role: 'admin' | 'coordinator') {
  const project = await newProject();
  const email = `${role}-${project.projectId}-${Math.random().toString(36).slice(2)}@test.local`;
  const { userId } = await createUser(project.db, { email, password: 'password-123', role, projectId: project.projectId });
  return { ...project, userId, caller: createCaller({ userId, requestedProjectId: project.projectId }) };
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return e instanceof TRPCError ? e.code : String(e);
  }
};

describe('tRPC procedures over the same services', () => {
  it('refuses callers that are not signed in', async () => {
    expect(await codeOf(createCaller({}).members.list({}))).toBe('UNAUTHORIZED');
  });

  it('lets an admin manage members, record types, records and integrations', async () => {
    const { caller, api } = await staffOf('admin');
    const member = await caller.members.create({ name: 'Via tRPC', email: 'trpc@example.org' });
    expect((await api.get(`/member/${member.id}`)).body.name).toBe('Via tRPC');
    await caller.recordTypes.create({ type: 'notes', permissions: { user: { read: true } } });
    const record = await caller.records.create({ type: 'notes', memberId: member.id, fields: { a: 1, b: 2 } });
    const replaced = await caller.records.update({ type: 'notes', id: record.id, fields: { a: 3 }, replace: true });
    expect(replaced.fields).toEqual({ a: 3 });
    const merged = await caller.records.update({ type: 'notes', id: record.id, fields: { c: 4 } });
    expect(merged.fields).toEqual({ a: 3, c: 4 });
    expect((await caller.records.list({ fields: { c: 4 } })).items.map((r) => r.id)).toEqual([record.id]);
    const integration = await caller.integrations.create({ display: 'CRM', slug: 'crm' });
    const { key } = await caller.integrations.createKey({ id: integration.id });
    expect(key).toMatch(/^cb_key_/);
    expect((await caller.integrations.keys({ id: integration.id })).items.map((k) => k.prefix)).toEqual([key.slice(0, 12)]);
  });

  it('maps service errors to tRPC codes with field errors kept as the cause', async () => {
    const { caller } = await staffOf('admin');
    await caller.members.create({ email: 'dup@example.org' });
    const err = (await caller.members.create({ email: 'dup@example.org' }).catch((e: unknown) => e)) as TRPCError;
    expect(err.code).toBe('CONFLICT');
    expect((err.cause as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe('email');
    expect(await codeOf(caller.members.get({ id: 99999999 }))).toBe('NOT_FOUND');
    expect(await codeOf(caller.members.create({ email: 'nope' }))).toBe('BAD_REQUEST');
  });

  it('lets a coordinator read everything but change nothing', async () => {
    const { caller, api } = await staffOf('coordinator');
    const member = (await api.post('/member', { name: 'Read me' })).body;
    await api.post('/record/secret', { memberId: member.id, fields: { x: 1 } });
    expect((await caller.members.list({})).items.map((m) => m.name)).toEqual(['Read me']);
    expect((await caller.records.list({})).items).toHaveLength(1);
    expect(await codeOf(caller.members.create({ name: 'No' }))).toBe('FORBIDDEN');
    expect(await codeOf(caller.members.issueToken({ id: member.id }))).toBe('FORBIDDEN');
    expect(await codeOf(caller.recordTypes.create({ type: 'x' }))).toBe('FORBIDDEN');
    expect(await codeOf(caller.integrations.list({}))).toBe('FORBIDDEN');
    expect((await api.get('/member')).body).toHaveLength(1);
  });

  it('never lets a user into a project they do not belong to', async () => {
    const mine = await staffOf('admin');
    const other = await newProject();
    await other.api.post('/member', { name: 'Secret' });
    const caller = createCaller({ userId: mine.userId, requestedProjectId: other.projectId });
    const { current } = await caller.projects.mine();
    expect(current.id).toBe(mine.projectId);
    expect(await caller.members.list({})).toEqual({ items: [], next: null });
  });
});
