'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { fieldErrorsOf } from '@/app/_components/errors';
import { Timeline, type TimelineItem } from '@/app/_components/timeline';
import { Badge, Button, Card, ErrorNotice, Loading, PageHeader } from '@/app/_components/ui';
import { TZDate } from '@date-fns/tz';
import { useStaff } from '@/app/_components/staff-context';
import { useSaving } from '@/app/_components/saving';
import { useTRPC } from '@/app/_trpc/client';
import { CAREPLAN_TONE } from '@/app/_components/activity-status';
import { ActivityList, KIND_NAME } from './activity-list';
import { When } from '@/app/_components/when';
import { day } from '@/app/_components/dates';
import { History } from '@/app/_components/history';

/** When an open activity next changes on its own: its start, its next reminder or its end. */
function soonestChange(a: { status: string; activateAt: string; endAt: string | null; pendingReminders: string[] }): number {
  if (a.status === 'proposed') return Math.min(Date.parse(a.activateAt), a.endAt ? Date.parse(a.endAt) : Infinity);
  if (a.status === 'scheduled') return Math.min(a.pendingReminders[0] ? Date.parse(a.pendingReminders[0]) : Infinity, a.endAt ? Date.parse(a.endAt) : Infinity);
  return Infinity;
}

type Parameter = { id: number; inputId: number; observationId: number | null; observation?: { value: string } | null };
type Input = { id: number; key: string; observationCode?: { display: string } };

