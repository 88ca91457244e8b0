'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { PagerControls, usePager } from '@/app/_components/pager';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField, formatDate } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';

const LIMIT = 25;
type Status = 'ongoing' | 'completed' | 'cancelled';
export const CAREPLAN_TONE = { ongoing: 'brand', completed: 'green', cancelled: 'slate' } as const;

export function CareplansPage({ initialSubjectId }: { initialSubjectId?: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [definitionId, setDefinitionId] = useState('');
  const [subjectId, setSubjectId] = useState(initialSubjectId ? String(initialSubjectId) : '');
  const [status, setStatus] = useState<Status | ''>('');
  const [enrolling, setEnrolling] = useState(false);
  const pager = usePager();
  const templates = useQuery(trpc.templates.list.queryOptions());
  const members = useQuery(trpc.members.list.queryOptions({ limit: 200, afterId: 0 }));
  const list = useQuery({
    ...trpc.careplans.list.queryOptions({
      definitionId: definitionId ? Number(definitionId) : undefined,
      subjectId: subjectId ? Number(subjectId) : undefined,
      status: status || undefined,
      limit: LIMIT,
      afterId: pager.afterId,
    }),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(
    trpc.careplans.create.mutationOptions({
      onSuccess: async (c) => {
        await queryClient.invalidateQueries({ queryKey: trpc.careplans.list.queryKey() });
        router.push(`/careplans/${c.id}`);
      },
    }),
  );
  const errors = fieldErrorsOf(create.error);
  const memberName = new Map((members.data ?? []).map((m) => [m.id, m.name ?? m.email ?? `Member #${m.id}`]));
  const rows = list.data ?? [];

  function enrol(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const title = String(f.get('title') ?? '').trim();
    create.mutate({ definitionId: Number(f.get('definitionId')) || undefined, subjectId: Number(f.get('subjectId')), ...(title ? { title } : {}) });
  }

  return (
    <>
      <PageHeader
        title="Care plans"
        description="Members enrolled in a template. Activities appear as reference dates are filled in."
        actions={!enrolling && <Button onClick={() => setEnrolling(true)}>Enrol a member</Button>}
      />
      {enrolling && (
        <Card title="Enrol a member" className="mb-6">
          <form onSubmit={enrol} className="space-y-4" noValidate aria-label="Enrol a member">
            <ErrorNotice error={formErrorOf(create.error)} />
            <div className="grid gap-4 sm:grid-cols-3">
              <SelectField label="Template" name="definitionId" defaultValue="" error={errors.definitionId}>
                <option value="" disabled>
                  Choose a template…
                </option>
                {(templates.data ?? []).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.title} (v{t.version})
                  </option>
                ))}
              </SelectField>
              <SelectField label="Member" name="subjectId" defaultValue={subjectId} error={errors.subjectId}>
                <option value="" disabled>
                  Choose a member…
                </option>
                {(members.data ?? []).slice(0, 200).map((m) => (
                  <option key={m.id} value={m.id}>
                    {memberName.get(m.id)} (#{m.id})
                  </option>
                ))}
              </SelectField>
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
        <SelectField label="Template" value={definitionId} onChange={(e) => (setDefinitionId(e.target.value), pager.reset())}>
          <option value="">All templates</option>
          {(templates.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </SelectField>
        <SelectField label="Member" value={subjectId} onChange={(e) => (setSubjectId(e.target.value), pager.reset())}>
          <option value="">All members</option>
          {(members.data ?? []).slice(0, 200).map((m) => (
            <option key={m.id} value={m.id}>
              {memberName.get(m.id)} (#{m.id})
            </option>
          ))}
        </SelectField>
        <SelectField label="Status" value={status} onChange={(e) => (setStatus(e.target.value as Status | ''), pager.reset())}>
          <option value="">Any status</option>
          <option value="ongoing">ongoing</option>
          <option value="completed">completed</option>
          <option value="cancelled">cancelled</option>
        </SelectField>
      </section>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading care plans…" />
      ) : rows.length === 0 ? (
        <EmptyState title={definitionId || subjectId || status ? 'No care plans match these filters' : 'No care plans yet'} action={!enrolling && <Button onClick={() => setEnrolling(true)}>Enrol a member</Button>}>
          A care plan follows one member through a template&apos;s activities.
        </EmptyState>
      ) : (
        <>
          <Table caption="Care plans" head={['Care plan', 'Member', 'Template', 'Status', 'Started']}>
            {rows.slice(0, LIMIT).map((c) => (
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
                <Td className="whitespace-nowrap text-slate-500">{formatDate(c.createdAt)}</Td>
              </tr>
            ))}
          </Table>
          <PagerControls pager={pager} rows={rows} limit={LIMIT} />
        </>
      )}
    </>
  );
}
