'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, Card, ErrorNotice, Loading, PageHeader, formatDate } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { DefinitionEditor, type EditorValue } from '../definition-editor';

export function DefinitionDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const template = useQuery(trpc.definitions.get.queryOptions({ id }));
  const versions = useQuery(trpc.definitions.versions.queryOptions({ id }));
  if (template.isPending) return <Loading label="Loading template…" />;
  if (template.error) return <ErrorNotice error={template.error} onRetry={() => void template.refetch()} />;
  const t = template.data;
  const initial: EditorValue = {
    slug: t.slug,
    title: t.title,
    inputs: (t.inputs ?? []).map((i) => ({ key: i.key, observationCodeId: i.observationCodeId, codeLabel: i.observationCode?.display })),
    actions: t.actions.map((a) => ({ ...a, reminders: a.reminders ?? [] })),
  };
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/templates" className="text-brand-700 hover:underline">
          ← All templates
        </Link>
      </p>
      <PageHeader title={t.title} description={<>Template <span className="font-mono text-xs">{t.slug}</span>, version {t.version}</>} />
      <div className="grid gap-6 xl:grid-cols-[1fr_16rem]">
        <DefinitionEditor key={t.id} initial={initial} definitionId={t.id} />
        <Card title="Versions" className="self-start">
          {versions.isPending ? (
            <Loading />
          ) : (
            <ol className="space-y-2 text-sm" aria-label="Version history">
              {versions.data?.map((v) => (
                <li key={v.version} className="flex items-center justify-between gap-2">
                  <span>
                    <span className="font-medium">v{v.version}</span> <span className="text-slate-500">{formatDate(v.updatedAt)}</span>
                  </span>
                  {v.careplans > 0 ? <Badge tone="brand">{v.careplans} in use</Badge> : <Badge>unused</Badge>}
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </>
  );
}
