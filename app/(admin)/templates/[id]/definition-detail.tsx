'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { History } from '@/app/_components/history';
import { Badge, Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { When } from '@/app/_components/when';
import { useTRPC } from '@/app/_trpc/client';
import type { DefinitionDto } from '@/server/services/careplans/schemas';
import { DefinitionEditor, type EditorValue } from '../definition-editor';
import { CompareForm } from './compare-form';

export const editorValueOf = (t: DefinitionDto): EditorValue => ({
  slug: t.slug,
  title: t.title,
  inputs: (t.inputs ?? []).map((i) => ({ key: i.key, observationCodeId: i.observationCodeId, codeLabel: i.observationCode?.display })),
  actions: t.actions.map((a) => ({ ...a, reminders: a.reminders ?? [] })),
});

export function DefinitionDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const template = useQuery(trpc.definitions.get.queryOptions({ id }));
  if (template.isPending) return <Loading label="Loading template…" />;
  if (template.error) return <ErrorNotice error={template.error} onRetry={() => void template.refetch()} />;
  const t = template.data;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/templates" className="text-brand-700">
          ← All templates
        </Link>
      </p>
      <PageHeader title={t.title} description={<>Template <span className="font-mono text-xs">{t.slug}</span> · version {t.version} (latest)</>} />
      <div className="grid gap-6 xl:grid-cols-[1fr_18rem]">
        <DefinitionEditor key={t.id} initial={editorValueOf(t)} definitionId={t.id} />
        <div className="space-y-6 self-start">
          <Versions id={t.id} latest={t.version} />
          <History resource="careplan-definition" resourceId={t.id} />
        </div>
      </div>
    </>
  );
}

/** Every version: open one as it was, see how many care plans use it, compare two. */
function Versions({ id, latest }: { id: number; latest: number }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.definitions.versions.queryOptions({ id }));
  return (
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
                    <Link href={`/templates/${id}/versions/${v.version}`} className="font-medium text-brand-700">
                      Version {v.version}
                    </Link>{' '}
                    <span className="text-slate-600">
                      <When at={v.updatedAt} style="day" />
                    </span>
                  </span>
                  {v.careplans > 0 ? <Badge tone="brand">{v.careplans === 1 ? '1 care plan' : `${v.careplans} care plans`}</Badge> : <Badge>unused</Badge>}
                </li>
              ))}
            </ol>
            {versions.data.length > 1 && <CompareForm base={`/templates/${id}`} versions={versions.data.map((v) => v.version)} latest={latest} />}
          </>
        )
      )}
    </Card>
  );
}
