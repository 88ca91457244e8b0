'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { PagerControls, usePager } from '@/app/_components/pager';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Badge, EmptyState, ErrorNotice, Loading, PageHeader, SelectField, Table, Td, TextField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { QUESTIONNAIRE_STATUSES, type QuestionnaireStatus } from '@/server/services/questionnaires/schemas';
import { When } from '@/app/_components/when';

const PAGE_SIZE = 25;
export const STATUS_TONE = { draft: 'slate', active: 'green', retired: 'amber' } as const;

export function QuestionnairesPage() {
  const trpc = useTRPC();
  const isAdmin = useIsAdmin();
  const pager = usePager();
  const [status, setStatus] = useState<QuestionnaireStatus | ''>('');
  const [search, setSearch] = useState('');
  const list = useQuery({
    ...trpc.questionnaires.list.queryOptions({ status: status || undefined, search: search.trim() || undefined, cursor: pager.cursor, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const newLink = isAdmin && (
    <Link href="/questionnaires/new" className="inline-flex items-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-brand-700">
      New questionnaire
    </Link>
  );
  const filtered = status !== '' || search.trim() !== '';
  return (
    <>
      <PageHeader title="Questionnaires" description="Forms members fill in. Questionnaire actions in templates ask for them; answers to mapped questions set care plan dates." actions={newLink} />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <TextField label="Search" value={search} onChange={(e) => (setSearch(e.target.value), pager.reset())} placeholder="Title or slug" className="w-64" />
        <SelectField label="Status" value={status} onChange={(e) => (setStatus(e.target.value as QuestionnaireStatus | ''), pager.reset())} className="w-40">
          <option value="">All</option>
          {QUESTIONNAIRE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
      </div>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading questionnaires…" />
      ) : list.data?.items.length === 0 ? (
        filtered ? (
          <EmptyState title="No questionnaires match">Try another search or status.</EmptyState>
        ) : (
          <EmptyState title="No questionnaires yet" action={newLink}>
            Build a form, then ask for it from a template&apos;s questionnaire action.
          </EmptyState>
        )
      ) : (
        list.data && (
          <Table caption="Questionnaires" head={['Title', 'Slug', 'Status', 'Version', 'Questions', 'Updated']}>
            {list.data.items.map((q) => (
              <tr key={q.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/questionnaires/${q.id}`} className="font-medium text-brand-700 hover:underline">
                    {q.title}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">{q.slug}</Td>
                <Td>
                  <Badge tone={STATUS_TONE[q.status]}>{q.status}</Badge>
                </Td>
                <Td>v{q.version}</Td>
                <Td className="tabular-nums">{q.items.filter((i) => i.type !== 'display').length}</Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={q.updatedAt} /></Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
