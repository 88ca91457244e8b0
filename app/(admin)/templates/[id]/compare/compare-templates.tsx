'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { DiffSummary, FieldList, SideBySide } from '@/app/_components/compare-view';
import { Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { diffByKey } from '@/app/_components/version-diff';
import { useTRPC } from '@/app/_trpc/client';
import type { DefinitionDto } from '@/server/services/careplans/schemas';

type Action = DefinitionDto['actions'][number];
const UNIT: Record<string, string> = { s: 'seconds', min: 'minutes', h: 'hours', d: 'days', wk: 'weeks', mo: 'months', a: 'years' };
const offset = (o?: { offset: number; offsetUnit: string }) => {
  if (!o) return '—';
  const unit = UNIT[o.offsetUnit] ?? o.offsetUnit;
  return `${o.offset} ${Math.abs(o.offset) === 1 ? unit.replace(/s$/, '') : unit}`;
};
/** What a version's row says apart from its own ids: two versions' copies of one input compare equal. */
function content<T extends object>(row: T): T {
  const rest = { ...row } as Record<string, unknown>;
  delete rest.id;
  delete rest.definitionId;
  return rest as unknown as T;
}

/** Two versions of a template side by side: its title, inputs and actions added, removed and changed. */
export function CompareTemplates({ id, from, to }: { id: number; from: number; to: number }) {
  const trpc = useTRPC();
  const a = useQuery(trpc.definitions.get.queryOptions({ id, version: from }));
  const b = useQuery(trpc.definitions.get.queryOptions({ id, version: to }));
  if (a.isPending || b.isPending) return <Loading label="Loading both versions…" />;
  if (a.error || b.error) return <ErrorNotice error={a.error ?? b.error} onRetry={() => void (a.refetch(), b.refetch())} />;
  const inputs = diffByKey((a.data.inputs ?? []).map(content), (b.data.inputs ?? []).map(content), (i) => i.key);
  const actions = diffByKey(
    a.data.actions.map((x) => ({ ...content(x), reminders: x.reminders ?? [] })),
    b.data.actions.map((x) => ({ ...content(x), reminders: x.reminders ?? [] })),
    (x) => x.key,
  );
  const renderAction = (x: Action, changed: string[]) => (
    <FieldList
      changed={changed}
      fields={[
        ['display', x.display],
        ['kind', x.kind ?? 'task'],
        ['type', x.type],
        ['actorType', x.actorType],
        ['inputKey', x.inputKey ?? 'care plan start'],
        ['start', offset(x.start)],
        ['end', offset(x.end)],
        ['reminders', x.reminders.length === 0 ? 'none' : x.reminders.map((r) => `${offset(r)}${r.title ? ` “${r.title}”` : ''}`).join('; ')],
        ...(x.description ? ([['description', x.description]] as [string, string][]) : []),
        ...(x.articleId ? ([['articleId', `article ${x.articleId}`]] as [string, string][]) : []),
        ...(x.questionnaireId ? ([['questionnaireId', `questionnaire ${x.questionnaireId}`]] as [string, string][]) : []),
        ...(x.scheduleId ? ([['scheduleId', `schedule ${x.scheduleId}`]] as [string, string][]) : []),
      ]}
    />
  );
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/templates/${id}`} className="text-brand-700">
          ← {b.data.title}
        </Link>
      </p>
      <PageHeader title={`Version ${from} and version ${to}`} description={`What changed in template ${b.data.slug} from version ${from} to version ${to}.`} />
      <div className="space-y-6">
        <Card title="Title">
          {a.data.title === b.data.title ? (
            <p className="text-sm text-slate-700">Unchanged: {b.data.title}</p>
          ) : (
            <p className="text-sm text-slate-700">
              <span className="line-through decoration-red-500">{a.data.title}</span> → <span className="font-medium">{b.data.title}</span>
            </p>
          )}
        </Card>
        <section aria-labelledby="inputs-h">
          <h2 id="inputs-h" className="mb-2 text-lg font-semibold text-slate-900">
            Reference dates
          </h2>
          <DiffSummary rows={inputs} noun="input" />
          <div className="mt-3">
            <SideBySide rows={inputs} from={from} to={to} title={(r) => r.key} render={(i, changed) => <FieldList changed={changed} fields={[['observationCodeId', `code ${i.observationCodeId}`]]} />} />
          </div>
        </section>
        <section aria-labelledby="actions-h">
          <h2 id="actions-h" className="mb-2 text-lg font-semibold text-slate-900">
            Actions
          </h2>
          <DiffSummary rows={actions} noun="action" />
          <div className="mt-3">
            <SideBySide rows={actions} from={from} to={to} title={(r) => (r.after ?? r.before)!.display} render={renderAction} />
          </div>
        </section>
      </div>
    </>
  );
}
