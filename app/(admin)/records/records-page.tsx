'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { parseJsonObject } from '@/app/_components/errors';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useIsAdmin } from '@/app/_components/staff-context';
import { MemberPicker, memberLabel as labelOfMember, RecordTypeField } from '@/app/_components/pickers';
import { Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, Table, TextAreaField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { RecordForm } from './record-form';
import { RecordRow } from './record-row';

const LIMIT = 25;

export function RecordsPage() {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const isAdmin = useIsAdmin();
  const [type, setType] = useState('');
  const [member, setMember] = useState<{ id: number; label: string } | null>(null);
  const [fieldsText, setFieldsText] = useState('');
  const [creating, setCreating] = useState(false);
  const pager = usePager();
  const fieldsFilter = fieldsText.trim() === '' ? { value: undefined } : parseJsonObject(fieldsText);

  const list = useQuery({
    ...trpc.records.list.queryOptions({
      type: type || undefined,
      memberId: member?.id,
      fields: fieldsFilter.value,
      limit: LIMIT,
      cursor: pager.cursor,
    }),
    enabled: !fieldsFilter.error,
    placeholderData: keepPreviousData,
  });
  const create = useMutation(
    saving(trpc.records.create.mutationOptions({
      onSuccess: async () => {
        setCreating(false);
        await queryClient.invalidateQueries({ queryKey: trpc.records.list.queryKey() });
      },
    }), 'Record created', { quietErrors: true }),
  );

  const rows = list.data?.items ?? [];
  const names = useQuery({ ...trpc.members.names.queryOptions({ ids: rows.map((r) => r.memberId) }), enabled: rows.length > 0, placeholderData: keepPreviousData });
  const memberLabelOf = new Map((names.data ?? []).map((m) => [m.id, labelOfMember(m)]));
  const filtered = Boolean(type || member || fieldsText.trim());

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
            busy={create.isPending}
            error={create.error}
            onSubmit={(v) => create.mutate(v)}
            onCancel={() => setCreating(false)}
          />
        </Card>
      )}
      <section aria-label="Filters" className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 md:grid-cols-[12rem_14rem_1fr]">
        <div>
          <RecordTypeField
            value={type}
            placeholder="All types"
            onChange={(t) => {
              setType(t);
              pager.reset();
            }}
          />
        </div>
        <MemberPicker
          value={member?.id ?? null}
          selectedLabel={member?.label}
          placeholder="All members"
          onChange={(o) => {
            setMember(o);
            pager.reset();
          }}
        />
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
            {rows.map((r) => (
              <RecordRow key={r.id} record={r} memberLabel={memberLabelOf.get(r.memberId) ?? `Member #${r.memberId}`} />
            ))}
          </Table>
          <PagerControls pager={pager} query={list} />
        </>
      )}
    </>
  );
}
