'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { PagerControls, usePager } from '@/app/_components/pager';
import { SecretOnce } from '@/app/_components/secret-once';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td, formatDate } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { IntegrationForm } from '../integration-form';

export function IntegrationDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const integration = useQuery(trpc.integrations.get.queryOptions({ id }));
  const pager = usePager();
  const keys = useQuery({ ...trpc.integrations.keys.queryOptions({ id, cursor: pager.cursor, limit: 20 }), placeholderData: keepPreviousData });
  const [newKey, setNewKey] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const refreshKeys = () => queryClient.invalidateQueries({ queryKey: trpc.integrations.keys.queryKey({ id }) });
  const update = useMutation(
    trpc.integrations.update.mutationOptions({
      onSuccess: async (i) => {
        queryClient.setQueryData(trpc.integrations.get.queryKey({ id }), i);
        await queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() });
        setSaved(true);
      },
    }),
  );
  const createKey = useMutation(trpc.integrations.createKey.mutationOptions({ onSuccess: async (k) => { setNewKey(k.key); await refreshKeys(); } }));
  const revokeKey = useMutation(trpc.integrations.revokeKey.mutationOptions({ onSuccess: refreshKeys }));
  const remove = useMutation(
    trpc.integrations.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() });
        router.push('/integrations');
      },
    }),
  );

  if (integration.isPending) return <Loading label="Loading integration…" />;
  if (integration.error) return <ErrorNotice error={integration.error} onRetry={() => void integration.refetch()} />;
  const i = integration.data;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/integrations" className="text-brand-700 hover:underline">
          ← All integrations
        </Link>
      </p>
      <PageHeader
        title={i.display}
        description={`Integration #${i.id} · created ${formatDate(i.createdAt)}`}
        actions={
          <Button
            variant="danger"
            busy={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete ${i.display}? Its API keys stop working at once.`)) remove.mutate({ id });
            }}
          >
            Delete integration
          </Button>
        }
      />
      <ErrorNotice error={remove.error} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Settings">
          {saved && !update.isPending && !update.error && (
            <p role="status" className="mb-3 text-sm text-emerald-700">
              Saved.
            </p>
          )}
          <IntegrationForm
            initial={i}
            submitLabel="Save changes"
            busy={update.isPending}
            error={update.error}
            onSubmit={(changes) => {
              setSaved(false);
              update.mutate({ id, changes });
            }}
          />
        </Card>
        <Card
          title="API keys"
          actions={
            <Button variant="secondary" busy={createKey.isPending} onClick={() => createKey.mutate({ id })}>
              Create API key
            </Button>
          }
        >
          {newKey && (
            <div className="mb-4">
              <SecretOnce label="New API key" secret={newKey} onDone={() => setNewKey(null)} />
            </div>
          )}
          <ErrorNotice error={createKey.error ?? revokeKey.error} />
          {keys.isPending ? (
            <Loading label="Loading keys…" />
          ) : keys.error ? (
            <ErrorNotice error={keys.error} onRetry={() => void keys.refetch()} />
          ) : keys.data.items.length === 0 ? (
            <EmptyState title="No API keys">Create one to let this integration call the API.</EmptyState>
          ) : (
            <Table caption="API keys" head={['Key', 'Created', 'Status', '']}>
              {keys.data.items.map((k) => (
                <tr key={k.id}>
                  <Td className="font-mono text-xs">{k.prefix}…</Td>
                  <Td className="whitespace-nowrap text-slate-500">{formatDate(k.createdAt)}</Td>
                  <Td>{k.revokedAt ? <Badge tone="red">revoked</Badge> : <Badge tone="green">active</Badge>}</Td>
                  <Td className="text-right">
                    {!k.revokedAt && (
                      <Button
                        variant="ghost"
                        className="text-red-700"
                        aria-label={`Revoke key ${k.prefix}`}
                        onClick={() => {
                          if (window.confirm(`Revoke ${k.prefix}…? Calls with it fail from now on.`)) revokeKey.mutate({ id, keyId: k.id });
                        }}
                      >
                        Revoke
                      </Button>
                    )}
                  </Td>
                </tr>
              ))}
            </Table>
          )}
          <PagerControls pager={pager} next={keys.data?.next} />
        </Card>
      </div>
    </>
  );
}
