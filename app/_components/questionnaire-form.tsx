'use client';

import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { answerProblems, enabledItems, type Answer, type Item, type Problem } from '@/server/services/questionnaires/rules';
import { Button, describedBy, FieldNote } from './ui';

/** What a person typed or picked per item, before it is an answer: text for inputs, a list for repeats. */
export type Draft = Record<string, string | string[] | boolean | undefined>;

/** A stored answer as the form's state. */
export function draftOf(answers: Answer[]): Draft {
  const draft: Draft = {};
  for (const a of answers) {
    if (Array.isArray(a.value)) draft[a.linkId] = a.value.map(String);
    else if (typeof a.value === 'boolean') draft[a.linkId] = a.value;
    else if (a.value !== null && a.value !== undefined) draft[a.linkId] = String(a.value);
  }
  return draft;
}

/**
 * The form's state as answers: empty fields are unanswered, numbers are parsed (a number that does not
 * parse stays text, so the shared rules name it), and items hidden by their conditions are left out.
 */
export function answersOf(items: Item[], draft: Draft): Answer[] {
  const all: Answer[] = [];
  for (const item of items) {
    const raw = draft[item.linkId];
    if (item.type === 'display' || raw === undefined || raw === '' || (Array.isArray(raw) && raw.length === 0)) continue;
    let value: unknown = raw;
    if ((item.type === 'integer' || item.type === 'decimal') && typeof raw === 'string') {
      const trimmed = raw.trim().replace(',', '.');
      value = trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : raw;
    }
    all.push({ linkId: item.linkId, value });
  }
  // Conditions depend on earlier answers only, so the enabled set of all answers is the one to keep.
  const shown = enabledItems(items, all);
  return all.filter((a) => shown.has(a.linkId));
}

/** Problems (from the shared rules or the server) as a message per linkId, in words for the person answering. */
export function problemsByItem(items: Item[], answers: Answer[], problems: Problem[]): { byItem: Record<string, string>; other: string[] } {
  const byItem: Record<string, string> = {};
  const other: string[] = [];
  for (const p of problems) {
    const at = /^answers\.(\d+)\.(value|linkId)$/.exec(p.path);
    const answered = at ? answers[Number(at[1])] : undefined;
    if (answered && at![2] === 'value') byItem[answered.linkId] ??= p.message;
    else if (p.path === 'answers') {
      const missing = items.find((i) => p.message === `${i.linkId} is required`);
      if (missing) byItem[missing.linkId] ??= 'Please answer this question';
      else other.push(p.message);
    } else other.push(p.message);
  }
  return { byItem, other };
}

export type SaveResult = { problems?: Problem[]; error?: string } | void;

type Props = {
  title: string;
  description?: string | null;
  items: Item[];
  initial?: Answer[];
  /** preview: checks with the same rules and says so, saves nothing. */
  preview?: boolean;
  submitLabel?: string;
  onSubmit?: (answers: Answer[]) => Promise<SaveResult>;
  onSaveDraft?: (answers: Answer[]) => Promise<SaveResult>;
  /** 1 where the form is the page's subject (the member's page), 2 inside a larger page. */
  headingLevel?: 1 | 2;
};

const control = 'block w-full rounded-md border-0 bg-white px-2.5 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-inset focus:ring-2 focus:ring-inset focus:ring-brand-500';

/**
 * A questionnaire as a member fills it in: the same component renders the builder's live preview, the
 * member's form on /me and the coordinator's "enter on behalf" form. It checks with the rules the API
 * validates with (`answerProblems`), shows and hides items by their conditions, and puts every problem
 * next to its question.
 */
