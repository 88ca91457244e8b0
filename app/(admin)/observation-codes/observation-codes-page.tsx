'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { checkWith } from '@/app/_components/form-validation';
import { createObservationCodeInput, OBSERVATION_TYPES, type ObservationCodeDto } from '@/server/services/careplans/schemas';
import type { z } from 'zod';

const PAGE_SIZE = 25;

type Code = ObservationCodeDto;

function CodeForm({ initial, submitLabel, busy, error, onSubmit, onCancel }: {
  initial?: Code;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (v: z.output<typeof createObservationCodeInput>) => void;
  onCancel: () => void;
}) {
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(error), ...local };
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const checked = checkWith(createObservationCodeInput, { slug: String(f.get('slug') ?? '').trim(), display: String(f.get('display') ?? '').trim(), type: String(f.get('type') ?? initial?.type ?? 'date') });
    setLocal(checked.errors ?? {});
    if (checked.value) onSubmit(checked.value);
  }
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={submitLabel}>
      <ErrorNotice error={formErrorOf(error)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="Display name" name="display" defaultValue={initial?.display} error={errors.display} placeholder="Surgery date" />
        <TextField label="Slug" name="slug" defaultValue={initial?.slug} error={errors.slug} placeholder="surgery-date" />
        <SelectField label="Type" name="type" defaultValue={initial?.type ?? 'date'} disabled={Boolean(initial)} error={errors.type} hint={initial ? 'Fixed: observations depend on it' : 'Only date codes can anchor a schedule'}>
          {OBSERVATION_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
      </div>
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

export function ObservationCodesPage() {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const isAdmin = useIsAdmin();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const pager = usePager();
  const list = useQuery({ ...trpc.observationCodes.list.queryOptions({ cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.observationCodes.list.queryKey() });
  const create = useMutation(saving(trpc.observationCodes.create.mutationOptions({ onSuccess: async () => (await refresh(), setEditing(null)) }), (c) => `Code “${c.display}” created`, { quietErrors: true }));
  const update = useMutation(saving(trpc.observationCodes.update.mutationOptions({ onSuccess: async () => (await refresh(), setEditing(null)) }), (c) => `Code “${c.display}” saved`, { quietErrors: true }));
  const editingCode = typeof editing === 'number' ? list.data?.items.find((c) => c.id === editing) : undefined;

  return (
    <>
      <PageHeader
        title="Observation codes"
        description="The data points templates schedule from (reference dates such as a surgery date), and other observations about members."
        actions={isAdmin && editing === null && <Button onClick={() => setEditing('new')}>New observation code</Button>}
      />
      {editing === 'new' && (
        <Card title="New observation code" className="mb-6">
          <CodeForm submitLabel="Create observation code" busy={create.isPending} error={create.error} onSubmit={(v) => create.mutate(v)} onCancel={() => setEditing(null)} />
        </Card>
      )}
      {editingCode && (
        <Card title={`Edit ${editingCode.display}`} className="mb-6">
          <CodeForm
            initial={editingCode}
            submitLabel="Save changes"
            busy={update.isPending}
            error={update.error}
            onSubmit={({ slug, display }) => update.mutate({ id: editingCode.id, changes: { slug, display } })}
            onCancel={() => setEditing(null)}
          />
        </Card>
      )}
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading observation codes…" />
      ) : list.data?.items.length === 0 ? (
        editing === null && (
          <EmptyState title="No observation codes yet" action={isAdmin && <Button onClick={() => setEditing('new')}>New observation code</Button>}>
            Create a date code (for example a surgery date) before building a template around it.
          </EmptyState>
        )
      ) : (
        list.data && (
          <Table caption="Observation codes" head={['Display name', 'Slug', 'Type', '']}>
            {list.data.items.map((c) => (
              <tr key={c.id}>
                <Td className="font-medium text-slate-900">{c.display}</Td>
                <Td className="font-mono text-xs">{c.slug}</Td>
                <Td>
                  <Badge tone={c.type === 'date' ? 'brand' : 'slate'}>{c.type}</Badge>
                </Td>
                <Td className="text-right">
                  {isAdmin && (
                    <Button variant="ghost" aria-label={`Edit ${c.display}`} onClick={() => setEditing(c.id)}>
                      Edit
                    </Button>
                  )}
                </Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
