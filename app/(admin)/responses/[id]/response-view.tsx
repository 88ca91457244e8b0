'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { answerDisplay } from '@/app/_components/answers';
import { memberLabel } from '@/app/_components/pickers';
import { Badge, Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { History } from '@/app/_components/history';
import { useTRPC } from '@/app/_trpc/client';
import { RESPONSE_LABEL, RESPONSE_TONE } from '../../questionnaires/[id]/responses-table';
import { When } from '@/app/_components/when';

/** One response, read against the questionnaire version it answered. */
export function ResponseView({ id }: { id: number }) {
  const trpc = useTRPC();
  const response = useQuery(trpc.responses.get.queryOptions({ id }));
  const r = response.data;
  const questionnaire = useQuery({ ...trpc.questionnaires.get.queryOptions({ id: r?.questionnaireId ?? 0, version: r?.questionnaireVersion }), enabled: Boolean(r) });
  const member = useQuery({ ...trpc.members.names.queryOptions({ ids: r ? [r.subjectId] : [] }), enabled: Boolean(r) });
  if (response.isPending) return <Loading label="Loading response…" />;
  if (response.error) return <ErrorNotice error={response.error} onRetry={() => void response.refetch()} />;
  const q = questionnaire.data;
  const who = member.data?.[0] ? memberLabel(member.data[0]) : `Member #${r!.subjectId}`;
  const answers = new Map(r!.answers.map((a) => [a.linkId, a.value]));
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/members/${r!.subjectId}`} className="text-brand-700 hover:underline">
          ← {who}
        </Link>
      </p>
      <PageHeader
        title={q ? q.title : 'Questionnaire response'}
        description={
          <>
            <Badge tone={RESPONSE_TONE[r!.status]}>{RESPONSE_LABEL[r!.status]}</Badge> {who} · version {r!.questionnaireVersion} · submitted <When at={r!.authoredAt} />
          </>
        }
        actions={
          <Link href={`/questionnaires/${r!.questionnaireId}`} className="text-sm font-medium text-brand-700 hover:underline">
            Open the questionnaire
          </Link>
        }
      />
      <Card title="Answers">
        <ErrorNotice error={questionnaire.error} onRetry={() => void questionnaire.refetch()} />
        {!q ? (
          <Loading />
        ) : (
          <dl className="divide-y divide-slate-100">
            {q.items
              .filter((i) => i.type !== 'display')
              .map((item) => (
                <div key={item.linkId} className="grid gap-1 py-2.5 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] sm:gap-4">
                  <dt className="text-sm text-slate-600">{item.text}</dt>
                  <dd className="break-words text-sm text-slate-900">{answers.has(item.linkId) ? answerDisplay(item, answers.get(item.linkId)) : <span className="text-slate-600">Not answered</span>}</dd>
                </div>
              ))}
          </dl>
        )}
        {r!.activityId && (
          <p className="mt-4 text-sm text-slate-600">
            Sent for a care plan activity, which it completed.
          </p>
        )}
      </Card>
      <div className="mt-8">
        <History resource="questionnaire-response" resourceId={id} />
      </div>
    </>
  );
}
