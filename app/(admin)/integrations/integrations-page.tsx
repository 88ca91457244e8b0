'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';

const PAGE_SIZE = 25;
import { IntegrationForm } from './integration-form';
import { When } from '@/app/_components/when';

export function IntegrationsPage() {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const pager = usePager();
  const list = useQuery({ ...trpc.integrations.list.queryOptions({ cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const create = useMutation(
    saving(trpc.integrations.create.mutationOptions({
      onSuccess: async (i) => {
        await queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() });
        router.push(`/integrations/${i.id}`);
      },
    }), (i) => `Integration “${i.display}” created`, { quietErrors: true }),
  );
  return (
    <>
      <PageHeader
        title="Integrations & API keys"
        description="Each integration calls the API with its own keys and receives webhooks at its endpoint."
        actions={!creating && <Button onClick={() => setCreating(true)}>New integration</Button>}
      />
      {creating && (
        <Card title="New integration" className="mb-6">
          <IntegrationForm submitLabel="Create integration" busy={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v)} onCancel={() => setCreating(false)} />
        </Card>
      )}
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading integrations…" />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title="No integrations yet" action={<Button onClick={() => setCreating(true)}>New integration</Button>}>
          Create one per system that talks to Carebase, then give it an API key.
        </EmptyState>
      ) : (
        list.data && (
          <Table caption="Integrations" head={['Name', 'Slug', 'Endpoint', 'Created']}>
            {list.data.items.map((i) => (
              <tr key={i.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/integrations/${i.id}`} className="font-medium text-brand-700 hover:underline">
                    {i.display}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">{i.slug}</Td>
                <Td className="font-mono text-xs">{i.endpointUrl ?? <span className="font-sans text-slate-500">—</span>}</Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={i.createdAt} /></Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