function ParameterRow({ careplanId, parameter, input, disabled }: { careplanId: number; parameter: Parameter; input?: Input; disabled: boolean }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const current = parameter.observation?.value ?? '';
  const [value, setValue] = useState(current);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.careplans.get.queryKey({ id: careplanId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.activities.timeline.queryKey({ careplanId }) }),
    ]);
  const save = useMutation(saving(trpc.careplans.patchParameter.mutationOptions({ onSuccess: refresh }), (p) => (p.observation ? `Date set to ${day(p.observation.value)}` : 'Date cleared')));
  const label = input?.observationCode?.display ?? input?.key ?? `Input ${parameter.inputId}`;
  const error = fieldErrorsOf(save.error)['observation.value'] ?? (save.error && !fieldErrorsOf(save.error)['observation.value'] ? save.error.message : undefined);
  return (
    <li className="flex flex-wrap items-end gap-3 py-3">
      <div className="min-w-48 flex-1">
        <label htmlFor={`param-${parameter.id}`} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <p className="text-xs text-slate-600">{current ? `Set to ${day(current)}` : 'Not set: activities anchored on it are not created yet'}</p>
      </div>
      <input
        id={`param-${parameter.id}`}
        type="date"
        value={value}
        disabled={disabled}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={error ? true : undefined}
        className="rounded-md border-0 px-2.5 py-1.5 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500"
      />
      <Button
        variant="secondary"
        disabled={disabled || !value || value === current}
        // Named after the date it sets (a plan with two dates has two such buttons), starting with what it shows.
        aria-label={`${current ? 'Change date' : 'Set date'}: ${label}`}
        busy={save.isPending && save.variables?.changes.observation !== undefined}
        onClick={() => save.mutate({ id: parameter.id, changes: { observation: { value, observedAt: new Date().toISOString() } } })}
      >
        {current ? 'Change date' : 'Set date'}
      </Button>
      {current && (
        <Button
          variant="ghost"
          disabled={disabled}
          aria-label={`Clear date: ${label}`}
          busy={save.isPending && save.variables?.changes.observationId === null}
          onClick={() => {
            if (window.confirm(`Clear ${label}? Open activities anchored on it are cancelled.`)) {
              setValue('');
              save.mutate({ id: parameter.id, changes: { observationId: null } });
            }
          }}
        >
          Clear date
        </Button>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}

export function CareplanDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const saving = useSaving();
  const queryClient = useQueryClient();
  const { timeZone } = useStaff();
  // Statuses change with time (issue: timed transitions): keep the page live.
  const careplan = useQuery({ ...trpc.careplans.get.queryOptions({ id }), refetchInterval: 5_000 });
  // Every second while something is about to change (a transition within 2 minutes), else every 5 s.
  const timeline = useQuery({
    ...trpc.activities.timeline.queryOptions({ careplanId: id }),
    refetchInterval: (q) => (q.state.data?.some((a) => soonestChange(a) - Date.now() < 120_000) ? 1_000 : 5_000),
  });
  const definition = useQuery({
    ...trpc.definitions.get.queryOptions({ id: careplan.data?.definitionId ?? 0, version: careplan.data?.version }),
    enabled: Boolean(careplan.data),
  });
  const member = useQuery({ ...trpc.members.get.queryOptions({ id: careplan.data?.subjectId ?? 0 }), enabled: Boolean(careplan.data) });
  const update = useMutation(
    saving(trpc.careplans.update.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.careplans.get.queryKey({ id }) }),
          queryClient.invalidateQueries({ queryKey: trpc.activities.timeline.queryKey({ careplanId: id }) }),
        ]),
    }), (c) => (c.status === 'ongoing' ? 'Care plan saved' : `Care plan ${c.status}`)),
  );

  if (careplan.isPending) return <Loading label="Loading care plan…" />;
  if (careplan.error) return <ErrorNotice error={careplan.error} onRetry={() => void careplan.refetch()} />;
  const c = careplan.data;
  const inputs = (definition.data?.inputs ?? []) as Input[];
  const actions = definition.data?.actions ?? [];
  const inputByKey = new Map(inputs.map((i) => [i.key, i]));
  const anchorOf = (actionKey: string | null) => actions.find((a) => a.key === actionKey)?.inputKey;
  const groupName = (inputKey: string | undefined) => (inputKey ? `${inputByKey.get(inputKey)?.observationCode?.display ?? inputKey}` : 'From the care plan start');
  const activities = timeline.data ?? [];
  const items: TimelineItem[] = activities.map((a) => ({
    id: a.id,
    label: a.display,
    type: a.kind === 'task' ? a.type : `${KIND_NAME[a.kind].toLowerCase()} · ${a.type}`,
    status: a.status,
    group: groupName(anchorOf(a.actionKey)),
    activateAt: a.activateAt,
    endAt: a.endAt,
    reminders: a.pendingReminders,
  }));
  const marks = (c.parameters ?? [])
    .filter((p) => p.observation)
    .map((p) => {
      const input = inputs.find((i) => i.id === p.inputId);
      const [y, m, d] = p.observation!.value.split('-').map(Number) as [number, number, number];
      // A reference date is that day at 00:00 in the project's time zone, as the schedule counts it.
      const at = new Date(new TZDate(y, m - 1, d, 0, 0, 0, 0, timeZone).getTime()).toISOString();
      return { label: `${input?.observationCode?.display ?? input?.key ?? 'Reference'} ${p.observation!.value}`, at };
    });
  marks.unshift({ label: 'Start', at: c.createdAt });
  const ongoing = c.status === 'ongoing';

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/careplans" className="text-brand-700">
          ← All care plans
        </Link>
      </p>
      <PageHeader
        title={c.title}
        description={
          <>
            <Badge tone={CAREPLAN_TONE[c.status]}>{c.status}</Badge> · for{' '}
            <Link href={`/members/${c.subjectId}`} className="text-brand-700">
              {member.data?.name ?? member.data?.email ?? `member #${c.subjectId}`}
            </Link>{' '}
            · template <span className="font-mono text-xs">{c.slug}</span> version {c.version} · started <When at={c.createdAt} style="day" />
          </>
        }
        actions={
          ongoing && (
            <>
              <Button variant="secondary" busy={update.isPending && update.variables?.changes.status === 'completed'} onClick={() => update.mutate({ id, changes: { status: 'completed' } })}>
                Complete
              </Button>
              <Button
                variant="danger"
                busy={update.isPending && update.variables?.changes.status === 'cancelled'}
                onClick={() => {
                  if (window.confirm('Cancel this care plan? Its open activities are cancelled.')) update.mutate({ id, changes: { status: 'cancelled' } });
                }}
              >
                Cancel care plan
              </Button>
            </>
          )
        }
      />
      <Card title="Reference dates" className="mb-6">
        {(c.parameters ?? []).length === 0 ? (
          <p className="text-sm text-slate-600">This template has no inputs: every activity is scheduled from the care plan&apos;s start.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Reference dates">
            {(c.parameters ?? []).map((p) => (
              <ParameterRow key={`${p.id}-${p.observationId}`} careplanId={id} parameter={p} input={inputs.find((i) => i.id === p.inputId)} disabled={!ongoing} />
            ))}
          </ul>
        )}
      </Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">Timeline</h2>
      <ErrorNotice error={timeline.error} onRetry={() => void timeline.refetch()} />
      {timeline.isPending ? (
        <Loading label="Loading activities…" />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-8 text-center text-sm text-slate-600">
          No activities yet. Set a reference date to schedule the activities anchored on it.
        </p>
      ) : (
        <>
          <Timeline items={items} marks={marks} now={new Date(timeline.dataUpdatedAt || Date.now()).toISOString()} timeZone={timeZone} />
          <h2 className="mb-3 mt-8 text-lg font-semibold text-slate-900">Activities</h2>
          <ActivityList careplanId={id} activities={activities} editable={ongoing} />
        </>
      )}
      <div className="mt-8">
        <History resource="careplan" resourceId={id} />
      </div>
    </>
  );
}
