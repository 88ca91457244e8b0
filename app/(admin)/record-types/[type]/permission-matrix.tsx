'use client';

import { sameValue } from '@/app/_components/same-value';
import { useUnsavedChanges } from '@/app/_components/unsaved';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf } from '@/app/_components/errors';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Button, Card, ErrorNotice, Loading, PageHeader, TextField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';

type Flags = { read?: boolean; write?: boolean };
const ROLE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function PermissionMatrixPage({ type }: { type: string }) {
  const trpc = useTRPC();
  const recordType = useQuery(trpc.recordTypes.get.queryOptions({ type }));
  if (recordType.isPending) return <Loading label="Loading record type…" />;
  if (recordType.error) {
    return (
      <>
        <PageHeader title={type} />
        <ErrorNotice error={recordType.error} />
      </>
    );
  }
  return <Editor key={type} type={type} initial={recordType.data.permissions} />;
}

function Editor({ type, initial }: { type: string; initial: Record<string, Flags> }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [matrix, setMatrix] = useState<Record<string, Flags>>(initial);
  const [newRole, setNewRole] = useState('');
  const [roleError, setRoleError] = useState<string | null>(null);
  const save = useMutation(
    saving(
      trpc.recordTypes.update.mutationOptions({
        onSuccess: async (t) => {
          queryClient.setQueryData(trpc.recordTypes.get.queryKey({ type }), t);
          await queryClient.invalidateQueries({ queryKey: trpc.recordTypes.list.queryKey() });
        },
      }),
      'Permissions saved',
      { quietErrors: true },
    ),
  );
  const remove = useMutation(
    saving(trpc.recordTypes.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.recordTypes.list.queryKey() });
        router.push('/record-types');
      },
    }), 'Record type deleted'),
  );
  const roles = Object.keys(matrix).sort();
  // Compared as values: the server answers roles in its own key order (a JSON text comparison stayed dirty).
  const dirty = !sameValue(matrix, initial);
  useUnsavedChanges(dirty && !save.isPending);
  const serverErrors = fieldErrorsOf(save.error);

  function toggle(role: string, flag: 'read' | 'write', value: boolean) {
    setMatrix((m) => ({ ...m, [role]: { ...m[role], [flag]: value } }));
  }

  function addRole(e: FormEvent) {
    e.preventDefault();
    const role = newRole.trim();
    if (!ROLE.test(role)) return setRoleError('A role starts with a letter: letters, digits, _ or -');
    if (role === 'admin') return setRoleError('Admins always read and write every record');
    if (matrix[role]) return setRoleError(`${role} is already in the table`);
    setRoleError(null);
    setNewRole('');
    setMatrix((m) => ({ ...m, [role]: { read: true } }));
  }

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/record-types" className="text-brand-700 hover:underline">
          ← All record types
        </Link>
      </p>
      <PageHeader
        title={type}
        description={`Records at /api/v1/record/${type}. A role with read sees only its own records of this type; write lets it create, change and delete them.`}
        actions={
          isAdmin && (
            <Button
              variant="danger"
              busy={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete the record type ${type}?`)) remove.mutate({ type });
              }}
            >
              Delete type
            </Button>
          )
        }
      />
      <ErrorNotice error={remove.error} />
      <Card title="Permissions">
        <table className="w-full max-w-xl text-sm">
          <caption className="sr-only">Permissions by role</caption>
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th scope="col" className="py-2">
                Role
              </th>
              <th scope="col" className="w-24 py-2 text-center">
                Read
              </th>
              <th scope="col" className="w-24 py-2 text-center">
                Write
              </th>
              <th scope="col" className="w-24 py-2">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            <tr>
              <th scope="row" className="py-2 text-left font-medium text-slate-700">
                admin <span className="font-normal text-slate-500">(built in)</span>
              </th>
              <td className="text-center">
                <input type="checkbox" checked disabled aria-label="admin may read" className="size-4 accent-brand-600" />
              </td>
              <td className="text-center">
                <input type="checkbox" checked disabled aria-label="admin may write" className="size-4 accent-brand-600" />
              </td>
              <td />
            </tr>
            {roles.map((role) => (
              <tr key={role}>
                <th scope="row" className="py-2 text-left font-medium text-slate-900">
                  {role}
                  {serverErrors[`permissions.${role}`] && <p className="text-xs text-red-700">{serverErrors[`permissions.${role}`]}</p>}
                </th>
                {(['read', 'write'] as const).map((flag) => (
                  <td key={flag} className="text-center">
                    <input
                      type="checkbox"
                      className="size-4 accent-brand-600"
                      aria-label={`${role} may ${flag}`}
                      checked={Boolean(matrix[role]?.[flag])}
                      disabled={!isAdmin}
                      onChange={(e) => toggle(role, flag, e.target.checked)}
                    />
                  </td>
                ))}
                <td className="text-right">
                  {isAdmin && (
                    <Button
                      variant="ghost"
                      aria-label={`Remove ${role}`}
                      onClick={() => {
                        setMatrix(({ [role]: _removed, ...rest }) => rest);
                      }}
                    >
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {roles.length === 0 && <p className="mt-2 text-sm text-slate-500">No role besides admin may read records of this type yet.</p>}
        {isAdmin && (
          <>
            <form onSubmit={addRole} className="mt-4 flex max-w-xl items-end gap-2">
              <TextField label="Add a role" placeholder="caregiver" value={newRole} onChange={(e) => setNewRole(e.target.value)} error={roleError} className="flex-1" />
              <Button type="submit" variant="secondary" className="mb-[1px]">
                Add role
              </Button>
            </form>
            <div className="mt-6 flex items-center gap-3 border-t border-slate-100 pt-4">
              <Button busy={save.isPending} disabled={!dirty} onClick={() => save.mutate({ type, permissions: matrix })}>
                Save permissions
              </Button>
              {dirty && <span className="text-sm text-amber-700">Unsaved changes</span>}
              
            </div>
            <ErrorNotice error={save.error && !Object.keys(serverErrors).length ? save.error : null} />
          </>
        )}
      </Card>
    </>
  );
}
