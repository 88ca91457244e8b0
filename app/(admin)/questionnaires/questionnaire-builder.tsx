'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useRef, useState } from 'react';
import { fieldErrorsOf, formErrorOf } from '@/app/_components/errors';
import { checkWith } from '@/app/_components/form-validation';
import { ObservationCodePicker } from '@/app/_components/pickers';
import { QuestionnaireForm } from '@/app/_components/questionnaire-form';
import { sameValue } from '@/app/_components/same-value';
import { useSaving } from '@/app/_components/saving';
import { useIsAdmin } from '@/app/_components/staff-context';
import { useUnsavedChanges } from '@/app/_components/unsaved';
import { Button, Card, ErrorNotice, SelectField, TextField } from '@/app/_components/ui';
import { useTRPC } from '@/app/_trpc/client';
import { codeTypeFor, type Item, type ItemType } from '@/server/services/questionnaires/rules';
import {
  createQuestionnaireInput,
  ITEM_TYPES,
  QUESTIONNAIRE_STATUSES,
  updateQuestionnaireInput,
  type QuestionnaireDto,
  type QuestionnaireStatus,
} from '@/server/services/questionnaires/schemas';

/** An item as the builder edits it: a stable key for React, and the mapped code's name for its picker. */
type EditorItem = Item & { uid: number; codeLabel?: string };

const TYPE_LABEL: Record<ItemType, string> = {
  display: 'Text only (no answer)',
  string: 'Short text',
  text: 'Long text',
  integer: 'Whole number',
  decimal: 'Number',
  boolean: 'Yes / no',
  date: 'Date',
  choice: 'Choice',
};
const STATUS_LABEL: Record<QuestionnaireStatus, string> = { draft: 'Draft (not answerable)', active: 'Active', retired: 'Retired (no new responses)' };
const control = 'rounded-md border-0 bg-white px-2 py-1.5 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-500';

let uidCounter = 0;
const uid = () => ++uidCounter;

/** Only the fields the item's type takes, without empty ones: what the API receives. */
function cleanItem({ uid: _uid, codeLabel: _label, ...item }: EditorItem): Item {
  const out: Item = { linkId: item.linkId, text: item.text, type: item.type };
  if (item.required && item.type !== 'display') out.required = true;
  if (item.type === 'choice') {
    if (item.repeats) out.repeats = true;
    out.options = item.options ?? [];
  }
  if (item.type === 'integer' || item.type === 'decimal') {
    if (item.min !== undefined && Number.isFinite(item.min)) out.min = item.min;
    if (item.max !== undefined && Number.isFinite(item.max)) out.max = item.max;
  }
  if (item.enableWhen) out.enableWhen = item.enableWhen;
  if (item.observationCodeId) out.observationCodeId = item.observationCodeId;
  return out;
}

const numberOrUndefined = (text: string) => (text.trim() === '' ? undefined : Number(text));

/**
 * Builds a questionnaire: items added, reordered and removed, each with the fields of its type; conditions
 * pick an earlier item; the observation code picker offers only codes whose type fits. The preview is the
 * members' own form component, conditions included.
 */
