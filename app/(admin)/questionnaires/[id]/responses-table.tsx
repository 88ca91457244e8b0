'use client';

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { responsesCsv } from '@/app/_components/answers';
import { PagerControls, usePager } from '@/app/_components/pager';
import { MemberPicker, memberLabel } from '@/app/_components/pickers';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, SelectField, Table, Td } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { RESPONSE_STATUSES, type QuestionnaireDto, type ResponseDto, type ResponseStatus } from '@/server/services/questionnaires/schemas';
import { When, useDates } from '@/app/_components/when';

const PAGE_SIZE = 25;
export const RESPONSE_TONE = { 'in-progress': 'amber', completed: 'green', amended: 'brand' } as const;
export const RESPONSE_LABEL = { 'in-progress': 'draft', completed: 'completed', amended: 'amended' } as const;

/** A questionnaire's responses, filtered by status and member, with every matching response as CSV. */
export function ResponsesTable({ questionnaire }: { questionnaire: QuestionnaireDto }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pager = usePager();
  const [status, setStatus] = useState<ResponseStatus | ''>('');
  const [member, setMember] = useState<{ id: number; label: string } | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const filters = { questionnaireId: questionnaire.id, status: status || undefined, subjectId: member?.id };
  const list = useQuery({ ...trpc.responses.list.queryOptions({ ...filters, cursor: pager.cursor, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const ids = [...new Set(list.data?.items.map((r) => r.subjectId) ?? [])];
  const names = useQuery({ ...trpc.members.names.queryOptions({ ids }), enabled: ids.length > 0, placeholderData: keepPreviousData });
  const dates = useDates();
  const nameOf = (id: number) => {
    const m = names.data?.find((n) => n.id === id);
    return m ? memberLabel(m) : `Member #${id}`;
  };

  async function exportCsv() {
    setExporting('Preparing…');
    try {
      const all: ResponseDto[] = [];
      let cursor: number | null = null;
      do {
        const page: { items: ResponseDto[]; next: number | null } = await queryClient.fetchQuery(trpc.responses.list.queryOptions({ ...filters, cursor, limit: 200 }));
        all.push(...page.items);
        setExporting(`Preparing… ${all.length} responses`);
        cursor = page.next;
      } while (cursor !== null);
      const people = new Map<number, string>();
      const subjects = [...new Set(all.map((r) => r.subjectId))];
      for (let k = 0; k < subjects.length; k += 200) {
        for (const m of await queryClient.fetchQuery(trpc.members.names.queryOptions({ ids: subjects.slice(k, k + 200) }))) people.set(m.id, memberLabel(m));
      }
      const csv = responsesCsv(questionnaire.items, all, (id) => people.get(id) ?? '');
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${questionnaire.slug}-responses.csv`;
      a.click();
      URL.revokeObjectURL(url);
      setExporting(null);
    } catch (e) {
      setExporting(`Export failed: ${(e as Error).message}`);
    }
  }

  return (
    <Card
      title="Responses"
      actions={
        <Button variant="secondary" onClick={() => void exportCsv()} busy={exporting?.startsWith('Preparing')} disabled={list.data?.items.length === 0}>
          Export CSV
        </Button>
      }
    >
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <SelectField label="Response status" value={status} onChange={(e) => (setStatus(e.target.value as ResponseStatus | ''), pager.reset())} className="w-40">
          <option value="">All</option>
          {RESPONSE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {RESPONSE_LABEL[s]}
            </option>
          ))}
        </SelectField>
        <MemberPicker label="Response member" className="w-72" value={member?.id ?? null} selectedLabel={member?.label} onChange={(o) => (setMember(o), pager.reset())} />
        {exporting && (
          <p role="status" className="text-sm text-slate-600">
            {exporting}
          </p>
        )}
      </div>
      <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      {list.isPending ? (
        <Loading label="Loading responses…" />
      ) : list.data?.items.length === 0 ? (
        <EmptyState title={status || member ? 'No responses match' : 'No responses yet'}>
          {status || member ? 'Try another status or member.' : 'Responses appear here when members (or coordinators on their behalf) fill in this questionnaire.'}
        </EmptyState>
      ) : (
        list.data && (
          <Table caption={`Responses to ${questionnaire.title}`} head={['Member', 'Status', 'Version', 'Submitted', 'Answers']}>
            {list.data.items.map((r) => (
              <tr key={r.id} className="hover:bg-slate-50">
                <Td>
                  <Link href={`/members/${r.subjectId}`} className="font-medium text-brand-700 hover:underline">
                    {nameOf(r.subjectId)}
                  </Link>
                </Td>
                <Td>
                  <Badge tone={RESPONSE_TONE[r.status]}>{RESPONSE_LABEL[r.status]}</Badge>
                </Td>
                <Td>v{r.questionnaireVersion}</Td>
                <Td className="whitespace-nowrap text-slate-500"><When at={r.authoredAt} /></Td>
                <Td>
                  <Link href={`/responses/${r.id}`} className="text-brand-700 hover:underline" aria-label={`Open the response of ${nameOf(r.subjectId)} from ${dates.dateTime(r.authoredAt)}`}>
                    Open
                  </Link>
                </Td>
              </tr>
            ))}
          </Table>
        )
      )}
      <PagerControls pager={pager} query={list} />
    </Card>
  );
}
