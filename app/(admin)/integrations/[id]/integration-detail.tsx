'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { fieldErrorsOf } from '@/app/_components/errors';
import { History } from '@/app/_components/history';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useSaving } from '@/app/_components/saving';
import { SecretOnce } from '@/app/_components/secret-once';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, Td, TextField } from '@/app/_components/ui';
import { When, useTimeZone } from '@/app/_components/when';
import { startOfDayIn } from '@/app/_components/zoned';
import { useTRPC } from '@/app/_trpc/client';
import type { ApiKeyDto } from '@/server/services/integrations/schemas';
import { IntegrationForm } from '../integration-form';

/** Whether a key works now: revoked and expired ones answer 401. */
function keyState(k: ApiKeyDto): { label: string; tone: 'green' | 'red' | 'slate' | 'amber' } {
  if (k.revokedAt) return { label: 'Revoked', tone: 'red' };
  if (k.expiresAt && new Date(k.expiresAt) <= new Date()) return { label: 'Expired', tone: 'slate' };
  if (k.expiresAt && new Date(k.expiresAt).getTime() - Date.now() < 7 * 86_400_000) return { label: 'Expires soon', tone: 'amber' };
  return { label: 'Active', tone: 'green' };
}

export function IntegrationDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const saving = useSaving();
  const integration = useQuery(trpc.integrations.get.queryOptions({ id }));
  const pager = usePager();
  const keys = useQuery({ ...trpc.integrations.keys.queryOptions({ id, cursor: pager.cursor, limit: 20 }), placeholderData: keepPreviousData });
  const [newKey, setNewKey] = useState<{ name: string; key: string } | null>(null);
  const refreshKeys = () => queryClient.invalidateQueries({ queryKey: trpc.integrations.keys.queryKey({ id }) });
  const update = useMutation(
    saving(
      trpc.integrations.update.mutationOptions({
        onSuccess: async (i) => {
          queryClient.setQueryData(trpc.integrations.get.queryKey({ id }), i);
          await queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() });
        },
      }),
      'Integration saved',
      { quietErrors: true },
    ),
  );
  const createKey = useMutation(
    saving(trpc.integrations.createKey.mutationOptions({ onSuccess: async (k) => (setNewKey({ name: k.name, key: k.key }), await refreshKeys()) }), (k) => `Key “${k.name}” created`, { quietErrors: true }),
  );
  const revokeKey = useMutation(saving(trpc.integrations.revokeKey.mutationOptions({ onSuccess: refreshKeys }), 'Key revoked: calls with it fail from now on'));
  const remove = useMutation(
    saving(
      trpc.integrations.delete.mutationOptions({
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() });
          router.push('/integrations');
        },
      }),
      'Integration deleted',
    ),
  );

  if (integration.isPending) return <Loading label="Loading integration…" />;
  if (integration.error) return <ErrorNotice error={integration.error} onRetry={() => void integration.refetch()} />;
  const i = integration.data;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/integrations" className="text-brand-700">
          ← All integrations
        </Link>
      </p>
      <PageHeader
        title={i.display}
        description={<>Integration {i.id} · created <When at={i.createdAt} style="day" /></>}
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
      <div className="grid gap-6 lg:grid-cols-[22rem_1fr]">
        <Card title="Settings" className="self-start">
          <IntegrationForm key={i.updatedAt} initial={i} submitLabel="Save changes" busy={update.isPending} error={update.error} onSubmit={(changes) => update.mutate({ id, changes })} />
        </Card>
        <div className="space-y-6">
          <Card title="API keys">
            {newKey && (
              <div className="mb-4">
                <SecretOnce label={`New API key “${newKey.name}”`} secret={newKey.key} onDone={() => setNewKey(null)} />
              </div>
            )}
            <NewKeyForm busy={createKey.isPending} error={createKey.error} onCreate={(key) => createKey.mutate({ id, key })} />
            {keys.isPending ? (
              <Loading label="Loading keys…" />
            ) : keys.error ? (
              <ErrorNotice error={keys.error} onRetry={() => void keys.refetch()} />
            ) : keys.data.items.length === 0 ? (
              <EmptyState title="No API keys">Create one to let this integration call the API.</EmptyState>
            ) : (
              <Table caption="API keys" head={['Key', 'Made by', 'Last used', 'Expires', 'Status', '']}>
                {keys.data.items.map((k) => {
                  const state = keyState(k);
                  return (
                    <tr key={k.id}>
                      <Td>
                        <span className="block font-medium text-slate-900">{k.name}</span>
                        <span className="block font-mono text-xs text-slate-600">{k.prefix}…</span>
                      </Td>
                      <Td>
                        <span className="block">{k.createdBy?.name ?? (k.createdBy?.type === 'system' ? 'Carebase' : '—')}</span>
                        <span className="block whitespace-nowrap text-xs text-slate-600">
                          <When at={k.createdAt} style="day" />
                        </span>
                      </Td>
                      <Td className="whitespace-nowrap">{k.lastUsedAt ? <When at={k.lastUsedAt} style="relative" /> : <span className="text-slate-600">never</span>}</Td>
                      <Td className="whitespace-nowrap">{k.expiresAt ? <When at={k.expiresAt} style="day" /> : <span className="text-slate-600">never</span>}</Td>
                      <Td>
                        <Badge tone={state.tone}>{state.label}</Badge>
                      </Td>
                      <Td className="text-right">
                        {!k.revokedAt && (
                          <Button
                            variant="ghost"
                            className="text-red-700"
                            aria-label={`Revoke key ${k.name}`}
                            onClick={() => {
                              if (window.confirm(`Revoke “${k.name}” (${k.prefix}…)? Calls with it fail from now on.`)) revokeKey.mutate({ id, keyId: k.id });
                            }}
                          >
                            Revoke
                          </Button>
                        )}
                      </Td>
                    </tr>
                  );
                })}
              </Table>
            )}
            <PagerControls pager={pager} query={keys} />
          </Card>
          <History resource="integration" resourceId={id} />
        </div>
      </div>
    </>
  );
}

/** A new key: a name people recognise, and optionally the day it stops working. */
function NewKeyForm({ busy, error, onCreate }: { busy: boolean; error: unknown; onCreate: (key: { name?: string; expiresAt?: string }) => void }) {
  const timeZone = useTimeZone();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const errors = fieldErrorsOf(error);
  return (
    <form
      aria-label="Create an API key"
      className="mb-4 grid gap-3 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200 sm:grid-cols-[1fr_11rem_auto] sm:items-start"
      onSubmit={(e) => {
        e.preventDefault();
        // Expires at the end of the chosen day in the project's zone.
        onCreate({ ...(name.trim() ? { name: name.trim() } : {}), ...(expires ? { expiresAt: new Date(startOfDayIn(expires, timeZone).getTime() + 86_400_000).toISOString() } : {}) });
        setName('');
        setExpires('');
      }}
    >
      <TextField label="Key name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Nightly sync" error={errors.name} hint="Default: Key 1, Key 2, …" />
      <TextField label="Expires after" type="date" value={expires} onChange={(e) => setExpires(e.target.value)} error={errors.expiresAt} hint="Optional" />
      <Button type="submit" variant="secondary" busy={busy} className="sm:mt-6">
        Create API key
      </Button>
    </form>
  );
}
