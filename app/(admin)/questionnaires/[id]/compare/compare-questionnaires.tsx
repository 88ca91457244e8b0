'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { DiffSummary, FieldList, SideBySide } from '@/app/_components/compare-view';
import { Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { diffByKey } from '@/app/_components/version-diff';
import { useTRPC } from '@/app/_trpc/client';
import type { Item } from '@/server/services/questionnaires/rules';

/** Two versions of a questionnaire side by side: questions added, removed and changed (by their id). */
export function CompareQuestionnaires({ id, from, to }: { id: number; from: number; to: number }) {
  const trpc = useTRPC();
  const a = useQuery(trpc.questionnaires.get.queryOptions({ id, version: from }));
  const b = useQuery(trpc.questionnaires.get.queryOptions({ id, version: to }));
  if (a.isPending || b.isPending) return <Loading label="Loading both versions…" />;
  if (a.error || b.error) return <ErrorNotice error={a.error ?? b.error} onRetry={() => void (a.refetch(), b.refetch())} />;
  const items = diffByKey(a.data.items, b.data.items, (i) => i.linkId);
  const render = (i: Item, changed: string[]) => (
    <FieldList
      changed={changed}
      fields={[
        ['text', i.text],
        ['type', i.type],
        ['required', i.required ? 'yes' : 'no'],
        ...(i.options ? ([['options', i.options.map((o) => o.display).join(', ')]] as [string, string][]) : []),
        ...(i.min !== undefined || i.max !== undefined ? ([['min', String(i.min ?? '—')], ['max', String(i.max ?? '—')]] as [string, string][]) : []),
        ...(i.enableWhen ? ([['enableWhen', `when ${i.enableWhen.linkId} ${i.enableWhen.operator}${i.enableWhen.answer !== undefined ? ` ${String(i.enableWhen.answer)}` : ''}`]] as [string, string][]) : []),
        ...(i.observationCodeId ? ([['observationCodeId', `code ${i.observationCodeId}`]] as [string, string][]) : []),
      ]}
    />
  );
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/questionnaires/${id}`} className="text-brand-700">
          ← {b.data.title}
        </Link>
      </p>
      <PageHeader title={`Version ${from} and version ${to}`} description={`What changed in questionnaire ${b.data.slug} from version ${from} to version ${to}.`} />
      <div className="space-y-6">
        <Card title="Title and description">
          <FieldList
            changed={[...(a.data.title !== b.data.title ? ['title'] : []), ...(a.data.description !== b.data.description ? ['description'] : [])]}
            fields={[
              ['title', a.data.title === b.data.title ? b.data.title : `${a.data.title} → ${b.data.title}`],
              ['description', a.data.description === b.data.description ? (b.data.description ?? '—') : `${a.data.description ?? '—'} → ${b.data.description ?? '—'}`],
            ]}
          />
        </Card>
        <section aria-labelledby="items-h">
          <h2 id="items-h" className="mb-2 text-lg font-semibold text-slate-900">
            Questions
          </h2>
          <DiffSummary rows={items} noun="question" />
          <div className="mt-3">
            <SideBySide rows={items} from={from} to={to} title={(r) => (r.after ?? r.before)!.text} render={render} />
          </div>
        </section>
      </div>
    </>
  );
}
