/**
 * The rules of questionnaire items and answers (CONTRACT 9), written once: the REST and tRPC services
 * enforce them, and the builder and the member's form run the same functions in the browser. Pure code,
 * no server imports (the dependency rule keeps it client-safe).
 */
import type { ITEM_TYPES } from '@/db/schema/enums';
import { isCalendarDate } from '@/server/core/offsets';

export type ItemType = (typeof ITEM_TYPES)[number];
export type Problem = { path: string; message: string };
export type Option = { value: string; display: string };
export type Condition = { linkId: string; operator: 'exists' | 'equals'; answer?: string | number | boolean };
export type Item = {
  linkId: string;
  text: string;
  type: ItemType;
  required?: boolean;
  repeats?: boolean;
  options?: Option[];
  min?: number;
  max?: number;
  enableWhen?: Condition;
  observationCodeId?: number;
};
export type Answer = { linkId: string; value: unknown };

export const LINK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_TEXT_ANSWER = 10_000;
const NUMERIC: readonly ItemType[] = ['integer', 'decimal'];

/** The observation code type an item's answer can be recorded as (CONTRACT 9), or undefined when none fits. */
export function codeTypeFor(item: Pick<Item, 'type' | 'repeats'>): 'date' | 'number' | 'boolean' | 'string' | undefined {
  switch (item.type) {
    case 'date':
      return 'date';
    case 'integer':
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'string':
    case 'text':
      return 'string';
    case 'choice':
      return item.repeats ? undefined : 'string';
    case 'display':
      return undefined;
  }
}

