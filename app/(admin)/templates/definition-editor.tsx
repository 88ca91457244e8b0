'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { useIsAdmin } from '@/app/_components/staff-context';
import { Timeline } from '@/app/_components/timeline';
import { Button, Card, ErrorNotice, SelectField, TextField } from '@/app/_components/ui';
import { useStaff } from '@/app/_components/staff-context';
import { ArticlePicker, ObservationCodePicker, QuestionnairePicker } from '@/app/_components/pickers';
import { useTRPC } from '@/app/_trpc/client';
import { OFFSET_UNITS as UNITS, type OffsetUnit } from '@/server/core/offsets';
import type { reminderSchema } from '@/server/services/activities/schemas';
import { createDefinitionInput, updateDefinitionInput, type actionSchema, type inputBodySchema } from '@/server/services/careplans/schemas';
import { ACTIVITY_KINDS } from '@/server/services/activities/schemas';
import { checkWith } from '@/app/_components/form-validation';
import { sameValue } from '@/app/_components/same-value';
import { useSaving } from '@/app/_components/saving';
import { useUnsavedChanges } from '@/app/_components/unsaved';
import type { z } from 'zod';

type Unit = OffsetUnit;
const UNIT_LABEL: Record<Unit, string> = { s: 'seconds', min: 'minutes', h: 'hours', d: 'days', wk: 'weeks', mo: 'months', a: 'years' };
type Offset = { offset: number; offsetUnit: Unit };
/** An action as the form edits it: the API's action, with reminders always present. */
export type EditorAction = Omit<z.input<typeof actionSchema>, 'actorType' | 'reminders'> & { actorType: string; reminders: z.input<typeof reminderSchema>[]; refLabel?: string };
type Kind = (typeof ACTIVITY_KINDS)[number];
const KIND_LABEL: Record<Kind, string> = { task: 'Task', message: 'Message', questionnaire: 'Questionnaire', appointment: 'Appointment' };
/** Changing an action's kind drops the reference fields of the kind it had (they would be refused). */
const withKind = (kind: Kind): Partial<EditorAction> => ({ kind, articleId: undefined, questionnaireId: undefined, scheduleId: undefined, refLabel: undefined });
/** An input as the form edits it; the code's display name is kept for the picker. */
export type EditorInput = z.input<typeof inputBodySchema> & { codeLabel?: string };
export type EditorValue = { slug: string; title: string; inputs: EditorInput[]; actions: EditorAction[] };

const control = 'rounded-md border-0 bg-white px-2 py-1.5 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500';
const errClass = (e?: string) => (e ? ' ring-red-400' : '');

function OffsetField({ label, value, onChange, error, min }: { label: string; value: Offset; onChange: (o: Offset) => void; error?: string; min?: number }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-xs font-medium text-slate-600">{label}</legend>
      <div className="flex gap-1">
        <input
          type="number"
          aria-label={`${label} amount`}
          className={`${control} w-20${errClass(error)}`}
          value={Number.isFinite(value.offset) ? value.offset : ''}
          min={min}
          onChange={(e) => onChange({ ...value, offset: e.target.value === '' ? NaN : Number(e.target.value) })}
        />
        <select aria-label={`${label} unit`} className={control} value={value.offsetUnit} onChange={(e) => onChange({ ...value, offsetUnit: e.target.value as Unit })}>
          {UNITS.map((u) => (
            <option key={u} value={u}>
              {UNIT_LABEL[u]}
            </option>
          ))}
        </select>
      </div>
      {error && <p className="mt-1 text-xs text-red-700">{error}</p>}
    </fieldset>
  );
}

