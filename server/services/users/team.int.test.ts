import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, userTokens } from '@/db/schema';
import { createContext } from '@/server/context';
import { newProject } from '@/server/testing/api';
import { acceptInvitation, changeRole, completePasswordReset, inviteUser, listTeam, lookUpUserToken, resetPassword, revokeInvitation, setActive } from './team';
import { authenticateUser, createUser, staffSessionValid } from './users';

/** Staff and team (issue 13): invitations, roles, deactivation that ends sessions, password resets. */
async function projectWithAdmin() {
  const p = await newProject();
  const email = `admin-${p.projectId}@example.org`;
  const { userId } = await createUser(p.db, { email, password: 'admin-password', role: 'admin', projectId: p.projectId, name: 'Admin' });
  const admin = createContext(p.db, p.projectId, { kind: 'user', userId, role: 'admin' });
  return { ...p, admin, adminId: userId, adminEmail: email };
}

describe('the team', () => {
  it('invites a coordinator with a one-time link (7 days); they set a password and can sign in', async () => {
    const p = await projectWithAdmin();
    const email = `coord-${p.projectId}@example.org`;
    const { invitation, token } = await inviteUser(p.admin, { email, role: 'coordinator' });
    expect(invitation).toMatchObject({ email, role: 'coordinator', status: 'pending', kind: 'invite' });
    expect(new Date(invitation.expiresAt).getTime() - new Date(invitation.createdAt).getTime()).toBe(7 * 86_400_000);
    expect((await lookUpUserToken(p.db, token))).toMatchObject({ kind: 'invite', email, role: 'coordinator', status: 'pending', hasAccount: false });
    // Only the hash of the link's token is stored.
    const stored = await p.db.select().from(userTokens).where(eq(userTokens.id, invitation.id));
    expect(JSON.stringify(stored)).not.toContain(token);

    await expect(acceptInvitation(p.db, { token, name: 'Casey', password: 'short' })).rejects.toMatchObject({ name: 'ZodError' });
    await expect(acceptInvitation(p.db, { token, password: 'a-good-password' })).rejects.toMatchObject({ errors: [{ path: 'name' }] });
    const accepted = await acceptInvitation(p.db, { token, name: 'Casey Coordinator', password: 'a-good-password' });
    expect(accepted).toMatchObject({ email, projectId: p.projectId });
    expect(await authenticateUser(p.db, email, 'a-good-password')).toMatchObject({ id: accepted.userId, name: 'Casey Coordinator' });
    const team = await listTeam(p.admin);
    expect(team.members.find((m) => m.email === email)).toMatchObject({ role: 'coordinator', active: true });
    // The link is used up.
    await expect(acceptInvitation(p.db, { token, name: 'Again', password: 'a-good-password' })).rejects.toMatchObject({ code: 'conflict' });
    expect((await lookUpUserToken(p.db, token))?.status).toBe('used');
    // The trail says who invited whom, and who joined.
    const trail = await p.db.select().from(auditEvents).where(and(eq(auditEvents.projectId, p.projectId), eq(auditEvents.resource, 'invitation')));
    expect(trail).toMatchObject([{ actorType: 'user', actorId: p.adminId, action: 'create', changes: { email: { after: email }, role: { after: 'coordinator' } } }]);
    const joined = await p.db.select().from(auditEvents).where(and(eq(auditEvents.projectId, p.projectId), eq(auditEvents.resource, 'user'), eq(auditEvents.resourceId, accepted.userId)));
    expect(joined).toMatchObject([{ actorType: 'user', actorId: accepted.userId, action: 'create' }]);
  });

  it('lets someone with an account join another project by confirming their password', async () => {
    const a = await projectWithAdmin();
    const b = await projectWithAdmin();
    const { token } = await inviteUser(b.admin, { email: a.adminEmail, role: 'coordinator' });
    expect((await lookUpUserToken(b.db, token))?.hasAccount).toBe(true);
    await expect(acceptInvitation(b.db, { token, password: 'wrong-password' })).rejects.toMatchObject({ errors: [{ path: 'password' }] });
    const accepted = await acceptInvitation(b.db, { token, password: 'admin-password' });
    expect(accepted.userId).toBe(a.adminId);
    expect((await listTeam(b.admin)).members.find((m) => m.userId === a.adminId)).toMatchObject({ role: 'coordinator' });
  });

  it('refuses expired and revoked links, and a second invitation replaces the first', async () => {
    const p = await projectWithAdmin();
    const email = `late-${p.projectId}@example.org`;
    const first = await inviteUser(p.admin, { email, role: 'coordinator' });
    const second = await inviteUser(p.admin, { email, role: 'admin' });
    await expect(acceptInvitation(p.db, { token: first.token, name: 'X', password: 'a-good-password' })).rejects.toMatchObject({ code: 'conflict' });
    await revokeInvitation(p.admin, second.invitation.id);
    await expect(acceptInvitation(p.db, { token: second.token, name: 'X', password: 'a-good-password' })).rejects.toMatchObject({ code: 'conflict' });
    const eightDaysOn = createContext(p.db, p.projectId, p.admin.actor, () => new Date(Date.now() - 8 * 86_400_000));
    const old = await inviteUser(eightDaysOn, { email, role: 'coordinator' });
    expect((await lookUpUserToken(p.db, old.token))?.status).toBe('expired');
    await expect(acceptInvitation(p.db, { token: old.token, name: 'X', password: 'a-good-password' })).rejects.toThrow(/expired/);
    await expect(inviteUser(p.admin, { email: p.adminEmail, role: 'admin' })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('deactivating ends sessions at once and refuses sign-in; reactivating restores both', async () => {
    const p = await projectWithAdmin();
    const { userId } = await createUser(p.db, { email: `c-${p.projectId}@example.org`, password: 'coord-password', role: 'coordinator', projectId: p.projectId });
    const signedInAt = Date.now();
    expect(await staffSessionValid(p.db, userId, signedInAt)).toBe(true);
    const off = await setActive(p.admin, userId, false);
    expect(off).toMatchObject({ active: false, deactivatedAt: expect.any(String) });
    expect(await staffSessionValid(p.db, userId, signedInAt)).toBe(false);
    expect(await authenticateUser(p.db, `c-${p.projectId}@example.org`, 'coord-password')).toBeNull();
    await setActive(p.admin, userId, true);
    expect(await staffSessionValid(p.db, userId, signedInAt)).toBe(true);
    expect(await authenticateUser(p.db, `c-${p.projectId}@example.org`, 'coord-password')).not.toBeNull();
    await expect(setActive(p.admin, p.adminId, false)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('keeps one active admin: the last one cannot be demoted', async () => {
    const p = await projectWithAdmin();
    await expect(changeRole(p.admin, p.adminId, 'coordinator')).rejects.toMatchObject({ code: 'conflict' });
    const { userId } = await createUser(p.db, { email: `second-${p.projectId}@example.org`, password: 'second-password', role: 'admin', projectId: p.projectId });
    const demoted = await changeRole(p.admin, userId, 'coordinator');
    expect(demoted.role).toBe('coordinator');
    const trail = await p.db.select().from(auditEvents).where(and(eq(auditEvents.projectId, p.projectId), eq(auditEvents.resourceId, userId), eq(auditEvents.actorType, 'user')));
    expect(trail.at(-1)!.changes).toEqual({ role: { before: 'admin', after: 'coordinator' } });
    const coordinator = createContext(p.db, p.projectId, { kind: 'user', userId, role: 'coordinator' });
    await expect(changeRole(coordinator, p.adminId, 'coordinator')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(inviteUser(coordinator, { email: 'x@example.org', role: 'admin' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('resets a password: the old one stops working, sessions end, and the link sets a new one', async () => {
    const p = await projectWithAdmin();
    const email = `r-${p.projectId}@example.org`;
    const { userId } = await createUser(p.db, { email, password: 'old-password', role: 'coordinator', projectId: p.projectId });
    const signedInAt = Date.now() - 1000;
    const { token, invitation } = await resetPassword(p.admin, userId);
    expect(invitation).toMatchObject({ kind: 'reset', email, status: 'pending' });
    expect(await staffSessionValid(p.db, userId, signedInAt)).toBe(false);
    expect(await authenticateUser(p.db, email, 'old-password')).toBeNull();
    await completePasswordReset(p.db, { token, password: 'new-password' });
    expect(await authenticateUser(p.db, email, 'new-password')).toMatchObject({ id: userId });
    expect(await staffSessionValid(p.db, userId, Date.now())).toBe(true);
    await expect(completePasswordReset(p.db, { token, password: 'third-password' })).rejects.toMatchObject({ code: 'conflict' });
    const trail = JSON.stringify(await p.db.select().from(auditEvents).where(eq(auditEvents.projectId, p.projectId)));
    expect(trail).not.toContain('new-password');
    expect(trail).not.toContain(token);
  });
});
