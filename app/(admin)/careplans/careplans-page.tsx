'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { CAREPLAN_TONE } from '@/app/_components/activity-status';
import { PagerControls, usePager } from '@/app/_components/pager';
import { DefinitionPicker, MemberPicker, memberLabel } from '@/app/_components/pickers';
import type { PickOption } from '@/app/_components/search-select';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { CAREPLAN_STATUSES, createCareplanInput, type CareplanDto } from '@/server/services/careplans/schemas';
import { checkWith } from '@/app/_components/form-validation';
import { When } from '@/app/_components/when';

const LIMIT = 25;
type Status = CareplanDto['status'];

export function CareplansPage({ initialSubjectId }: { initialSubjectId?: number }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [definition, setDefinition] = useState<PickOption | null>(null);
  const [subject, setSubject] = useState<{ id: number; label?: string } | null>(initialSubjectId ? { id: initialSubjectId } : null);
  const [status, setStatus] = useState<Status | ''>('');
  const [enrolling, setEnrolling] = useState(false);
  const [enrolTemplate, setEnrolTemplate] = useState<PickOption | null>(null);
  const [enrolMember, setEnrolMember] = useState<{ id: number; label?: string } | null>(null);
  const pager = usePager();
  const initialSubject = useQuery({ ...trpc.members.get.queryOptions({ id: initialSubjectId ?? 0 }), enabled: Boolean(initialSubjectId) });
  const list = useQuery({
    ...trpc.careplans.list.queryOptions({
      definitionId: definition?.id,
      subjectId: subject?.id,
      status: status || undefined,
      limit: LIMIT,
      cursor: pager.cursor,
    }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.items ?? [];
  const names = useQuery({ ...trpc.members.names.queryOptions({ ids: rows.map((c) => c.subjectId) }), enabled: rows.length > 0, placeholderData: keepPreviousData });
  const memberName = new Map((names.data ?? []).map((m) => [m.id, memberLabel(m)]));
  const create = useMutation(
    saving(trpc.careplans.create.mutationOptions({
      onSuccess: async (c) => {
        await queryClient.invalidateQueries({ queryKey: trpc.careplans.list.queryKey() });
        router.push(`/careplans/${c.id}`);
      },
    }), (c) => `${c.title} started`, { quietErrors: true }),
  );
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(create.error), ...local };
  const subjectLabel = subject?.label ?? (initialSubject.data ? memberLabel(initialSubject.data) : undefined);

  function enrol(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const title = String(f.get('title') ?? '').trim();
    const checked = checkWith(createCareplanInput, { definitionId: enrolTemplate?.id, subjectId: enrolMember?.id, ...(title ? { title } : {}) });
    // Said for people: which picker is empty.
    setLocal({ ...(checked.errors ?? {}), ...(!enrolTemplate ? { definitionId: 'Choose a template' } : {}), ...(!enrolMember ? { subjectId: 'Choose a member' } : {}) });
    if (checked.value) create.mutate(checked.value);
  }

  return (
    <>
      <PageHeader
        title="Care plans"
        description="Members enrolled in a template. Activities appear as reference dates are filled in."
        actions={!enrolling && <Button onClick={() => (setEnrolling(true), setEnrolMember(subject))}>Enrol a member</Button>}
      />
      {enrolling && (
        <Card title="Enrol a member" className="mb-6">
          <form onSubmit={enrol} className="space-y-4" noValidate aria-label="Enrol a member">
            <ErrorNotice error={formErrorOf(create.error)} />
            <div className="grid gap-4 sm:grid-cols-3">
              <DefinitionPicker required value={enrolTemplate?.id ?? null} selectedLabel={enrolTemplate?.label} onChange={setEnrolTemplate} error={errors.definitionId} />
              <MemberPicker
                required
                value={enrolMember?.id ?? null}
                selectedLabel={enrolMember?.label ?? (enrolMember?.id === subject?.id ? subjectLabel : undefined)}
                onChange={(o) => setEnrolMember(o)}
                error={errors.subjectId}
              />
              <TextField label="Title (optional)" name="title" error={errors.title} hint="Defaults to the template's title" />
            </div>
            <div className="flex gap-2">
              <Button type="submit" busy={create.isPending}>
                Enrol
              </Button>
              <Button variant="secondary" onClick={() => setEnrolling(false)}>
                Cancel
              </Button>
            </div>
          </form>
        </Card>
      )}
      <section aria-label="Filters" className="mb-4 grid gap-3 rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 sm:grid-cols-3">
        <DefinitionPicker value={definition?.id ?? null} selectedLabel={definition?.label} placeholder="All templates" onChange={(o) => (setDefinition(o), pager.reset())} />
        <MemberPicker value={subject?.id ?? null} selectedLabel={subjectLabel} placeholder="All members" onChange={(o) => (setSubject(o), pager.reset())} />
        <SelectField label="Status" value={status} onChange={(e) => (setStatus(e.target.value as Status | ''), pager.reset())}>
          <option value="">Any status</option>
          {CAREPLAN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
      </section>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading care plans…" />
      ) : rows.length === 0 ? (
        <EmptyState title={definition || subject || status ? 'No care plans match these filters' : 'No care plans yet'} action={!enrolling && <Button onClick={() => setEnrolling(true)}>Enrol a member</Button>}>
          A care plan follows one member through a template&apos;s activities.
        </EmptyState>
      ) : (
        <>
          <Table caption="Care plans" head={['Care plan', 'Member', 'Template', 'Status', 'Started']}>
            {rows.map((c) => (
              <tr key={c.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/careplans/${c.id}`} className="font-medium text-brand-700 hover:underline">
                    {c.title}
                  </Link>
                </Td>
                <Td>
                  <Link href={`/members/${c.subjectId}`} className="hover:underline">
                    {memberName.get(c.subjectId) ?? `Member #${c.subjectId}`}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">
                  {c.slug} v{c.version}
                </Td>
                <Td>
                  <Badge tone={CAREPLAN_TONE[c.status]}>{c.status}</Badge>
                </Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={c.createdAt} /></Td>
              </tr>
            ))}
          </Table>
          <PagerControls pager={pager} query={list} />
        </>
      )}
    </>
  );
}
