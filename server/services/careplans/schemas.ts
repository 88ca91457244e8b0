import { z } from 'zod';
import { CAREPLAN_STATUSES, OBSERVATION_TYPES } from '@/db/schema/enums';
import { idSchema, idFilter } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';
import { slugPattern } from '@/server/core/names';
import { OFFSET_UNITS } from '@/server/core/offsets';
import { activitySchema, addKindIssues, kindFields, reminderSchema } from '@/server/services/activities/schemas';

const slug = z.string().regex(slugPattern, 'Lower-case letters, digits and -, at most 64, starting with a letter or digit');

// Observation codes and observations
export { OBSERVATION_TYPES, CAREPLAN_STATUSES };

export const observationCodeSchema = z
  .object({ id: idSchema, slug: z.string(), display: z.string(), type: z.enum(OBSERVATION_TYPES) })
  .meta({ id: 'ObservationCode' });
export type ObservationCodeDto = z.infer<typeof observationCodeSchema>;

export const createObservationCodeInput = z
  .object({ slug, display: z.string().trim().min(1).max(200), type: z.enum(OBSERVATION_TYPES) })
  .strict()
  .meta({ id: 'ObservationCodeCreate' });
export type CreateObservationCodeInput = z.infer<typeof createObservationCodeInput>;
export const updateObservationCodeInput = z
  .object({ slug, display: z.string().trim().min(1).max(200) })
  .partial()
  .strict()
  .meta({ id: 'ObservationCodeUpdate', description: 'The type of a code cannot change: observations depend on it' });
export type UpdateObservationCodeInput = z.infer<typeof updateObservationCodeInput>;

export const observationSchema = z
  .object({ id: idSchema, subjectId: idSchema, observationCodeId: idSchema, value: z.string(), observedAt: timestampSchema })
  .meta({ id: 'Observation' });
export type ObservationDto = z.infer<typeof observationSchema>;

export const observedAt = z.iso.datetime({ offset: true, message: 'An ISO 8601 timestamp, e.g. 2026-01-31T09:30:00Z' });
export const observationValue = z.object({ value: z.string().max(10_000), observedAt }).strict();

export const createObservationInput = z
  .object({ subjectId: idSchema, observationCodeId: idSchema, value: z.string().max(10_000), observedAt })
  .strict()
  .meta({ id: 'ObservationCreate' });
export type CreateObservationInput = z.infer<typeof createObservationInput>;

export const listObservationsQuery = z.object({
  subjectId: idFilter,
  observationCodeId: idFilter,
});

// Definitions
const offset = z.object({ offset: z.number().int().min(-100_000).max(100_000), offsetUnit: z.enum(OFFSET_UNITS) }).strict();
const positiveOffset = offset.extend({ offset: z.number().int().min(1).max(100_000) }).strict();
export const actionSchema = z
  .object({
    key: slug,
    ...kindFields,
    type: z.string().trim().min(1).max(100),
    display: z.string().trim().min(1).max(200),
    actorType: z.string().trim().min(1).max(50).default('subject'),
    inputKey: slug.optional().meta({ description: "The input whose date anchors the action; without it, the care plan's start" }),
    start: offset.meta({ description: 'From the anchor to activateAt (negative = before)' }),
    end: positiveOffset.optional().meta({ description: 'From activateAt to endAt' }),
    reminders: z.array(reminderSchema).max(20).default([]),
  })
  .strict()
  .superRefine((v, ctx) => addKindIssues(v, ctx))
  .meta({ id: 'Action' });

export const inputBodySchema = z.object({ key: slug, observationCodeId: idSchema }).strict().meta({ id: 'InputCreate' });

function checkKeys(value: { inputs?: { key: string }[]; actions?: { key: string; inputKey?: string }[] }, ctx: z.RefinementCtx) {
  const inputKeys = new Set<string>();
  value.inputs?.forEach((input, i) => {
    if (inputKeys.has(input.key)) ctx.addIssue({ code: 'custom', path: ['inputs', i, 'key'], message: `Input key ${input.key} is used twice` });
    inputKeys.add(input.key);
  });
  const actionKeys = new Set<string>();
  value.actions?.forEach((action, i) => {
    if (actionKeys.has(action.key)) ctx.addIssue({ code: 'custom', path: ['actions', i, 'key'], message: `Action key ${action.key} is used twice` });
    actionKeys.add(action.key);
    if (value.inputs && action.inputKey && !inputKeys.has(action.inputKey)) {
      ctx.addIssue({ code: 'custom', path: ['actions', i, 'inputKey'], message: `No input with key ${action.inputKey}` });
    }
  });
}