export function QuestionnaireForm({ title, description, items, initial = [], preview, submitLabel = 'Submit', onSubmit, onSaveDraft, headingLevel = 2 }: Props) {
  const formId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [problems, setProblems] = useState<{ byItem: Record<string, string>; other: string[] }>({ byItem: {}, other: [] });
  const [busy, setBusy] = useState<'submit' | 'draft' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const summary = useRef<HTMLDivElement>(null);
  const answers = useMemo(() => answersOf(items, draft), [items, draft]);
  const shown = useMemo(() => enabledItems(items, answers), [items, answers]);

  const set = (linkId: string, value: Draft[string]) => {
    setDraft((d) => ({ ...d, [linkId]: value }));
    setNotice(null);
    if (problems.byItem[linkId]) setProblems((p) => ({ ...p, byItem: Object.fromEntries(Object.entries(p.byItem).filter(([k]) => k !== linkId)) }));
  };

  async function run(kind: 'submit' | 'draft', save?: (answers: Answer[]) => Promise<SaveResult>) {
    setNotice(null);
    const found = problemsByItem(items, answers, answerProblems(items, answers, kind === 'submit'));
    setProblems(found);
    if (Object.keys(found.byItem).length > 0 || found.other.length > 0) {
      summary.current?.focus();
      return;
    }
    if (preview || !save) {
      setNotice(kind === 'submit' ? 'Preview: these answers would be accepted.' : 'Preview: the draft would be saved.');
      return;
    }
    setBusy(kind);
    try {
      const result = await save(answers);
      if (result?.problems || result?.error) {
        const mapped = problemsByItem(items, answers, result.problems ?? []);
        if (result.error) mapped.other.push(result.error);
        setProblems(mapped);
        summary.current?.focus();
      } else if (kind === 'draft') setNotice('Draft saved. You can come back to it later.');
    } finally {
      setBusy(null);
    }
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void run('submit', onSubmit);
  }

  const count = Object.keys(problems.byItem).length + problems.other.length;
  const visible = items.filter((i) => shown.has(i.linkId) || i.type === 'display');
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${formId}-title`} className="space-y-5">
      <div>
        <Heading id={`${formId}-title`} className={headingLevel === 1 ? 'text-xl font-semibold text-slate-900' : 'text-lg font-semibold text-slate-900'}>
          {title}
        </Heading>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      <div ref={summary} tabIndex={-1} className="outline-none">
        {count > 0 && (
          <div role="alert" className="rounded-md bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
            <p className="font-medium">{count === 1 ? 'One answer needs your attention.' : `${count} answers need your attention.`}</p>
            {problems.other.length > 0 && (
              <ul className="mt-1 list-disc pl-5">
                {problems.other.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {items.length === 0 && <p className="text-sm text-slate-500">This questionnaire has no questions yet.</p>}
      {visible.map((item) => (
        <ItemField key={item.linkId} item={item} value={draft[item.linkId]} error={problems.byItem[item.linkId]} onChange={(v) => set(item.linkId, v)} />
      ))}
      {notice && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200">
          {notice}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={busy === 'submit'} disabled={busy !== null}>
          {submitLabel}
        </Button>
        {onSaveDraft && (
          <Button variant="secondary" busy={busy === 'draft'} disabled={busy !== null} onClick={() => void run('draft', onSaveDraft)}>
            Save draft
          </Button>
        )}
      </div>
    </form>
  );
}

function Label({ item, htmlFor, id }: { item: Item; htmlFor?: string; id?: string }) {
  const text = (
    <>
      {item.text}
      {item.required && <span className="ml-1 text-xs font-normal text-slate-500">(required)</span>}
    </>
  );
  return htmlFor ? (
    <label htmlFor={htmlFor} className="mb-1 block text-sm font-medium text-slate-800">
      {text}
    </label>
  ) : (
    <legend id={id} className="mb-1 block text-sm font-medium text-slate-800">
      {text}
    </legend>
  );
}

function hintOf(item: Item): string | undefined {
  if (item.type !== 'integer' && item.type !== 'decimal') return undefined;
  const kind = item.type === 'integer' ? 'A whole number' : 'A number';
  if (item.min !== undefined && item.max !== undefined) return `${kind} from ${item.min} to ${item.max}`;
  if (item.min !== undefined) return `${kind}, at least ${item.min}`;
  if (item.max !== undefined) return `${kind}, at most ${item.max}`;
  return undefined;
}

function ItemField({ item, value, error, onChange }: { item: Item; value: Draft[string]; error?: string; onChange: (v: Draft[string]) => void }) {
  const id = useId();
  const hint = hintOf(item);
  const common = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, error, hint), 'aria-required': item.required || undefined };
  const ring = error ? 'ring-red-400' : 'ring-slate-300';
  switch (item.type) {
    case 'display':
      return <p className="text-sm text-slate-700">{item.text}</p>;
    case 'boolean':
    case 'choice': {
      const options = item.type === 'boolean' ? [{ value: 'true', display: 'Yes' }, { value: 'false', display: 'No' }] : (item.options ?? []);
      const many = item.type === 'choice' && item.repeats;
      const chosen = (v: string) => (item.type === 'boolean' ? String(value) === v : many ? Array.isArray(value) && value.includes(v) : value === v);
      return (
        <fieldset aria-describedby={common['aria-describedby']} aria-invalid={common['aria-invalid']} aria-required={common['aria-required']}>
          <Label item={item} id={`${id}-legend`} />
          {many && <p className="mb-1 text-xs text-slate-500">Choose all that apply.</p>}
          <div className="flex flex-col gap-1.5 sm:flex-row sm:flex-wrap sm:gap-x-5">
            {options.map((o) => (
              <label key={o.value} className="inline-flex items-center gap-2 text-sm text-slate-800">
                <input
                  type={many ? 'checkbox' : 'radio'}
                  name={id}
                  value={o.value}
                  checked={chosen(o.value)}
                  onChange={(e) => {
                    if (item.type === 'boolean') onChange(o.value === 'true');
                    else if (many) {
                      const list = Array.isArray(value) ? value : [];
                      onChange(e.target.checked ? [...list, o.value] : list.filter((x) => x !== o.value));
                    } else onChange(o.value);
                  }}
                  className="size-4 accent-brand-600"
                />
                {o.display}
              </label>
            ))}
          </div>
          <FieldNote id={id} error={error} hint={hint} />
        </fieldset>
      );
    }
    case 'text':
      return (
        <div>
          <Label item={item} htmlFor={id} />
          <textarea id={id} rows={3} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} className={`${control} ${ring}`} {...common} />
          <FieldNote id={id} error={error} hint={hint} />
        </div>
      );
    case 'string':
    case 'integer':
    case 'decimal':
    case 'date': {
      const type = item.type === 'date' ? 'date' : 'text';
      const inputMode = item.type === 'integer' ? 'numeric' : item.type === 'decimal' ? 'decimal' : undefined;
      return (
        <div>
          <Label item={item} htmlFor={id} />
          <input
            id={id}
            type={type}
            inputMode={inputMode}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(e.target.value)}
            className={`${control} ${ring} ${item.type === 'date' || inputMode ? 'max-w-xs' : ''}`}
            {...common}
          />
          <FieldNote id={id} error={error} hint={hint} />
        </div>
      );
    }
  }
}
