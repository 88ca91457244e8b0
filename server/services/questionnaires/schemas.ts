import { z } from 'zod';
import { ITEM_TYPES, QUESTIONNAIRE_STATUSES, RESPONSE_STATUSES } from '@/db/schema/enums';
import { idFilter, idSchema } from '@/server/core/ids';
import { slugPattern } from '@/server/core/names';
import { timestampSchema } from '@/server/core/time';
import { itemProblems, LINK_ID, type Item } from './rules';

export { ITEM_TYPES, QUESTIONNAIRE_STATUSES, RESPONSE_STATUSES };
export type QuestionnaireStatus = (typeof QUESTIONNAIRE_STATUSES)[number];
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

const slug = z.string().regex(slugPattern, 'Lower-case letters, digits and -, at most 64, starting with a letter or digit');
const linkId = z.string().regex(LINK_ID, 'Letters, digits, ".", "_" or "-", at most 64, starting with a letter or digit');

// Items (CONTRACT 9)
export const optionSchema = z
  .object({ value: z.string().min(1, 'Give the option a value').max(200), display: z.string().trim().min(1, 'Give the option a label').max(500) })
  .strict()
  .meta({ id: 'QuestionnaireOption' });

export const enableWhenSchema = z
  .object({
    linkId: linkId.meta({ description: 'An item earlier in the list' }),
    operator: z.enum(['exists', 'equals']),
    answer: z.union([z.string(), z.number(), z.boolean()]).optional().meta({ description: 'equals: the value to compare with (for a repeating choice: one of the chosen values)' }),
  })
  .strict()
  .meta({ id: 'QuestionnaireEnableWhen', description: 'The item is shown when the earlier item is answered (exists) or answered with `answer` (equals)' });

export const itemSchema = z
  .object({
    linkId,
    text: z.string().trim().min(1, 'Give the item a text').max(1000),
    type: z.enum(ITEM_TYPES),
    required: z.boolean().optional().meta({ description: 'Not on display items' }),
    repeats: z.boolean().optional().meta({ description: 'Only on choice: several options may be chosen' }),
    options: z.array(optionSchema).min(1, 'A choice item needs 1-100 options').max(100).optional().meta({ description: 'Only and required on choice' }),
    min: z.number().finite().optional().meta({ description: 'Only on integer and decimal' }),
    max: z.number().finite().optional().meta({ description: 'Only on integer and decimal' }),
    enableWhen: enableWhenSchema.optional(),
    observationCodeId: idSchema.optional().meta({ description: 'The answer is also recorded as an observation of this code (its type must fit the item)' }),
  })
  .strict()
  .meta({ id: 'QuestionnaireItem' }) satisfies z.ZodType<Item>;

/** The rules between items, as zod issues at `items.<i>.<field>`. */
function addItemIssues(value: { items?: Item[] }, ctx: z.RefinementCtx) {
  if (!value.items) return;
  for (const p of itemProblems(value.items)) {
    ctx.addIssue({ code: 'custom', path: p.path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), message: p.message });
  }
}

const fields = {
  slug,
  title: z.string().trim().min(1, 'Give the questionnaire a title').max(200),
  description: z.string().max(2000).nullable().optional(),
  status: z.enum(QUESTIONNAIRE_STATUSES),
  items: z.array(itemSchema).max(200),
};

export const createQuestionnaireInput = z
  .object({ ...fields, status: fields.status.default('active'), items: fields.items.default([]) })
  .strict()
  .superRefine(addItemIssues)
  .meta({ id: 'QuestionnaireCreate' });
export type CreateQuestionnaireInput = z.output<typeof createQuestionnaireInput>;

export const updateQuestionnaireInput = z
  .object({ ...fields, newVersion: z.boolean().meta({ description: 'Save as a new version even when no response uses the latest one' }) })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give at least one field to change' })
  .superRefine(addItemIssues)
  .meta({
    id: 'QuestionnaireUpdate',
    description: 'Edits the latest version in place while no response uses it; otherwise (or with newVersion) saves version+1. A change of status alone never makes a version.',
  });
export type UpdateQuestionnaireInput = z.output<typeof updateQuestionnaireInput>;

export const questionnaireSchema = z
  .object({
    id: idSchema,
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    status: z.enum(QUESTIONNAIRE_STATUSES),
    version: z.number().int().meta({ description: 'The latest version, or the one asked for with ?version=' }),
    items: z.array(itemSchema),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Questionnaire' });
export type QuestionnaireDto = z.infer<typeof questionnaireSchema>;

export const listQuestionnairesQuery = z.object({ slug: z.string().max(64).optional(), status: z.enum(QUESTIONNAIRE_STATUSES).optional() });

// Responses (CONTRACT 9)
export const answerSchema = z
  .object({ linkId: z.string().max(64), value: z.unknown().meta({ description: 'By item type: text, YYYY-MM-DD, a number, true/false, an option value (an array of them when the choice repeats)' }) })
  .strict()
  .meta({ id: 'QuestionnaireAnswer' });
const answers = z.array(answerSchema).max(500);

export const responseSchema = z
  .object({
    id: idSchema,
    questionnaireId: idSchema,
    questionnaireVersion: z.number().int(),
    subjectId: idSchema,
    activityId: idSchema.nullable(),
    status: z.enum(RESPONSE_STATUSES),
    answers,
    authoredAt: timestampSchema.meta({ description: 'When the current answers were submitted' }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'QuestionnaireResponse' });
export type ResponseDto = z.infer<typeof responseSchema>;

export const createResponseInput = z
  .object({
    questionnaireId: idSchema,
    subjectId: idSchema,
    activityId: idSchema.optional().meta({ description: 'A scheduled questionnaire activity of the subject for this questionnaire; a completed response completes it' }),
    status: z.enum(['completed', 'in-progress']).default('completed').meta({ description: 'in-progress: a draft, nothing is required yet' }),
    answers,
  })
  .strict()
  .meta({ id: 'QuestionnaireResponseCreate' });
export type CreateResponseInput = z.output<typeof createResponseInput>;

export const updateResponseInput = z
  .object({ answers, status: z.enum(RESPONSE_STATUSES) })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give answers or status' })
  .meta({
    id: 'QuestionnaireResponseUpdate',
    description: 'A draft is saved again or completed; changing the answers of a completed response makes it amended; a completed or amended response never returns to in-progress (409).',
  });
export type UpdateResponseInput = z.output<typeof updateResponseInput>;

export const listResponsesQuery = z.object({
  questionnaireId: idFilter,
  subjectId: idFilter,
  activityId: idFilter,
  status: z.enum(RESPONSE_STATUSES).optional(),
});
export type ListResponsesQuery = z.output<typeof listResponsesQuery>;