export const createDefinitionInput = z
  .object({
    slug,
    title: z.string().trim().min(1).max(200),
    inputs: z.array(inputBodySchema).max(50).default([]),
    actions: z.array(actionSchema).max(200).default([]),
  })
  .strict()
  .superRefine(checkKeys)
  .meta({ id: 'CareplanDefinitionCreate' });
export type CreateDefinitionInput = z.output<typeof createDefinitionInput>;

export const updateDefinitionInput = z
  .object({
    slug,
    title: z.string().trim().min(1).max(200),
    inputs: z.array(inputBodySchema).max(50),
    actions: z.array(actionSchema).max(200),
    newVersion: z.boolean().meta({ description: 'Save as a new version even when no care plan uses the latest one' }),
  })
  .partial()
  .strict()
  .superRefine(checkKeys)
  .meta({ id: 'CareplanDefinitionUpdate' });
export type UpdateDefinitionInput = z.output<typeof updateDefinitionInput>;

export const inputSchema = z
  .object({ id: idSchema, key: z.string(), observationCodeId: idSchema, observationCode: observationCodeSchema.optional() })
  .meta({ id: 'Input' });

export const definitionSchema = z
  .object({
    id: idSchema,
    slug: z.string(),
    title: z.string(),
    version: z.number().int().meta({ description: 'The latest version, or the one asked for with ?version=' }),
    inputs: z.array(inputSchema).optional(),
    actions: z.array(actionSchema),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'CareplanDefinition' });
export type DefinitionDto = z.infer<typeof definitionSchema>;

export const includeParam = (allowed: readonly string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parts = v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [];
      for (const p of parts) {
        if (!allowed.includes(p)) ctx.addIssue({ code: 'custom', message: `include accepts ${allowed.join(', ')}` });
      }
      return new Set(parts);
    })
    .meta({ description: `Comma-separated: ${allowed.join(', ')}` });

// Care plans, parameters, activities

export const parameterSchema = z
  .object({
    id: idSchema,
    careplanId: idSchema,
    inputId: idSchema,
    observationId: idSchema.nullable(),
    observation: observationSchema.nullable().optional(),
  })
  .meta({ id: 'CareplanParameter' });
export type ParameterDto = z.infer<typeof parameterSchema>;

export const careplanSchema = z
  .object({
    id: idSchema,
    definitionId: idSchema,
    subjectId: idSchema,
    title: z.string(),
    version: z.number().int(),
    slug: z.string(),
    status: z.enum(CAREPLAN_STATUSES),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    parameters: z.array(parameterSchema).optional(),
    activities: z.array(activitySchema).optional(),
  })
  .meta({ id: 'Careplan' });
export type CareplanDto = z.infer<typeof careplanSchema>;

export const createCareplanInput = z
  .object({
    definitionId: idSchema.optional(),
    definitionSlug: slug.optional(),
    subjectId: idSchema,
    title: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .refine((v) => v.definitionId !== undefined || v.definitionSlug !== undefined, { message: 'Give definitionId or definitionSlug', path: ['definitionId'] })
  .meta({ id: 'CareplanCreate' });
export type CreateCareplanInput = z.infer<typeof createCareplanInput>;

export const updateCareplanInput = z
  .object({ title: z.string().trim().min(1).max(200), status: z.enum(CAREPLAN_STATUSES) })
  .partial()
  .strict()
  .meta({ id: 'CareplanUpdate' });
export type UpdateCareplanInput = z.infer<typeof updateCareplanInput>;

export const setParameterInput = z
  .object({
    careplanId: idSchema,
    inputId: idSchema,
    observation: observationValue.optional(),
    observationId: idSchema.optional(),
  })
  .strict()
  .refine((v) => (v.observation === undefined) !== (v.observationId === undefined), {
    message: 'Give either observation or observationId',
    path: ['observation'],
  })
  .meta({ id: 'CareplanParameterSet' });
export type SetParameterInput = z.infer<typeof setParameterInput>;

export const patchParameterInput = z
  .object({ observation: observationValue.optional(), observationId: idSchema.nullable().optional() })
  .strict()
  .refine((v) => (v.observation === undefined) !== (v.observationId === undefined), {
    message: 'Give either observation or observationId (null empties the parameter)',
    path: ['observation'],
  })
  .meta({ id: 'CareplanParameterUpdate' });
export type PatchParameterInput = z.infer<typeof patchParameterInput>;
