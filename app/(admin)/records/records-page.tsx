'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { parseJsonObject } from '@/app/_components/errors';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, TextAreaField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { RecordForm } from './record-form';
import { RecordRow } from './record-row';

const LIMIT = 25;

export function RecordsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isAdmin = useIsAdmin();
  const [type, setType] = useState('');
  const [memberId, setMemberId] = useState('');
  const [fieldsText, setFieldsText] = useState('');
  const [creating, setCreating] = useState(false);
  const pager = usePager();
  const fieldsFilter = fieldsText.trim() === '' ? { value: undefined } : parseJsonObject(fieldsText);

  const types = useQuery(trpc.recordTypes.list.queryOptions());
  const members = useQuery(trpc.members.list.queryOptions({ limit: 200, afterId: 0 }));
  const list = useQuery({
    ...trpc.records.list.queryOptions({
      type: type || undefined,
      memberId: memberId ? Number(memberId) : undefined,
      fields: fieldsFilter.value,
      limit: LIMIT,
      afterId: pager.afterId,
    }),
    enabled: !fieldsFilter.error,
    placeholderData: keepPreviousData,
  });
  const create = useMutation(
    trpc.records.create.mutationOptions({
      onSuccess: async () => {
        setCreating(false);
        await queryClient.invalidateQueries({ queryKey: trpc.records.list.queryKey() });
      },
    }),
  );

  const memberLabel = new Map((members.data ?? []).map((m) => [m.id, m.name ?? m.email ?? `Member #${m.id}`]));
  const rows = list.data ?? [];
  const filtered = Boolean(type || memberId || fieldsText.trim());
  const typeNames = (types.data ?? []).map((t) => t.type);

  return (
    <>
      <PageHeader
        title="Records"
        description="Free-form, non-medical member information that integrations share."
        actions={isAdmin && !creating && <Button onClick={() => setCreating(true)}>New record</Button>}
      />
      {creating && (
        <Card title="New record" className="mb-6">
          <RecordForm
            types={typeNames}
            members={(members.data ?? []).slice(0, 200).map((m) => ({ id: m.id, label: `${m.name ?? m.email ?? 'Member'} (#${m.id})` }))}
            busy={create.isPending}
            error={create.error}
            onSubmit={(v) => create.mutate(v)}
            onCancel={() => setCreating(false)}
          />
        </Card>
      )}
      <section aria-label="Filters" className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 md:grid-cols-[12rem_14rem_1fr]">
        <SelectField
          label="Type"
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            pager.reset();
          }}
        >
          <option value="">All types</option>
          {typeNames.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Member"
          value={memberId}
          onChange={(e) => {
            setMemberId(e.target.value);
            pager.reset();
          }}
        >
          <option value="">All members</option>
          {(members.data ?? []).slice(0, 200).map((m) => (
            <option key={m.id} value={m.id}>
              {memberLabel.get(m.id)} (#{m.id})
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Fields filter (JSON)"
          rows={1}
          placeholder='{"plan": "premium"}'
          value={fieldsText}
          onChange={(e) => {
            setFieldsText(e.target.value);
            pager.reset();
          }}
          error={fieldsFilter.error}
          hint="Records whose fields contain this object"
        />
      </section>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending && !fieldsFilter.error ? (
        <Loading label="Loading records…" />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No records match these filters">Clear a filter, or check the fields JSON.</EmptyState>
        ) : (
          <EmptyState title="No records yet" action={isAdmin && <Button onClick={() => setCreating(true)}>New record</Button>}>
            Integrations create records with POST /api/v1/record/&lt;type&gt;.
          </EmptyState>
        )
      ) : (
        <>
          <Table caption="Records" head={['ID', 'Type', 'Member', 'Fields', 'Updated', '']}>
            {rows.slice(0, LIMIT).map((r) => (
              <RecordRow key={r.id} record={r} memberLabel={memberLabel.get(r.memberId) ?? `Member #${r.memberId}`} />
            ))}
          </Table>
          <PagerControls pager={pager} rows={rows} limit={LIMIT} />
        </>
      )}
    </>
  );
}
