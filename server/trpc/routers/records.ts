import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { createRecordType, deleteRecordType, getRecordType, listRecordTypes, updateRecordType } from '@/server/services/records/record-types';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from '@/server/services/records/records';
import {
  createRecordInput,
  createRecordTypeInput,
  recordTypeName,
  updateRecordInput,
  updateRecordTypeInput,
} from '@/server/services/records/schemas';
import { jsonObject } from '@/server/services/shared';
import { pageInput } from './shared';

export const recordTypesRouter = router({
  list: staffProcedure.query(({ ctx }) => listRecordTypes(ctx.svc, { limit: 1000, afterId: 0 })),
  get: staffProcedure.input(z.object({ type: z.string() })).query(({ ctx, input }) => getRecordType(ctx.svc, input.type)),
  create: adminProcedure.input(createRecordTypeInput).mutation(({ ctx, input }) => createRecordType(ctx.svc, input)),
  update: adminProcedure
    .input(updateRecordTypeInput.extend({ type: recordTypeName }))
    .mutation(({ ctx, input }) => updateRecordType(ctx.svc, input.type, { permissions: input.permissions })),
  delete: adminProcedure.input(z.object({ type: z.string() })).mutation(({ ctx, input }) => deleteRecordType(ctx.svc, input.type)),
});

export const recordsRouter = router({
  list: staffProcedure
    .input(
      z.object({
        type: recordTypeName.optional(),
        memberId: z.number().int().positive().optional(),
        fields: jsonObject.optional(),
        ...pageInput,
      }),
    )
    .query(({ ctx, input }) => listRecords(ctx.svc, input, { limit: input.limit, afterId: input.afterId })),
  get: staffProcedure
    .input(z.object({ type: z.string(), id: z.number().int() }))
    .query(({ ctx, input }) => getRecord(ctx.svc, input.type, input.id)),
  create: adminProcedure
    .input(createRecordInput.extend({ type: recordTypeName }))
    .mutation(({ ctx, input }) => createRecord(ctx.svc, input.type, { memberId: input.memberId, fields: input.fields })),
  update: adminProcedure
    .input(updateRecordInput.extend({ type: z.string(), id: z.number().int(), replace: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => updateRecord(ctx.svc, input.type, input.id, { fields: input.fields }, input.replace)),
  delete: adminProcedure
    .input(z.object({ type: z.string(), id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteRecord(ctx.svc, input.type, input.id)),
});
