'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf, parseJsonObject } from '@/app/_components/errors';
import { Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, TextAreaField, TextField } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { checkWith } from '@/app/_components/form-validation';
import { createIdentityProviderInput, updateIdentityProviderInput, type IdentityProviderDto } from '@/server/services/identity/schemas';
import type { z } from 'zod';
import { When } from '@/app/_components/when';

const PAGE_SIZE = 25;

type Provider = IdentityProviderDto;
/** What the form submits: every field when creating (checked with the create schema), the changes when editing. */
type Values = z.output<typeof updateIdentityProviderInput>;

function ProviderForm({ initial, submitLabel, busy, error, onSubmit, onCancel }: {
  initial?: Provider;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (v: Values) => void;
  onCancel: () => void;
}) {
  const [mappingText, setMappingText] = useState(JSON.stringify(initial?.mapping ?? { name: 'name', email: 'email' }, null, 2));
  const [mappingError, setMappingError] = useState<string | undefined>();
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(error), ...local };
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const mapping = parseJsonObject(mappingText);
    setMappingError(mapping.error);
    if (mapping.error) return;
    const secret = String(f.get('clientSecret') ?? '');
    const values = {
      display: String(f.get('display') ?? '').trim(),
      issuer: String(f.get('issuer') ?? '').trim(),
      clientId: String(f.get('clientId') ?? '').trim(),
      ...(secret || !initial ? { clientSecret: secret } : {}),
      mapping: mapping.value,
    };
    // Creating needs every field; editing leaves out the secret unless a new one was typed.
    const checked = checkWith(initial ? updateIdentityProviderInput : createIdentityProviderInput, values);
    setLocal(checked.errors ?? {});
    if (checked.value) onSubmit(checked.value);
  }
  const mappingServerError = Object.entries(errors).find(([k]) => k.startsWith('mapping'));
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={submitLabel}>
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" name="display" defaultValue={initial?.display} error={errors.display} placeholder="Clinic login" />
        <TextField label="Issuer" name="issuer" defaultValue={initial?.issuer} error={errors.issuer} placeholder="https://login.example.org" />
        <TextField label="Client ID" name="clientId" defaultValue={initial?.clientId} error={errors.clientId} />
        <TextField
          label="Client secret"
          name="clientSecret"
          type="password"
          autoComplete="off"
          error={errors.clientSecret}
          placeholder={initial ? 'unchanged' : ''}
          hint={initial ? 'Leave empty to keep the current secret (it is never shown).' : 'Stored encrypted; never shown again.'}
        />
      </div>
      <TextAreaField
        label="Claim mapping (JSON)"
        rows={4}
        value={mappingText}
        onChange={(e) => {
          setMappingText(e.target.value);
          setMappingError(parseJsonObject(e.target.value).error);
        }}
        error={mappingError ?? (mappingServerError ? `${mappingServerError[0]}: ${mappingServerError[1]}` : undefined)}
        hint="Target field (name, email, externalId, role) to claim name. The mapped values reach account_link as `mapped`."
      />
      <div className="flex gap-2">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function IdentityProvidersPage({ origin }: { origin: string }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const pager = usePager();
  const list = useQuery({ ...trpc.identityProviders.list.queryOptions({ cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.identityProviders.list.queryKey() });
  const create = useMutation(saving(trpc.identityProviders.create.mutationOptions({ onSuccess: async () => (await refresh(), setEditing(null)) }), (p) => `Identity provider “${p.display}” added`, { quietErrors: true }));
  const update = useMutation(saving(trpc.identityProviders.update.mutationOptions({ onSuccess: async () => (await refresh(), setEditing(null)) }), (p) => `Identity provider “${p.display}” saved`, { quietErrors: true }));
  const remove = useMutation(saving(trpc.identityProviders.delete.mutationOptions({ onSuccess: refresh }), 'Identity provider removed'));

  return (
    <>
      <PageHeader
        title="Identity providers"
        description="OpenID Connect providers members (and staff) sign in with. A new account is linked by the account_link webhook, or by default to the member with the same email."
        actions={editing === null && <Button onClick={() => setEditing('new')}>New identity provider</Button>}
      />
      {editing === 'new' && (
        <Card title="New identity provider" className="mb-6">
          <ProviderForm submitLabel="Create identity provider" busy={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v as z.output<typeof createIdentityProviderInput>)} onCancel={() => setEditing(null)} />
        </Card>
      )}
      <ErrorNotice error={list.error ?? remove.error} onRetry={list.error ? () => void list.refetch() : undefined} />
      {list.isPending ? (
        <Loading label="Loading identity providers…" />
      ) : list.data?.items.length === 0 ? (
        editing === null && (
          <EmptyState title="No identity providers yet" action={<Button onClick={() => setEditing('new')}>New identity provider</Button>}>
            Add one to let members sign in and see their own records.
          </EmptyState>
        )
      ) : (
        <ul className="space-y-4" aria-label="Identity providers">
          {list.data?.items.map((p) => (
            <li key={p.id}>
              <Card
                title={p.display}
                actions={
                  editing !== p.id && (
                    <span className="flex gap-1">
                      <Button variant="ghost" onClick={() => setEditing(p.id)}>
                        Edit
                      </Button>
                      <Button
                        variant="ghost"
                        className="text-red-700"
                        onClick={() => {
                          if (window.confirm(`Delete ${p.display}? Its account links go with it.`)) remove.mutate({ id: p.id });
                        }}
                      >
                        Delete
                      </Button>
                    </span>
                  )
                }
              >
                {editing === p.id ? (
                  <ProviderForm initial={p} submitLabel="Save changes" busy={update.isPending} error={update.error} onSubmit={(changes) => update.mutate({ id: p.id, changes })} onCancel={() => setEditing(null)} />
                ) : (
                  <dl className="grid grid-cols-[10rem_1fr] gap-y-1.5 text-sm">
                    <dt className="text-slate-500">Issuer</dt>
                    <dd className="break-all font-mono text-xs">{p.issuer}</dd>
                    <dt className="text-slate-500">Client ID</dt>
                    <dd className="break-all font-mono text-xs">{p.clientId}</dd>
                    <dt className="text-slate-500">Redirect URI</dt>
                    <dd className="break-all font-mono text-xs">{`${origin}/api/auth/callback/idp-${p.id}`}</dd>
                    <dt className="text-slate-500">Mapping</dt>
                    <dd className="text-xs">
                      {Object.entries(p.mapping).map(([field, claim]) => (
                        <span key={field} className="block break-all">
                          {field} from claim <code className="font-mono">{String(claim)}</code>
                        </span>
                      ))}
                    </dd>
                    <dt className="text-slate-500">Created</dt>
                    <dd><When at={p.createdAt} /></dd>
                  </dl>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
