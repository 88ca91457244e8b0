'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, Card, ErrorNotice, Loading, PageHeader, formatDate } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { QuestionnaireBuilder } from '../questionnaire-builder';
import { STATUS_TONE } from '../questionnaires-page';
import { ResponsesTable } from './responses-table';

export function QuestionnaireDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const questionnaire = useQuery(trpc.questionnaires.get.queryOptions({ id }));
  const versions = useQuery(trpc.questionnaires.versions.queryOptions({ id }));
  if (questionnaire.isPending) return <Loading label="Loading questionnaire…" />;
  if (questionnaire.error) return <ErrorNotice error={questionnaire.error} onRetry={() => void questionnaire.refetch()} />;
  const q = questionnaire.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/questionnaires" className="text-brand-700 hover:underline">
          ← All questionnaires
        </Link>
      </p>
      <PageHeader
        title={q.title}
        description={
          <>
            <Badge tone={STATUS_TONE[q.status]}>{q.status}</Badge> Questionnaire <span className="font-mono text-xs">{q.slug}</span>, version {q.version}
          </>
        }
      />
      <QuestionnaireBuilder key={q.id} questionnaire={q} />
      <div className="mt-6 grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <ResponsesTable questionnaire={q} />
        <Card title="Versions" className="self-start">
          <ErrorNotice error={versions.error} onRetry={() => void versions.refetch()} />
          {versions.isPending ? (
            <Loading />
          ) : (
            <ol className="space-y-2 text-sm" aria-label="Version history">
              {versions.data?.map((v) => (
                <li key={v.version} className="flex items-center justify-between gap-2">
                  <span>
                    <span className="font-medium">v{v.version}</span> <span className="text-slate-500">{v.items} items · {formatDate(v.updatedAt)}</span>
                  </span>
                  {v.responses > 0 ? <Badge tone="brand">{v.responses === 1 ? '1 response' : `${v.responses} responses`}</Badge> : <Badge>no responses</Badge>}
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </>
  );
}
