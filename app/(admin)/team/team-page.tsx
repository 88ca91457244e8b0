'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { checkWith } from '@/app/_components/form-validation';
import { useSaving } from '@/app/_components/saving';
import { SecretOnce } from '@/app/_components/secret-once';
import { useIsAdmin, useStaff } from '@/app/_components/staff-context';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { When } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import { inviteInput } from '@/server/services/users/schemas';

const ROLE_LABEL = { admin: 'Admin', coordinator: 'Coordinator' } as const;
type Role = keyof typeof ROLE_LABEL;

/** The project's staff: who works here in which role, invitations, deactivation and password resets. */
export function TeamPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const saving = useSaving();
  const isAdmin = useIsAdmin();
  const me = useStaff();
  const team = useQuery(trpc.team.list.queryOptions());
  const [link, setLink] = useState<{ label: string; url: string; note: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.list.queryKey() });
  const linkOf = (path: string, token: string) => `${window.location.origin}/${path}/${token}`;

  const invite = useMutation(
    saving(
      trpc.team.invite.mutationOptions({
        onSuccess: async (r) => {
          setLink({ label: `Invitation link for ${r.invitation.email}`, url: linkOf('invite', r.token), note: 'Send this link to them yourself. It works once, for 7 days, and is not shown again.' });
          await refresh();
        },
      }),
      (r) => `Invitation for ${r.invitation.email} created`,
      { quietErrors: true },
    ),
  );
  const changeRole = useMutation(saving(trpc.team.changeRole.mutationOptions({ onSuccess: refresh }), (m) => `${m.name ?? m.email} is now ${ROLE_LABEL[m.role].toLowerCase()}`));
  const setActive = useMutation(saving(trpc.team.setActive.mutationOptions({ onSuccess: refresh }), (m) => `${m.name ?? m.email} ${m.active ? 'reactivated' : 'deactivated: their sessions have ended'}`));
  const reset = useMutation(
    saving(
      trpc.team.resetPassword.mutationOptions({
        onSuccess: async (r) => {
          setLink({ label: `Password reset link for ${r.invitation.email}`, url: linkOf('reset', r.token), note: 'Their old password no longer works and their sessions have ended. Send them this link: it works once, for 24 hours.' });
          await refresh();
        },
      }),
      'Password reset',
    ),
  );
  const revoke = useMutation(saving(trpc.team.revokeInvitation.mutationOptions({ onSuccess: refresh }), 'Invitation withdrawn'));

  return (
    <>
      <PageHeader title="Team" description={`The staff who work in ${me.projectName}. Admins manage everything; coordinators read everything and manage care plans.`} />
      {link && (
        <div className="mb-6">
          <SecretOnce label={link.label} secret={link.url} note={link.note} onDone={() => setLink(null)} />
        </div>
      )}
      {isAdmin && <InviteCard busy={invite.isPending} error={invite.error} onInvite={(v) => invite.mutate(v)} />}
      <ErrorNotice error={team.error} onRetry={() => void team.refetch()} />
      {team.isPending ? (
        <Loading label="Loading the team…" />
      ) : (
        team.data && (
          <>
            <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Staff</h2>
            <Table caption="Staff of the project" head={['Person', 'Role', 'Status', 'Joined', '']}>
              {team.data.members.map((m) => {
                const self = m.email === me.email;
                const who = m.name ?? m.email;
                return (
                  <tr key={m.userId}>
                    <Td className="min-w-44">
                      <span className="block break-words font-medium text-slate-900">{m.name ?? m.email}</span>
                      {m.name && <span className="block break-words text-slate-600">{m.email}</span>}
                    </Td>
                    <Td>
                      {isAdmin && !self ? (
                        <select
                          aria-label={`Role of ${who}`}
                          value={m.role}
                          disabled={changeRole.isPending}
                          onChange={(e) => changeRole.mutate({ userId: m.userId, role: e.target.value as Role })}
                          className="rounded-md border-0 bg-white py-1 pl-2 pr-8 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500"
                        >
                          <option value="admin">Admin</option>
                          <option value="coordinator">Coordinator</option>
                        </select>
                      ) : (
                        ROLE_LABEL[m.role]
                      )}
                    </Td>
                    <Td>{m.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Deactivated</Badge>}</Td>
                    <Td className="whitespace-nowrap">
                      <When at={m.joinedAt} style="day" />
                    </Td>
                    <Td className="whitespace-nowrap text-right">
                      {isAdmin && !self && (
                        <span className="flex justify-end gap-2">
                          {m.active && (
                            <Button
                              variant="secondary"
                              busy={reset.isPending && reset.variables?.userId === m.userId}
                              onClick={() => {
                                if (window.confirm(`Reset the password of ${who}? Their current password stops working and they are signed out at once.`)) reset.mutate({ userId: m.userId });
                              }}
                            >
                              Reset password
                            </Button>
                          )}
                          <Button
                            variant={m.active ? 'danger' : 'secondary'}
                            busy={setActive.isPending && setActive.variables?.userId === m.userId}
                            onClick={() => {
                              if (!m.active || window.confirm(`Deactivate ${who}? They lose access to ${me.projectName} at once; their history stays.`)) setActive.mutate({ userId: m.userId, active: !m.active });
                            }}
                          >
                            {m.active ? 'Deactivate' : 'Reactivate'}
                          </Button>
                        </span>
                      )}
                      {self && <span className="text-slate-600">You</span>}
                    </Td>
                  </tr>
                );
              })}
            </Table>
            {isAdmin && (
              <>
                <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Open invitations and reset links</h2>
                {team.data.invitations.length === 0 ? (
                  <EmptyState title="None open">Invitations wait here until they are accepted, withdrawn or expire.</EmptyState>
                ) : (
                  <Table caption="Open invitations" head={['For', 'Kind', 'Expires', '']}>
                    {team.data.invitations.map((i) => (
                      <tr key={i.id}>
                        <Td className="break-all">
                          {i.email}
                          {i.role && <span className="text-slate-600"> · {ROLE_LABEL[i.role]}</span>}
                        </Td>
                        <Td>{i.kind === 'invite' ? 'Invitation' : 'Password reset'}</Td>
                        <Td className="whitespace-nowrap">
                          <When at={i.expiresAt} />
                        </Td>
                        <Td className="text-right">
                          <Button variant="ghost" busy={revoke.isPending && revoke.variables?.id === i.id} onClick={() => revoke.mutate({ id: i.id })}>
                            Withdraw
                          </Button>
                        </Td>
                      </tr>
                    ))}
                  </Table>
                )}
              </>
            )}
          </>
        )
      )}
    </>
  );
}

function InviteCard({ busy, error, onInvite }: { busy: boolean; error: unknown; onInvite: (v: { email: string; role: Role }) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('coordinator');
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(error), ...local };
  return (
    <Card title="Invite someone">
      <form
        aria-label="Invite someone"
        noValidate
        className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-start"
        onSubmit={(e) => {
          e.preventDefault();
          const checked = checkWith(inviteInput, { email, role });
          setLocal(checked.errors ?? {});
          if (checked.value) onInvite(checked.value);
        }}
      >
        <TextField label="Email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
        <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)} error={errors.role}>
          <option value="coordinator">Coordinator</option>
          <option value="admin">Admin</option>
        </SelectField>
        <Button type="submit" busy={busy} className="sm:mt-6">
          Create invitation
        </Button>
      </form>
      {Boolean(error) && !errors.email && <div className="mt-3"><ErrorNotice error={formErrorOf(error)} /></div>}
      <p className="mt-3 text-xs text-slate-600">You get a link to send them. They choose their own password; the link works once, for 7 days.</p>
    </Card>
  );
}