export function QuestionnaireBuilder({
  questionnaire,
  readOnly = false,
  asNewVersion = false,
  onSaved,
}: {
  questionnaire?: QuestionnaireDto;
  /** An old version, shown as it was. */
  readOnly?: boolean;
  /** Editing starts from an old version: the only save is as a new version. */
  asNewVersion?: boolean;
  onSaved?: (version: number) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const saving = useSaving();
  const isAdmin = useIsAdmin() && !readOnly;
  const [meta, setMeta] = useState({
    title: questionnaire?.title ?? '',
    slug: questionnaire?.slug ?? '',
    description: questionnaire?.description ?? '',
    status: questionnaire?.status ?? ('active' as QuestionnaireStatus),
  });
  const [items, setItems] = useState<EditorItem[]>(() => (questionnaire?.items ?? []).map((i) => ({ ...i, uid: uid() })));
  const [local, setLocal] = useState<Record<string, string>>({});
  const listRef = useRef<HTMLOListElement>(null);
  const snapshot = () => ({ meta, items: items.map(cleanItem) });
  // What was last saved (or loaded); unsaved changes are a difference in values.
  const [baseline, setBaseline] = useState(snapshot);
  const dirty = isAdmin && (asNewVersion || !sameValue(snapshot(), baseline));
  useUnsavedChanges(dirty);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.questionnaires.list.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.questionnaires.versions.queryKey() });
  };
  const create = useMutation(
    saving(
      trpc.questionnaires.create.mutationOptions({ onSuccess: async (q) => (setBaseline(snapshot()), await refresh(), router.push(`/questionnaires/${q.id}`)) }),
      (q) => `Questionnaire “${q.title}” created`,
      { quietErrors: true },
    ),
  );
  const update = useMutation(
    saving(
      trpc.questionnaires.update.mutationOptions({
        onSuccess: async (q) => {
          setBaseline(snapshot());
          await refresh();
          await queryClient.invalidateQueries({ queryKey: trpc.questionnaires.get.queryKey() });
          onSaved?.(q.version);
        },
      }),
      (q) => `Saved as version ${q.version}`,
      { quietErrors: true },
    ),
  );
  const error = create.error ?? update.error;
  const errors = { ...fieldErrorsOf(error), ...local };
  const busy = create.isPending || update.isPending;
  const cleaned = items.map(cleanItem);
  const previewItems = useDeferredValue(cleaned);

  const setItem = (i: number, patch: Partial<EditorItem>) => {
    setItems((list) => list.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  };
  const move = (i: number, by: -1 | 1) => {
    setItems((list) => {
      const next = [...list];
      const [moved] = next.splice(i, 1);
      next.splice(i + by, 0, moved!);
      return next;
    });
  };
  const add = () => {
    setItems((list) => [...list, { uid: uid(), linkId: `q${list.length + 1}`, text: '', type: 'string' }]);
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>('li:last-child input')?.focus());
  };

  function save(newVersion: boolean) {
    const body = { title: meta.title.trim(), slug: meta.slug.trim(), description: meta.description.trim() || null, status: meta.status, items: cleaned };
    if (questionnaire) {
      const checked = checkWith(updateQuestionnaireInput, { ...body, ...(newVersion ? { newVersion: true } : {}) });
      setLocal(checked.errors ?? {});
      if (checked.value) update.mutate({ id: questionnaire.id, changes: checked.value });
    } else {
      const checked = checkWith(createQuestionnaireInput, body);
      setLocal(checked.errors ?? {});
      if (checked.value) create.mutate(checked.value);
    }
  }

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
      <div className="min-w-0 space-y-6">
        <Card title="Questionnaire">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Title" value={meta.title} onChange={(e) => setMeta({ ...meta, title: e.target.value })} error={errors.title} disabled={!isAdmin} />
            <TextField label="Slug" value={meta.slug} onChange={(e) => setMeta({ ...meta, slug: e.target.value })} error={errors.slug} disabled={!isAdmin} placeholder="pre-op" />
            <TextField
              label="Description"
              className="sm:col-span-2"
              value={meta.description}
              onChange={(e) => setMeta({ ...meta, description: e.target.value })}
              error={errors.description}
              disabled={!isAdmin}
              hint="Optional: shown above the questions"
            />
            <SelectField label="Status" value={meta.status} onChange={(e) => setMeta({ ...meta, status: e.target.value as QuestionnaireStatus })} error={errors.status} disabled={!isAdmin}>
              {QUESTIONNAIRE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </SelectField>
          </div>
        </Card>

        <Card title="Questions" actions={isAdmin && <Button variant="secondary" onClick={add}>Add question</Button>}>
          {items.length === 0 && <p className="text-sm text-slate-500">No questions yet. Add one to start.</p>}
          {errors.items && <p className="mb-2 text-sm text-red-700">{errors.items}</p>}
          <ol ref={listRef} className="space-y-4" aria-label="Questions">
            {items.map((item, i) => (
              <ItemEditor
                key={item.uid}
                item={item}
                index={i}
                earlier={items.slice(0, i)}
                count={items.length}
                errors={Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith(`items.${i}.`)).map(([k, v]) => [k.slice(`items.${i}.`.length), v]))}
                readOnly={!isAdmin}
                onChange={(patch) => setItem(i, patch)}
                onMove={(by) => move(i, by)}
                onRemove={() => setItems((list) => list.filter((_, j) => j !== i))}
              />
            ))}
          </ol>
        </Card>

        {isAdmin && (
          <div className="sticky bottom-0 z-10 flex flex-wrap items-center gap-3 rounded-lg bg-white/95 px-4 py-3 shadow ring-1 ring-slate-200">
            {!asNewVersion && (
              <Button busy={busy && !update.variables?.changes.newVersion} disabled={busy || (Boolean(questionnaire) && !dirty)} onClick={() => save(false)}>
                {questionnaire ? 'Save changes' : 'Create questionnaire'}
              </Button>
            )}
            {questionnaire && (
              <Button variant={asNewVersion ? 'primary' : 'secondary'} busy={busy && Boolean(update.variables?.changes.newVersion)} disabled={busy} onClick={() => save(true)}>
                Save as new version
              </Button>
            )}
            {dirty && !busy && <span className="text-sm text-amber-800">Unsaved changes</span>}
            <ErrorNotice error={formErrorOf(error) ?? (Object.keys(local).length > 0 ? { message: 'Please correct the highlighted fields.' } : null)} />
            {questionnaire && !asNewVersion && <span className="text-xs text-slate-600">Save changes edits in place while no response uses this version; otherwise it saves a new version.</span>}
          </div>
        )}
      </div>

      <Card title="Preview: as members see it" className="self-start xl:sticky xl:top-4">
        <QuestionnaireForm preview title={meta.title || 'Untitled questionnaire'} description={meta.description} items={previewItems} submitLabel="Check answers" />
      </Card>
    </div>
  );
}

