import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerProblems, answerText, enabledItems, itemProblems, type Answer, type Item } from './rules';

/**
 * Property tests of the one set of answer rules REST, tRPC and the forms share: for generated valid
 * questionnaires and answers, valid answers are accepted; one corrupted answer is refused at exactly its
 * place (CONTRACT 9: `answers.<i>.value`, `answers.<i>.linkId`, or `answers` naming the linkId).
 */

const options = [
  { value: 'a', display: 'A' },
  { value: 'b', display: 'B' },
  { value: 'c', display: 'C' },
];

/** A valid item of any type at position i; conditions point at an earlier boolean or choice. */
const itemAt = (i: number, earlier: Item[]): fc.Arbitrary<Item> => {
  const linkId = `q${i}`;
  const targets = earlier.filter((e) => e.type === 'boolean' || (e.type === 'choice' && !e.repeats));
  const condition = targets.length === 0 ? fc.constant(undefined) : fc.option(fc.constantFrom(...targets).chain((t) => (t.type === 'boolean' ? fc.boolean() : fc.constantFrom('a', 'b')).map((answer) => ({ linkId: t.linkId, operator: 'equals' as const, answer }))), { nil: undefined });
  return fc
    .record({
      type: fc.constantFrom<Item['type']>('display', 'string', 'text', 'integer', 'decimal', 'boolean', 'date', 'choice'),
      required: fc.boolean(),
      repeats: fc.boolean(),
      bounds: fc.option(fc.tuple(fc.integer({ min: -50, max: 0 }), fc.integer({ min: 1, max: 50 })), { nil: undefined }),
      enableWhen: condition,
    })
    .map(({ type, required, repeats, bounds, enableWhen }) => {
      const item: Item = { linkId, text: `Question ${i}`, type };
      if (required && type !== 'display') item.required = true;
      if (type === 'choice') {
        item.options = options;
        if (repeats) item.repeats = true;
      }
      if (bounds && (type === 'integer' || type === 'decimal')) [item.min, item.max] = bounds;
      if (enableWhen) item.enableWhen = enableWhen;
      return item;
    });
};

const questionnaire: fc.Arbitrary<Item[]> = fc.integer({ min: 1, max: 8 }).chain((n) => {
  let arb: fc.Arbitrary<Item[]> = fc.constant([]);
  for (let i = 0; i < n; i++) arb = arb.chain((earlier) => itemAt(i, earlier).map((item) => [...earlier, item]));
  return arb;
});

/** A valid value for an item. */
const valueFor = (item: Item): fc.Arbitrary<unknown> => {
  const lo = item.min ?? -1000;
  const hi = item.max ?? 1000;
  switch (item.type) {
    case 'string':
    case 'text':
      return fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '');
    case 'integer':
      return fc.integer({ min: lo, max: hi });
    case 'decimal':
      return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc.date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'choice':
      return item.repeats ? fc.subarray(['a', 'b', 'c'], { minLength: 1 }) : fc.constantFrom('a', 'b', 'c');
    case 'display':
      return fc.constant(undefined);
  }
};

/** A value that is wrong for the item (never valid, whatever its bounds). */
const badValueFor = (item: Item): unknown => {
  switch (item.type) {
    case 'string':
    case 'text':
      return 42;
    case 'integer':
      return 1.5;
    case 'decimal':
      return '3';
    case 'boolean':
      return 'yes';
    case 'date':
      return '2026-02-30';
    case 'choice':
      return item.repeats ? [] : 'z';
    case 'display':
      return 'x';
  }
};

/**
 * Answers that pass: each shown item answered (required ones always, others by chance), in item order;
 * showing depends on earlier answers, so they are built in order.
 */
const validAnswers = (items: Item[]): fc.Arbitrary<Answer[]> =>
  fc.tuple(...items.map((item) => fc.tuple(valueFor(item), fc.boolean()))).map((drawn) => {
    const answers: Answer[] = [];
    items.forEach((item, i) => {
      if (item.type === 'display') return;
      if (!enabledItems(items.slice(0, i + 1), answers).has(item.linkId)) return;
      const [value, include] = drawn[i]!;
      if (item.required || include) answers.push({ linkId: item.linkId, value });
    });
    return answers;
  });

describe('questionnaire answer rules (shared by REST, tRPC and the forms)', () => {
  it('generated questionnaires are valid, and their valid answers are accepted, complete or not', () => {
    fc.assert(
      fc.property(
        questionnaire.chain((items) => fc.tuple(fc.constant(items), validAnswers(items))),
        ([items, answers]) => {
          expect(itemProblems(items)).toEqual([]);
          expect(answerProblems(items, answers, true)).toEqual([]);
          expect(answerProblems(items, answers, false)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('one corrupted answer is refused at exactly its place, and nowhere else', () => {
    fc.assert(
      fc.property(
        questionnaire.chain((items) => fc.tuple(fc.constant(items), validAnswers(items))).filter(([, answers]) => answers.length > 0),
        fc.nat(),
        fc.constantFrom('value', 'unknown', 'duplicate', 'drop'),
        ([items, answers], pick, how) => {
          const i = pick % answers.length;
          const target = answers[i]!;
          const item = items.find((x) => x.linkId === target.linkId)!;
          // A change to an item others depend on would move the problem; only corrupt leaves of conditions.
          const dependedOn = items.some((x) => x.enableWhen?.linkId === target.linkId);
          fc.pre(!dependedOn);
          const corrupted = [...answers];
          if (how === 'value') {
            corrupted[i] = { linkId: target.linkId, value: badValueFor(item) };
            expect(answerProblems(items, corrupted, false).map((p) => p.path)).toEqual([`answers.${i}.value`]);
          } else if (how === 'unknown') {
            corrupted[i] = { linkId: 'nope', value: target.value };
            const problems = answerProblems(items, corrupted, true).map((p) => p.path);
            expect(problems[0]).toBe(`answers.${i}.linkId`);
            // Removing a required answer also leaves it missing; nothing else is named.
            expect(problems.slice(1)).toEqual(item.required ? ['answers'] : []);
          } else if (how === 'duplicate') {
            corrupted.push({ ...target });
            expect(answerProblems(items, corrupted, true).map((p) => p.path)).toEqual([`answers.${corrupted.length - 1}.linkId`]);
          } else {
            corrupted.splice(i, 1);
            const problems = answerProblems(items, corrupted, true);
            if (item.required) expect(problems).toEqual([{ path: 'answers', message: `${target.linkId} is required` }]);
            else expect(problems).toEqual([]);
            // A draft needs nothing.
            expect(answerProblems(items, corrupted, false)).toEqual([]);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('an answer to a hidden item is refused at its linkId', () => {
    const items: Item[] = [
      { linkId: 'smoker', type: 'boolean', text: 'Smoke?' },
      { linkId: 'per-day', type: 'integer', text: 'How many?', required: true, enableWhen: { linkId: 'smoker', operator: 'equals', answer: true } },
    ];
    expect(answerProblems(items, [{ linkId: 'smoker', value: false }, { linkId: 'per-day', value: 3 }], true).map((p) => p.path)).toEqual(['answers.1.linkId']);
    expect(answerProblems(items, [{ linkId: 'smoker', value: true }], true)).toEqual([{ path: 'answers', message: 'per-day is required' }]);
  });

  it('writes numbers as observation values without exponents', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = answerText(n);
        expect(text).not.toMatch(/e/i);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
      }),
      { numRuns: 500 },
    );
  });
});