/** Why a value does not fit its item, or null when it does. `single`: one choice value (a condition's). */
export function valueProblem(item: Item, value: unknown, single = false): string | null {
  switch (item.type) {
    case 'display':
      return 'Display items take no answer';
    case 'string':
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') return 'Must be non-empty text';
      return value.length > MAX_TEXT_ANSWER ? `At most ${MAX_TEXT_ANSWER.toLocaleString('en')} characters` : null;
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'Must be a calendar date YYYY-MM-DD';
    case 'integer':
    case 'decimal': {
      const whole = item.type === 'integer';
      if (typeof value !== 'number' || !Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) return whole ? 'Must be a whole number' : 'Must be a number';
      if (item.min !== undefined && value < item.min) return `Must be at least ${item.min}`;
      if (item.max !== undefined && value > item.max) return `Must be at most ${item.max}`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Must be true or false';
    case 'choice': {
      const values = new Set((item.options ?? []).map((o) => o.value));
      if (item.repeats && !single) {
        if (!Array.isArray(value) || value.length === 0) return 'Choose one or more of the options';
        if (value.some((v) => typeof v !== 'string' || !values.has(v))) return 'Choose only from the options';
        return new Set(value).size === value.length ? null : 'Choose each option once';
      }
      return typeof value === 'string' && values.has(value) ? null : 'Choose one of the options';
    }
  }
}

/**
 * The rules between an item's fields and between items, each at its place (`items.<i>.<field>`):
 * unique linkIds, fields that belong to the type, options, bounds, and conditions that name an earlier
 * answerable item with a possible answer. The observation code's own type is checked by the service.
 */
export function itemProblems(items: Item[]): Problem[] {
  const problems: Problem[] = [];
  const at = (i: number, field: string, message: string) => problems.push({ path: `items.${i}.${field}`, message });
  const earlier = new Map<string, Item>();
  items.forEach((item, i) => {
    if (earlier.has(item.linkId)) at(i, 'linkId', `linkId ${item.linkId} is used twice`);
    if (item.type === 'display' && item.required) at(i, 'required', 'Display items are never answered, so never required');
    if (item.repeats && item.type !== 'choice') at(i, 'repeats', 'Only choice items may repeat');
    if (item.type === 'choice') {
      if (!item.options || item.options.length === 0) at(i, 'options', 'A choice item needs 1-100 options');
      else {
        const values = item.options.map((o) => o.value);
        values.forEach((v, k) => {
          if (values.indexOf(v) !== k) at(i, `options.${k}.value`, `Option value ${v} is used twice`);
        });
      }
    } else if (item.options !== undefined) at(i, 'options', 'Only choice items have options');
    for (const bound of ['min', 'max'] as const) {
      const value = item[bound];
      if (value === undefined) continue;
      if (!NUMERIC.includes(item.type)) at(i, bound, 'Only integer and decimal items have min and max');
      else if (item.type === 'integer' && !Number.isInteger(value)) at(i, bound, 'An integer item has whole-number bounds');
    }
    if (item.min !== undefined && item.max !== undefined && item.min > item.max) at(i, 'max', 'max must not be below min');
    if (item.observationCodeId !== undefined && codeTypeFor(item) === undefined) {
      at(i, 'observationCodeId', item.type === 'display' ? 'Display items have no answer to record' : 'A choice of several options cannot be recorded as one observation');
    }
    const when = item.enableWhen;
    if (when) {
      const target = earlier.get(when.linkId);
      if (!target) at(i, 'enableWhen.linkId', `No earlier item ${when.linkId}: a condition names an item above it`);
      else if (target.type === 'display') at(i, 'enableWhen.linkId', 'A display item has no answer to depend on');
      else if (when.operator === 'equals') {
        if (when.answer === undefined) at(i, 'enableWhen.answer', 'equals needs an answer to compare with');
        else if (valueProblem(target, when.answer, true)) at(i, 'enableWhen.answer', `Not a possible answer of ${target.linkId}`);
      } else if (when.answer !== undefined) at(i, 'enableWhen.answer', 'exists takes no answer');
    }
    if (!earlier.has(item.linkId)) earlier.set(item.linkId, item);
  });
  return problems;
}

/** Whether a value meets an `equals` condition (for a repeating choice: the chosen values include it). */
const meets = (value: unknown, expected: unknown) => (Array.isArray(value) ? value.includes(expected) : value === expected);

/**
 * The items shown for these answers. Conditions name earlier items, so one pass in order decides; an
 * item that is not shown counts as unanswered for the items that depend on it.
 */
export function enabledItems(items: Item[], answers: Answer[]): Set<string> {
  const values = new Map(answers.map((a) => [a.linkId, a.value]));
  const enabled = new Set<string>();
  for (const item of items) {
    const when = item.enableWhen;
    if (!when) enabled.add(item.linkId);
    else if (enabled.has(when.linkId) && values.has(when.linkId) && (when.operator === 'exists' || meets(values.get(when.linkId), when.answer))) {
      enabled.add(item.linkId);
    }
  }
  return enabled;
}

/**
 * Every problem with a set of answers, at its place (CONTRACT 9): `answers.<i>.value` for a bad value,
 * `answers.<i>.linkId` for an unknown, repeated, display or hidden item, and `answers` naming each
 * required shown item left unanswered when the response is complete. Only well-formed answers count
 * for conditions.
 */
export function answerProblems(items: Item[], answers: Answer[], complete: boolean): Problem[] {
  const problems: Problem[] = [];
  const byLinkId = new Map(items.map((item) => [item.linkId, item]));
  const good: Answer[] = [];
  const linkProblem = new Set<number>();
  const seen = new Set<string>();
  answers.forEach((a, i) => {
    const item = byLinkId.get(a.linkId);
    const refuse = (message: string) => {
      problems.push({ path: `answers.${i}.linkId`, message });
      linkProblem.add(i);
    };
    if (!item) refuse(`No item ${a.linkId} in this questionnaire version`);
    else if (seen.has(a.linkId)) refuse(`${a.linkId} is answered twice`);
    else if (item.type === 'display') refuse(`${a.linkId} is a display item; it takes no answer`);
    else {
      const problem = valueProblem(item, a.value);
      if (problem) problems.push({ path: `answers.${i}.value`, message: problem });
      else good.push(a);
    }
    seen.add(a.linkId);
  });
  const enabled = enabledItems(items, good);
  answers.forEach((a, i) => {
    const item = byLinkId.get(a.linkId);
    if (item && !linkProblem.has(i) && !enabled.has(a.linkId)) {
      problems.push({ path: `answers.${i}.linkId`, message: `${a.linkId} is not shown for these answers, so it must not be answered` });
    }
  });
  if (complete) {
    // An answer with a bad value is named at its value; it is not also reported as missing.
    const answered = new Set(answers.filter((_, i) => !linkProblem.has(i)).map((a) => a.linkId));
    for (const item of items) {
      if (item.required && item.type !== 'display' && enabled.has(item.linkId) && !answered.has(item.linkId)) {
        problems.push({ path: 'answers', message: `${item.linkId} is required` });
      }
    }
  }
  return problems;
}

/** Answers in the questionnaire's item order (how they are stored and shown). */
export function inItemOrder(items: Item[], answers: Answer[]): Answer[] {
  const order = new Map(items.map((item, i) => [item.linkId, i]));
  return [...answers].sort((a, b) => (order.get(a.linkId) ?? 0) - (order.get(b.linkId) ?? 0));
}

/** An answer as an observation value (CONTRACT 9: "the answer as a string"); numbers never in exponent form. */
export function answerText(value: unknown): string {
  if (typeof value === 'number') {
    const shown = String(value);
    const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(shown);
    if (!m) return shown;
    const digits = m[2]! + (m[3] ?? '');
    const point = 1 + Number(m[4]);
    const plain = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
    return m[1] + plain;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