/** Builds a template: inputs bound to date codes, and actions scheduled from an input or the care plan start. */
export function DefinitionEditor({
  initial,
  definitionId,
  onSaved,
  readOnly = false,
  asNewVersion = false,
}: {
  initial: EditorValue;
  definitionId?: number;
  onSaved?: (version: number) => void;
  /** An old version, shown as it was: nothing can be changed. */
  readOnly?: boolean;
  /** Editing starts from an old version: the only save is as a new version. */
  asNewVersion?: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const saving = useSaving();
  const canEdit = useIsAdmin() && !readOnly;
  const { timeZone } = useStaff();
  const [value, setValue] = useState<EditorValue>(initial);
  // What was last saved (or loaded): unsaved changes are the difference in values, not in JSON text.
  const [baseline, setBaseline] = useState<EditorValue>(initial);
  const dirty = canEdit && (asNewVersion || !sameValue(value, baseline));
  useUnsavedChanges(dirty);
  const [samples, setSamples] = useState<Record<string, string>>({});
  const anyDateCode = useQuery(trpc.observationCodes.list.queryOptions({ type: 'date', limit: 1 }));
  const schedules = useQuery(trpc.schedules.list.queryOptions({ limit: 200 }));
  const hasDateCodes = (anyDateCode.data?.items.length ?? 1) > 0;
  const create = useMutation(
    saving(
      trpc.definitions.create.mutationOptions({
        onSuccess: async (d) => {
          setBaseline(value);
          await queryClient.invalidateQueries({ queryKey: trpc.definitions.list.queryKey() });
          router.push(`/templates/${d.id}`);
        },
      }),
      (d) => `Template “${d.title}” created`,
      { quietErrors: true },
    ),
  );
  const update = useMutation(
    saving(
      trpc.definitions.update.mutationOptions({
        onSuccess: async (d) => {
          setBaseline(value);
          await queryClient.invalidateQueries({ queryKey: trpc.definitions.list.queryKey() });
          await queryClient.invalidateQueries({ queryKey: trpc.definitions.get.queryKey() });
          await queryClient.invalidateQueries({ queryKey: trpc.definitions.versions.queryKey() });
          onSaved?.(d.version);
        },
      }),
      (d) => `Saved as version ${d.version}`,
      { quietErrors: true },
    ),
  );
  const mutationError = create.error ?? update.error;
  const [local, setLocal] = useState<Record<string, string>>({});
  const errors = { ...fieldErrorsOf(mutationError), ...local };
  const busy = create.isPending || update.isPending;
  const validActions = value.actions.filter((a) => a.key && a.type && a.display && Number.isFinite(a.start.offset));
  const preview = useQuery({
    ...trpc.definitions.preview.queryOptions({ actions: validActions, sampleDates: samples }),
    placeholderData: keepPreviousData,
  });

  const setAction = (i: number, patch: Partial<EditorAction>) => setValue((v) => ({ ...v, actions: v.actions.map((a, j) => (j === i ? { ...a, ...patch } : a)) }));
  const setInput = (i: number, patch: Partial<EditorInput>) => setValue((v) => ({ ...v, inputs: v.inputs.map((a, j) => (j === i ? { ...a, ...patch } : a)) }));
  const body = {
    ...value,
    inputs: value.inputs.map(({ key, observationCodeId }) => ({ key, observationCodeId })),
    actions: value.actions.map(({ end, inputKey, refLabel: _label, description, articleId, questionnaireId, scheduleId, ...a }) => ({
      ...a,
      ...(end ? { end } : {}),
      ...(inputKey ? { inputKey } : {}),
      ...(description ? { description } : {}),
      ...(articleId ? { articleId } : {}),
      ...(questionnaireId ? { questionnaireId } : {}),
      ...(scheduleId ? { scheduleId } : {}),
    })),
  };
  const save = (newVersion: boolean) => {
    // The API's own rules first (keys, offsets, inputs named by actions), shown where they apply.
    if (definitionId) {
      const checked = checkWith(updateDefinitionInput, { ...body, ...(newVersion ? { newVersion: true } : {}) });
      setLocal(checked.errors ?? {});
      if (checked.value) update.mutate({ id: definitionId, changes: checked.value });
    } else {
      const checked = checkWith(createDefinitionInput, body);
      setLocal(checked.errors ?? {});
      if (checked.value) create.mutate(checked.value);
    }
  };

  return (
    <div className="space-y-6">
      <fieldset disabled={!canEdit} className="min-w-0 space-y-6">
        <legend className="sr-only">{readOnly ? 'This version, read only' : 'Template'}</legend>
      <Card title="Template">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Title" value={value.title} onChange={(e) => setValue({ ...value, title: e.target.value })} error={errors.title} />
          <TextField label="Slug" value={value.slug} onChange={(e) => setValue({ ...value, slug: e.target.value })} error={errors.slug} hint="Lower-case letters, digits and -" />
        </div>
      </Card>

      <Card
        title="Inputs (reference dates)"
        actions={
          canEdit && (
            <Button variant="secondary" onClick={() => setValue({ ...value, inputs: [...value.inputs, { key: '', observationCodeId: 0 }] })}>
              Add input
            </Button>
          )
        }
      >
        {value.inputs.length === 0 && <p className="text-sm text-slate-500">No inputs: every action is scheduled from the care plan&apos;s start.</p>}
        {!hasDateCodes && <p className="text-sm text-amber-700">Create a date observation code first; inputs are bound to one.</p>}
        <ul className="space-y-3" aria-label="Inputs">
          {value.inputs.map((input, i) => (
            <li key={i} className="flex flex-wrap items-end gap-3">
              <TextField label={`Input ${i + 1} key`} value={input.key} onChange={(e) => setInput(i, { key: e.target.value })} error={errors[`inputs.${i}.key`]} placeholder="surgery" />
              <ObservationCodePicker
                label={`Input ${i + 1} date code`}
                type="date"
                required
                className="min-w-64"
                value={input.observationCodeId || null}
                selectedLabel={input.codeLabel}
                onChange={(o) => setInput(i, { observationCodeId: o?.id ?? 0, codeLabel: o?.label })}
                error={errors[`inputs.${i}.observationCodeId`]}
              />
              {canEdit && (
                <Button variant="ghost" aria-label={`Remove input ${i + 1}`} onClick={() => setValue({ ...value, inputs: value.inputs.filter((_, j) => j !== i) })}>
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      </Card>

      <Card
        title="Actions"
        actions={
          canEdit && (
            <Button
              variant="secondary"
              onClick={() =>
                setValue({
                  ...value,
                  actions: [...value.actions, { key: '', kind: 'task', type: '', display: '', actorType: 'subject', start: { offset: 0, offsetUnit: 'd' }, reminders: [] }],
                })
              }
            >
              Add action
            </Button>
          )
        }
      >
        {value.actions.length === 0 && <p className="text-sm text-slate-500">No actions yet. Each action becomes an activity of every care plan.</p>}
        <ol className="space-y-4" aria-label="Actions">
          {value.actions.map((a, i) => {
            const e = (p: string) => errors[`actions.${i}.${p}`];
            return (
              <li key={i} aria-label={`Action ${i + 1}`} className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200">
                <div className="grid gap-3 md:grid-cols-4">
                  <TextField label={`Action ${i + 1} key`} value={a.key} onChange={(ev) => setAction(i, { key: ev.target.value })} error={e('key')} placeholder="check-up" />
                  <TextField label={`Action ${i + 1} type`} value={a.type} onChange={(ev) => setAction(i, { type: ev.target.value })} error={e('type')} placeholder="visit" />
                  <TextField label={`Action ${i + 1} display`} value={a.display} onChange={(ev) => setAction(i, { display: ev.target.value })} error={e('display')} placeholder="Check-up" />
                  <TextField label={`Action ${i + 1} actor type`} value={a.actorType} onChange={(ev) => setAction(i, { actorType: ev.target.value })} error={e('actorType')} hint="subject: the member is notified" />
                </div>
                <div className="mt-3 grid gap-3 md:grid-cols-[12rem_1fr_1fr]">
                  <div>
                    <label htmlFor={`kind-${i}`} className="mb-1 block text-sm font-medium text-slate-700">
                      Action {i + 1} kind
                    </label>
                    <select id={`kind-${i}`} className={`${control} w-full${errClass(e('kind'))}`} value={a.kind ?? 'task'} onChange={(ev) => setAction(i, withKind(ev.target.value as Kind))}>
                      {ACTIVITY_KINDS.map((k) => (
                        <option key={k} value={k}>
                          {KIND_LABEL[k]}
                        </option>
                      ))}
                    </select>
                    {e('kind') && <p className="mt-1 text-xs text-red-700">{e('kind')}</p>}
                  </div>
                  {(a.kind ?? 'task') === 'message' && (
                    <ArticlePicker
                      label={`Action ${i + 1} article`}
                      hint="Optional: the article the member reads"
                      value={a.articleId ?? null}
                      selectedLabel={a.refLabel}
                      onChange={(o) => setAction(i, { articleId: o?.id, refLabel: o?.label })}
                      error={e('articleId')}
                    />
                  )}
                  {a.kind === 'questionnaire' && (
                    <QuestionnairePicker
                      label={`Action ${i + 1} questionnaire`}
                      required
                      value={a.questionnaireId ?? null}
                      selectedLabel={a.refLabel}
                      onChange={(o) => setAction(i, { questionnaireId: o?.id, refLabel: o?.label })}
                      error={e('questionnaireId')}
                    />
                  )}
                  {a.kind === 'appointment' && (
                    <SelectField
                      label={`Action ${i + 1} schedule`}
                      value={a.scheduleId ?? ''}
                      onChange={(ev) => setAction(i, { scheduleId: ev.target.value ? Number(ev.target.value) : undefined })}
                      error={e('scheduleId')}
                      hint="Where the member books; any active schedule when none is picked"
                    >
                      <option value="">Any active schedule</option>
                      {schedules.data?.items.map((s) => (
                        <option key={s.id} value={s.id}>
                          {s.display}
                        </option>
                      ))}
                    </SelectField>
                  )}
                  <TextField
                    label={`Action ${i + 1} instructions`}
                    className={(a.kind ?? 'task') === 'task' ? 'md:col-span-2' : ''}
                    value={a.description ?? ''}
                    onChange={(ev) => setAction(i, { description: ev.target.value || undefined })}
                    error={e('description')}
                    placeholder="What the member should do (optional)"
                  />
                </div>
                <div className="mt-3 flex flex-wrap items-start gap-4">
                  <div>
                    <label htmlFor={`anchor-${i}`} className="mb-1 block text-xs font-medium text-slate-600">
                      Action {i + 1} anchor
                    </label>
                    <select id={`anchor-${i}`} className={control + errClass(e('inputKey'))} value={a.inputKey ?? ''} onChange={(ev) => setAction(i, { inputKey: ev.target.value || undefined })}>
                      <option value="">Care plan start</option>
                      {value.inputs.filter((x) => x.key).map((x) => (
                        <option key={x.key} value={x.key}>
                          {x.key}
                        </option>
                      ))}
                    </select>
                    {e('inputKey') && <p className="mt-1 text-xs text-red-700">{e('inputKey')}</p>}
                  </div>
                  <OffsetField label={`Action ${i + 1} start`} value={a.start} onChange={(start) => setAction(i, { start })} error={e('start.offset') ?? e('start.offsetUnit')} />
                  <div>
                    <label className="mb-1 flex items-center gap-1.5 text-xs font-medium text-slate-600">
                      <input type="checkbox" checked={Boolean(a.end)} onChange={(ev) => setAction(i, { end: ev.target.checked ? { offset: 1, offsetUnit: 'd' } : undefined })} />
                      Action {i + 1} ends
                    </label>
                    {a.end && <OffsetField label={`Action ${i + 1} end`} value={a.end} onChange={(end) => setAction(i, { end })} error={e('end.offset')} min={1} />}
                  </div>
                  <div className="basis-full">
                    <p className="mb-1 text-xs font-medium text-slate-600">Reminders (after activation)</p>
                    {a.reminders.map((r, k) => {
                      const setReminder = (patch: Partial<typeof r>) => setAction(i, { reminders: a.reminders.map((x, j) => (j === k ? { ...x, ...patch } : x)) });
                      return (
                        <div key={k} className="mb-3 grid gap-2 rounded-md bg-white p-3 ring-1 ring-slate-200 md:grid-cols-[auto_1fr_1fr] md:items-end">
                          <div className="flex items-end gap-2">
                            <OffsetField label={`Action ${i + 1} reminder ${k + 1}`} value={r} onChange={(o) => setReminder(o)} error={e(`reminders.${k}.offset`)} min={0} />
                            <Button variant="ghost" aria-label={`Remove reminder ${k + 1} of action ${i + 1}`} onClick={() => setAction(i, { reminders: a.reminders.filter((_, j) => j !== k) })}>
                              Remove
                            </Button>
                          </div>
                          <TextField
                            label={`Action ${i + 1} reminder ${k + 1} title`}
                            value={r.title ?? ''}
                            onChange={(ev) => setReminder({ title: ev.target.value || undefined })}
                            error={e(`reminders.${k}.title`)}
                            placeholder="Default: the activity's type and name"
                          />
                          <TextField
                            label={`Action ${i + 1} reminder ${k + 1} message`}
                            value={r.body ?? ''}
                            onChange={(ev) => setReminder({ body: ev.target.value || undefined })}
                            error={e(`reminders.${k}.body`)}
                            placeholder="Optional text the member reads"
                          />
                        </div>
                      );
                    })}
                    <Button variant="ghost" onClick={() => setAction(i, { reminders: [...a.reminders, { offset: 0, offsetUnit: 'h' }] })}>
                      Add reminder
                    </Button>
                  </div>
                  {canEdit && (
                    <Button variant="ghost" className="ml-auto text-red-700" aria-label={`Remove action ${i + 1}`} onClick={() => setValue({ ...value, actions: value.actions.filter((_, j) => j !== i) })}>
                      Remove action
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      </Card>

      </fieldset>
      {canEdit && (
        <div className="sticky bottom-0 z-10 -mx-2 flex flex-wrap items-center gap-3 rounded-lg bg-white/95 px-4 py-3 shadow ring-1 ring-slate-200">
          {!asNewVersion && (
            <Button busy={busy && !update.variables?.changes.newVersion} disabled={busy || (Boolean(definitionId) && !dirty)} onClick={() => save(false)}>
              {definitionId ? 'Save changes' : 'Create template'}
            </Button>
          )}
          {definitionId && (
            <Button variant={asNewVersion ? 'primary' : 'secondary'} busy={busy && Boolean(update.variables?.changes.newVersion)} disabled={busy} onClick={() => save(true)}>
              Save as new version
            </Button>
          )}
          {dirty && !busy && <span className="text-sm text-amber-800">Unsaved changes</span>}
          <ErrorNotice error={formErrorOf(mutationError)} />
          {definitionId && !asNewVersion && (
            <span className="text-xs text-slate-600 sm:ml-auto">Save changes edits in place while no care plan uses this version; otherwise it saves a new version.</span>
          )}
        </div>
      )}

      <Card title="Preview">
        <p className="mb-3 text-sm text-slate-600">The activities a care plan started now would get, with these sample reference dates.</p>
        <div className="mb-4 flex flex-wrap gap-4">
          {value.inputs.filter((x) => x.key).map((x) => (
            <TextField key={x.key} label={`Sample ${x.key}`} type="date" value={samples[x.key] ?? ''} onChange={(ev) => setSamples({ ...samples, [x.key]: ev.target.value })} />
          ))}
        </div>
        {preview.data && preview.data.activities.length > 0 ? (
          <Timeline
            items={preview.data.activities.map((p, k) => ({
              id: k,
              label: p.display,
              type: p.type,
              status: 'preview',
              group: p.anchor ? p.anchor : 'From the care plan start',
              activateAt: p.activateAt,
              endAt: p.endAt,
              reminders: p.reminders,
            }))}
            marks={[{ label: 'Start', at: preview.data.start }]}
            now={preview.data.start}
            timeZone={timeZone}
          />
        ) : (
          <p className="text-sm text-slate-500">{value.actions.length === 0 ? 'Add an action to see it here.' : 'Give the anchored actions a sample date to see them.'}</p>
        )}
      </Card>
    </div>
  );
}
