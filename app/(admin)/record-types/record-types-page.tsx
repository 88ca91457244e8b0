'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td, TextField } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { checkWith } from '@/app/_components/form-validation';
import { createRecordTypeInput } from '@/server/services/records/schemas';
import { When } from '@/app/_components/when';

const PAGE_SIZE = 25;

export function RecordTypesPage() {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [creating, setCreating] = useState(false);
  const pager = usePager();
  const list = useQuery({ ...trpc.recordTypes.list.queryOptions({ cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const create = useMutation(
    saving(trpc.recordTypes.create.mutationOptions({
      onSuccess: async (t) => {
        await queryClient.invalidateQueries({ queryKey: trpc.recordTypes.list.queryKey() });
        router.push(`/record-types/${t.type}`);
      },
    }), (t) => `Record type ${t.type} created`, { quietErrors: true }),
  );
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(create.error), ...local };

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const roles = String(form.get('roles') ?? '')
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    const checked = checkWith(createRecordTypeInput, { type: String(form.get('type') ?? '').trim(), permissions: Object.fromEntries(roles.map((r) => [r, { read: true }])) });
    setLocal(checked.errors ?? {});
    if (checked.value) create.mutate(checked.value);
  }

  return (
    <>
      <PageHeader
        title="Record types"
        description="Each type decides which roles may read (and write) their own records of it. Admins always read everything."
        actions={isAdmin && !creating && <Button onClick={() => setCreating(true)}>New record type</Button>}
      />
      {creating && (
        <Card title="New record type" className="mb-6">
          <form onSubmit={submit} className="space-y-4" noValidate aria-label="New record type">
            <ErrorNotice error={formErrorOf(create.error)} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Type" name="type" placeholder="profile" error={errors.type} hint="Used in the API path: /api/v1/record/<type>" />
              <TextField
                label="Roles that may read"
                name="roles"
                placeholder="user, caregiver"
                error={Object.entries(errors).find(([k]) => k.startsWith('permissions'))?.[1]}
                hint="Comma-separated; fine-tune read and write on the next page"
              />
            </div>
            <div className="flex gap-2">
              <Button type="submit" busy={create.isPending}>
                Create record type
              </Button>
              <Button variant="secondary" onClick={() => setCreating(false)}>
                Cancel
              </Button>
            </div>
          </form>
        </Card>
      )}
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading record types…" />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title="No record types yet" action={isAdmin && <Button onClick={() => setCreating(true)}>New record type</Button>}>
          Without a record type, records of a type are readable by admins only.
        </EmptyState>
      ) : (
        list.data && (
          <Table caption="Record types" head={['Type', 'Read', 'Write', 'Updated']}>
            {list.data.items.map((t) => {
              const granted = (flag: 'read' | 'write') => Object.entries(t.permissions).filter(([, f]) => f[flag]).map(([role]) => role);
              return (
                <tr key={t.id} className="hover:bg-slate-50">
                  <Td>
                    <Link href={`/record-types/${t.type}`} className="font-medium text-brand-700 hover:underline">
                      {t.type}
                    </Link>
                  </Td>
                  {(['read', 'write'] as const).map((flag) => (
                    <Td key={flag}>
                      <span className="flex flex-wrap gap-1">
                        <Badge tone="amber">admin</Badge>
                        {granted(flag).map((r) => (
                          <Badge key={r}>{r}</Badge>
                        ))}
                      </span>
                    </Td>
                  ))}
                  <Td className="whitespace-nowrap text-slate-500"><When at={t.updatedAt} /></Td>
                </tr>
              );
            })}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
