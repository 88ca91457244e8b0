'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useState } from 'react';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td, TextField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { MemberForm } from './member-form';
import { When } from '@/app/_components/when';

const LIMIT = 25;

export function MembersPage() {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [creating, setCreating] = useState(false);
  const pager = usePager();
  const deferredSearch = useDeferredValue(search);
  const list = useQuery({
    ...trpc.members.list.queryOptions({ search: deferredSearch || undefined, role: role || undefined, limit: LIMIT, cursor: pager.cursor }),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(
    saving(trpc.members.create.mutationOptions({
      onSuccess: async (member) => {
        await queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
        router.push(`/members/${member.id}`);
      },
    }), (m) => `${m.name ?? 'Member'} added`, { quietErrors: true }),
  );
  const rows = list.data?.items ?? [];
  const filtered = Boolean(search || role);

  return (
    <>
      <PageHeader
        title="Members"
        description="The people this project cares for. Integrations usually create them through the API."
        actions={isAdmin && !creating && <Button onClick={() => setCreating(true)}>New member</Button>}
      />
      {creating && (
        <Card title="New member" className="mb-6">
          <MemberForm submitLabel="Create member" busy={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v)} onCancel={() => setCreating(false)} />
        </Card>
      )}
      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem]" role="search">
        <TextField
          label="Search"
          type="search"
          placeholder="Name or email"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            pager.reset();
          }}
        />
        <TextField
          label="Role"
          placeholder="any"
          value={role}
          onChange={(e) => {
            setRole(e.target.value.trim());
            pager.reset();
          }}
        />
      </div>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading members…" />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No members match">Try another name, email or role.</EmptyState>
        ) : (
          <EmptyState title="No members yet" action={isAdmin && <Button onClick={() => setCreating(true)}>New member</Button>}>
            Members are the people whose records and care plans Carebase keeps.
          </EmptyState>
        )
      ) : (
        <>
          <Table caption="Members" head={['Name', 'Email', 'Role', 'External ID', 'Created']}>
            {rows.map((m) => (
              <tr key={m.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/members/${m.id}`} className="font-medium text-brand-700 hover:underline">
                    {m.name ?? `Member #${m.id}`}
                  </Link>
                </Td>
                <Td>{m.email ?? <span className="text-slate-500">—</span>}</Td>
                <Td>
                  <Badge tone={m.role === 'admin' ? 'amber' : 'slate'}>{m.role}</Badge>
                </Td>
                <Td className="font-mono text-xs">{m.externalId ?? <span className="text-slate-500">—</span>}</Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={m.createdAt} /></Td>
              </tr>
            ))}
          </Table>
          <PagerControls pager={pager} query={list} />
        </>
      )}
    </>
  );
}
