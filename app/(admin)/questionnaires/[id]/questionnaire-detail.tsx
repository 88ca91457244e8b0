'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { History } from '@/app/_components/history';
import { Badge, Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { When } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import { CompareForm } from '../../templates/[id]/compare-form';
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
        <Link href="/questionnaires" className="text-brand-700">
          ← All questionnaires
        </Link>
      </p>
      <PageHeader
        title={q.title}
        description={
          <>
            <Badge tone={STATUS_TONE[q.status]}>{q.status}</Badge> Questionnaire <span className="font-mono text-xs">{q.slug}</span> · version {q.version} (latest)
          </>
        }
      />
      <QuestionnaireBuilder key={q.id} questionnaire={q} />
      <div className="mt-6 grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <ResponsesTable questionnaire={q} />
        <div className="space-y-6 self-start">
          <Card title="Versions">
            <ErrorNotice error={versions.error} onRetry={() => void versions.refetch()} />
            {versions.isPending ? (
              <Loading />
            ) : (
              versions.data && (
                <>
                  <ol className="space-y-2 text-sm" aria-label="Version history">
                    {versions.data.map((v) => (
                      <li key={v.version} className="flex flex-wrap items-center justify-between gap-2">
                        <span>
                          <Link href={`/questionnaires/${id}/versions/${v.version}`} className="font-medium text-brand-700">
                            Version {v.version}
                          </Link>{' '}
                          <span className="text-slate-600">
                            {v.items} questions · <When at={v.updatedAt} style="day" />
                          </span>
                        </span>
                        {v.responses > 0 ? <Badge tone="brand">{v.responses === 1 ? '1 response' : `${v.responses} responses`}</Badge> : <Badge>no responses</Badge>}
                      </li>
                    ))}
                  </ol>
                  {versions.data.length > 1 && <CompareForm base={`/questionnaires/${id}`} versions={versions.data.map((v) => v.version)} latest={q.version} />}
                </>
              )
            )}
          </Card>
          <History resource="questionnaire" resourceId={q.id} />
        </div>
      </div>
    </>
  );
}