function ItemEditor({
  item,
  index,
  earlier,
  count,
  errors,
  readOnly,
  onChange,
  onMove,
  onRemove,
}: {
  item: EditorItem;
  index: number;
  earlier: EditorItem[];
  count: number;
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (patch: Partial<EditorItem>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const codeType = codeTypeFor(item);
  const answerable = earlier.filter((e) => e.type !== 'display' && e.linkId);
  const target = earlier.find((e) => e.linkId === item.enableWhen?.linkId);
  const setType = (type: ItemType) =>
    onChange({
      type,
      required: type === 'display' ? undefined : item.required,
      repeats: undefined,
      options: type === 'choice' ? (item.options ?? [{ value: 'yes', display: 'Yes' }]) : undefined,
      min: undefined,
      max: undefined,
      // A mapped code must fit the new type; the picker then offers only fitting ones.
      observationCodeId: undefined,
      codeLabel: undefined,
    });
  return (
    <li aria-label={`Question ${n}`} className="rounded-md bg-slate-50 p-4 ring-1 ring-slate-200">
      <div className="grid gap-3 md:grid-cols-[1fr_10rem_12rem]">
        <TextField label={`Question ${n} text`} value={item.text} onChange={(e) => onChange({ text: e.target.value })} error={errors.text} disabled={readOnly} placeholder="When is your surgery?" />
        <TextField label={`Question ${n} id`} value={item.linkId} onChange={(e) => onChange({ linkId: e.target.value })} error={errors.linkId} disabled={readOnly} hint="Used in the API and CSV" />
        <SelectField label={`Question ${n} type`} value={item.type} onChange={(e) => setType(e.target.value as ItemType)} error={errors.type} disabled={readOnly}>
          {ITEM_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABEL[t]}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="mt-3 flex flex-wrap items-start gap-x-6 gap-y-3">
        {item.type !== 'display' && (
          <label className="mt-6 inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={Boolean(item.required)} disabled={readOnly} onChange={(e) => onChange({ required: e.target.checked || undefined })} className="size-4 accent-brand-600" />
            Question {n} required
          </label>
        )}
        {item.type === 'choice' && (
          <label className="mt-6 inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={Boolean(item.repeats)} disabled={readOnly} onChange={(e) => onChange({ repeats: e.target.checked || undefined, observationCodeId: undefined, codeLabel: undefined })} className="size-4 accent-brand-600" />
            Question {n} allows several
          </label>
        )}
        {(item.type === 'integer' || item.type === 'decimal') && (
          <>
            <TextField label={`Question ${n} minimum`} className="w-40" inputMode="decimal" defaultValue={item.min ?? ''} onChange={(e) => onChange({ min: numberOrUndefined(e.target.value) })} error={errors.min} disabled={readOnly} />
            <TextField label={`Question ${n} maximum`} className="w-40" inputMode="decimal" defaultValue={item.max ?? ''} onChange={(e) => onChange({ max: numberOrUndefined(e.target.value) })} error={errors.max} disabled={readOnly} />
          </>
        )}
        {codeType && (
          <ObservationCodePicker
            key={`${item.type}-${item.repeats}`}
            label={`Question ${n} records as`}
            type={codeType}
            className="min-w-56"
            hint={`Optional: a ${codeType} observation code; answers feed care plans`}
            value={item.observationCodeId ?? null}
            selectedLabel={item.codeLabel}
            onChange={(o) => onChange({ observationCodeId: o?.id, codeLabel: o?.label })}
            error={errors.observationCodeId}
          />
        )}
      </div>

      {item.type === 'choice' && (
        <fieldset className="mt-3">
          <legend className="mb-1 text-sm font-medium text-slate-700">Question {n} options</legend>
          {errors.options && <p className="mb-1 text-xs text-red-700">{errors.options}</p>}
          <ul className="space-y-2">
            {(item.options ?? []).map((o, k) => (
              <li key={k} className="flex flex-wrap items-end gap-2">
                <TextField
                  label={`Option ${k + 1} label`}
                  value={o.display}
                  disabled={readOnly}
                  onChange={(e) => onChange({ options: item.options!.map((x, j) => (j === k ? { ...x, display: e.target.value } : x)) })}
                  error={errors[`options.${k}.display`]}
                />
                <TextField
                  label={`Option ${k + 1} value`}
                  value={o.value}
                  disabled={readOnly}
                  onChange={(e) => onChange({ options: item.options!.map((x, j) => (j === k ? { ...x, value: e.target.value } : x)) })}
                  error={errors[`options.${k}.value`]}
                />
                {!readOnly && (
                  <Button variant="ghost" aria-label={`Remove option ${k + 1} of question ${n}`} onClick={() => onChange({ options: item.options!.filter((_, j) => j !== k) })}>
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {!readOnly && (
            <Button variant="ghost" className="mt-1" onClick={() => onChange({ options: [...(item.options ?? []), { value: `option-${(item.options?.length ?? 0) + 1}`, display: '' }] })}>
              Add option
            </Button>
          )}
        </fieldset>
      )}

      <fieldset className="mt-3">
        <legend className="mb-1 text-sm font-medium text-slate-700">Question {n} condition</legend>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label htmlFor={`when-${item.uid}`} className="text-slate-600">
            Show
          </label>
          <select
            id={`when-${item.uid}`}
            className={control}
            disabled={readOnly || answerable.length === 0}
            value={item.enableWhen?.linkId ?? ''}
            onChange={(e) => onChange({ enableWhen: e.target.value ? { linkId: e.target.value, operator: 'exists' } : undefined })}
            aria-label={`Question ${n} depends on`}
          >
            <option value="">always</option>
            {answerable.map((e) => (
              <option key={e.uid} value={e.linkId}>
                when “{e.text || e.linkId}” is
              </option>
            ))}
          </select>
          {item.enableWhen && target && (
            <ConditionAnswer
              target={target}
              n={n}
              readOnly={readOnly}
              value={item.enableWhen.operator === 'exists' ? undefined : item.enableWhen.answer}
              onChange={(answer) => onChange({ enableWhen: answer === undefined ? { linkId: target.linkId, operator: 'exists' } : { linkId: target.linkId, operator: 'equals', answer } })}
            />
          )}
        </div>
        {answerable.length === 0 && <p className="mt-1 text-xs text-slate-500">Conditions name a question above this one.</p>}
        {(errors['enableWhen.linkId'] ?? errors['enableWhen.answer']) && <p className="mt-1 text-xs text-red-700">{errors['enableWhen.linkId'] ?? errors['enableWhen.answer']}</p>}
      </fieldset>

      {!readOnly && (
        <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-200 pt-3">
          <Button variant="ghost" disabled={index === 0} aria-label={`Move question ${n} up`} onClick={() => onMove(-1)}>
            Move up
          </Button>
          <Button variant="ghost" disabled={index === count - 1} aria-label={`Move question ${n} down`} onClick={() => onMove(1)}>
            Move down
          </Button>
          <Button variant="ghost" className="ml-auto text-red-700" aria-label={`Remove question ${n}`} onClick={onRemove}>
            Remove question
          </Button>
        </div>
      )}
    </li>
  );
}

/** The answer a condition compares with, picked the way the earlier question is answered. */
function ConditionAnswer({ target, n, value, readOnly, onChange }: { target: EditorItem; n: number; value: unknown; readOnly: boolean; onChange: (v: string | number | boolean | undefined) => void }) {
  const label = `Question ${n} condition answer`;
  if (target.type === 'boolean' || target.type === 'choice') {
    const options = target.type === 'boolean' ? [{ value: 'true', display: 'Yes' }, { value: 'false', display: 'No' }] : (target.options ?? []);
    return (
      <select
        className={control}
        aria-label={label}
        disabled={readOnly}
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : target.type === 'boolean' ? e.target.value === 'true' : e.target.value)}
      >
        <option value="">answered (anything)</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {target.type === 'choice' && target.repeats ? `including “${o.display}”` : `“${o.display}”`}
          </option>
        ))}
      </select>
    );
  }
  const numeric = target.type === 'integer' || target.type === 'decimal';
  return (
    <>
      <span className="text-slate-600">answered{value === undefined ? '' : ' with'}</span>
      <input
        className={`${control} w-40`}
        aria-label={label}
        disabled={readOnly}
        type={target.type === 'date' ? 'date' : 'text'}
        inputMode={numeric ? 'decimal' : undefined}
        placeholder="(anything)"
        defaultValue={value === undefined ? '' : String(value)}
        onChange={(e) => {
          const text = e.target.value;
          onChange(text === '' ? undefined : numeric && Number.isFinite(Number(text)) ? Number(text) : text);
        }}
      />
    </>
  );
}
