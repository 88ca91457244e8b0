import { z } from 'zod';
import { createCareplan, getCareplan, listCareplans, updateCareplan } from '@/server/services/careplans/careplans';
import { createDefinition, getDefinition, listDefinitions, listDefinitionVersions, updateDefinition } from '@/server/services/careplans/definitions';
import { createObservationCode, listObservationCodes, updateObservationCode } from '@/server/services/careplans/observations';
import { patchParameter, setParameter } from '@/server/services/careplans/parameters';
import { previewTimeline } from '@/server/services/careplans/preview';
import {
  actionSchema,
  CAREPLAN_STATUSES,
  createCareplanInput,
  createDefinitionInput,
  createObservationCodeInput,
  patchParameterInput,
  setParameterInput,
  updateCareplanInput,
  updateDefinitionInput,
  updateObservationCodeInput,
} from '@/server/services/careplans/schemas';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { pageInput } from './shared';

const withInputs = { inputs: true, observationCode: true };

export const observationCodesRouter = router({
  list: staffProcedure.query(({ ctx }) => listObservationCodes(ctx.svc, { limit: 1000, afterId: 0 })),
  create: adminProcedure.input(createObservationCodeInput).mutation(({ ctx, input }) => createObservationCode(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: z.number().int(), changes: updateObservationCodeInput }))
    .mutation(({ ctx, input }) => updateObservationCode(ctx.svc, String(input.id), input.changes)),
});

export const templatesRouter = router({
  list: staffProcedure.query(({ ctx }) => listDefinitions(ctx.svc, {}, withInputs, { limit: 1000, afterId: 0 })),
  get: staffProcedure
    .input(z.object({ id: z.number().int(), version: z.number().int().positive().optional() }))
    .query(({ ctx, input }) => getDefinition(ctx.svc, String(input.id), withInputs, input.version)),
  versions: staffProcedure.input(z.object({ id: z.number().int() })).query(({ ctx, input }) => listDefinitionVersions(ctx.svc, String(input.id))),
  create: adminProcedure.input(createDefinitionInput).mutation(({ ctx, input }) => createDefinition(ctx.svc, input, withInputs)),
  update: adminProcedure
    .input(z.object({ id: z.number().int(), changes: updateDefinitionInput }))
    .mutation(({ ctx, input }) => updateDefinition(ctx.svc, String(input.id), input.changes, withInputs)),
  preview: staffProcedure
    .input(z.object({ actions: z.array(actionSchema), sampleDates: z.record(z.string(), z.string()), start: z.string().optional() }))
    .query(({ ctx, input }) => previewTimeline(ctx.svc, input)),
});

export const careplansRouter = router({
  list: staffProcedure
    .input(z.object({ subjectId: z.number().int().optional(), definitionId: z.number().int().optional(), status: z.enum(CAREPLAN_STATUSES).optional(), ...pageInput }))
    .query(({ ctx, input }) => listCareplans(ctx.svc, input, { limit: input.limit, afterId: input.afterId })),
  get: staffProcedure
    .input(z.object({ id: z.number().int() }))
    // Activities come from activities.timeline (with pending reminders), refreshed on their own clock.
    .query(({ ctx, input }) => getCareplan(ctx.svc, input.id, { parameters: true, observation: true, activities: false })),
  create: staffProcedure.input(createCareplanInput).mutation(({ ctx, input }) => createCareplan(ctx.svc, input)),
  update: staffProcedure
    .input(z.object({ id: z.number().int(), changes: updateCareplanInput }))
    .mutation(({ ctx, input }) => updateCareplan(ctx.svc, input.id, input.changes)),
  setParameter: staffProcedure.input(setParameterInput).mutation(async ({ ctx, input }) => (await setParameter(ctx.svc, input)).body),
  patchParameter: staffProcedure
    .input(z.object({ id: z.number().int(), changes: patchParameterInput }))
    .mutation(({ ctx, input }) => patchParameter(ctx.svc, input.id, input.changes)),
});
