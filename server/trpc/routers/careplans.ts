import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { createCareplan, getCareplan, listCareplans, updateCareplan } from '@/server/services/careplans/careplans';
import { createDefinition, getDefinition, listDefinitions, listDefinitionVersions, updateDefinition } from '@/server/services/careplans/definitions';
import { createObservationCode, getObservationCode, listObservationCodes, updateObservationCode } from '@/server/services/careplans/observations';
import { patchParameter, setParameter } from '@/server/services/careplans/parameters';
import { previewTimeline } from '@/server/services/careplans/preview';
import {
  actionSchema,
  CAREPLAN_STATUSES,
  createCareplanInput,
  createDefinitionInput,
  createObservationCodeInput,
  OBSERVATION_TYPES,
  patchParameterInput,
  setParameterInput,
  updateCareplanInput,
  updateDefinitionInput,
  updateObservationCodeInput,
} from '@/server/services/careplans/schemas';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { byId, pageInput, pageOf } from './shared';

const withInputs = { inputs: true, observationCode: true };

export const observationCodesRouter = router({
  list: staffProcedure
    .input(z.object({ search: z.string().trim().max(200).optional(), type: z.enum(OBSERVATION_TYPES).optional(), ...pageInput }).default({ limit: 50 }))
    .query(({ ctx, input }) => listObservationCodes(ctx.svc, pageOf(input), input)),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getObservationCode(ctx.svc, String(input.id))),
  create: adminProcedure.input(createObservationCodeInput).mutation(({ ctx, input }) => createObservationCode(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateObservationCodeInput }))
    .mutation(({ ctx, input }) => updateObservationCode(ctx.svc, String(input.id), input.changes)),
});

/** Care plan definitions (the UI calls them templates). */
export const definitionsRouter = router({
  list: staffProcedure
    .input(z.object({ search: z.string().trim().max(200).optional(), ...pageInput }).default({ limit: 50 }))
    .query(({ ctx, input }) => listDefinitions(ctx.svc, { search: input.search }, withInputs, pageOf(input))),
  get: staffProcedure
    .input(z.object({ id: idSchema, version: z.number().int().positive().optional() }))
    .query(({ ctx, input }) => getDefinition(ctx.svc, String(input.id), withInputs, input.version)),
  versions: staffProcedure.input(byId).query(({ ctx, input }) => listDefinitionVersions(ctx.svc, String(input.id))),
  create: adminProcedure.input(createDefinitionInput).mutation(({ ctx, input }) => createDefinition(ctx.svc, input, withInputs)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateDefinitionInput }))
    .mutation(({ ctx, input }) => updateDefinition(ctx.svc, String(input.id), input.changes, withInputs)),
  preview: staffProcedure
    .input(z.object({ actions: z.array(actionSchema).max(200), sampleDates: z.record(z.string(), z.string()), start: z.string().optional() }))
    .query(({ ctx, input }) => previewTimeline(ctx.svc, input)),
});

export const careplansRouter = router({
  list: staffProcedure
    .input(z.object({ subjectId: idSchema.optional(), definitionId: idSchema.optional(), status: z.enum(CAREPLAN_STATUSES).optional(), ...pageInput }))
    .query(({ ctx, input }) => listCareplans(ctx.svc, input, pageOf(input))),
  get: staffProcedure
    .input(byId)
    // Activities come from activities.timeline (with pending reminders), refreshed on their own clock.
    .query(({ ctx, input }) => getCareplan(ctx.svc, input.id, { parameters: true, observation: true, activities: false })),
  create: staffProcedure.input(createCareplanInput).mutation(({ ctx, input }) => createCareplan(ctx.svc, input)),
  update: staffProcedure
    .input(z.object({ id: idSchema, changes: updateCareplanInput }))
    .mutation(({ ctx, input }) => updateCareplan(ctx.svc, input.id, input.changes)),
  setParameter: staffProcedure.input(setParameterInput).mutation(async ({ ctx, input }) => (await setParameter(ctx.svc, input)).parameter),
  patchParameter: staffProcedure
    .input(z.object({ id: idSchema, changes: patchParameterInput }))
    .mutation(({ ctx, input }) => patchParameter(ctx.svc, input.id, input.changes)),
});
