'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { PagerControls, usePager } from '@/app/_components/pager';
import { Badge, EmptyState, ErrorNotice, Loading, Table, Td } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { RESPONSE_LABEL, RESPONSE_TONE } from '../../questionnaires/[id]/responses-table';
import { When } from '@/app/_components/when';

/** A member's questionnaire responses; each opens to its answers. Coordinators can enter one on paper's behalf. */
export function MemberResponses({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const pager = usePager();
  const list = useQuery({ ...trpc.responses.list.queryOptions({ subjectId: memberId, cursor: pager.cursor, limit: 25 }), placeholderData: keepPreviousData });
  const ids = [...new Set(list.data?.items.map((r) => r.questionnaireId) ?? [])];
  const titles = useQuery({ ...trpc.questionnaires.titles.queryOptions({ ids }), enabled: ids.length > 0, placeholderData: keepPreviousData });
  const titleOf = (id: number) => titles.data?.find((t) => t.id === id)?.title ?? `Questionnaire #${id}`;
  return (
    <>
      <div className="mb-3 mt-8 flex items-center justify-between">
        <h2 className="text-lg font-semibold text-slate-900">Questionnaire responses</h2>
        <Link href={`/members/${memberId}/respond`} className="text-sm text-brand-700 hover:underline">
          Enter a response
        </Link>
      </div>
      {list.isPending ? (
        <Loading label="Loading responses…" />
      ) : list.error ? (
        <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title="No responses yet">Questionnaires this member fills in (or you enter for them) appear here.</EmptyState>
      ) : (
        <Table caption="Questionnaire responses of this member" head={['Questionnaire', 'Status', 'Version', 'Submitted', '']}>
          {list.data.items.map((r) => (
            <tr key={r.id}>
              <Td className="font-medium text-slate-900">{titleOf(r.questionnaireId)}</Td>
              <Td>
                <Badge tone={RESPONSE_TONE[r.status]}>{RESPONSE_LABEL[r.status]}</Badge>
              </Td>
              <Td>v{r.questionnaireVersion}</Td>
              <Td className="whitespace-nowrap text-slate-500"><When at={r.authoredAt} /></Td>
              <Td className="text-right">
                <Link href={`/responses/${r.id}`} className="text-brand-700 hover:underline" aria-label={`Open the ${titleOf(r.questionnaireId)} response`}>
                  Open
                </Link>
              </Td>
            </tr>
          ))}
        </Table>
      )}
      <PagerControls pager={pager} query={list} />
    </>
  );
}
