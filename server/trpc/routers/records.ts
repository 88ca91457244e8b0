import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { jsonObject } from '@/server/core/json';
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
import { pageInput, pageOf, searchPageInput } from './shared';

export const recordTypesRouter = router({
  list: staffProcedure.input(searchPageInput).query(({ ctx, input }) => listRecordTypes(ctx.svc, pageOf(input), input.search)),
  get: staffProcedure.input(z.object({ type: recordTypeName })).query(({ ctx, input }) => getRecordType(ctx.svc, input.type)),
  create: adminProcedure.input(createRecordTypeInput).mutation(({ ctx, input }) => createRecordType(ctx.svc, input)),
  update: adminProcedure
    .input(updateRecordTypeInput.extend({ type: recordTypeName }))
    .mutation(({ ctx, input }) => updateRecordType(ctx.svc, input.type, { permissions: input.permissions })),
  delete: adminProcedure.input(z.object({ type: recordTypeName })).mutation(({ ctx, input }) => deleteRecordType(ctx.svc, input.type)),
});

export const recordsRouter = router({
  list: staffProcedure
    .input(
      z.object({
        type: recordTypeName.optional(),
        memberId: idSchema.optional(),
        fields: jsonObject.optional(),
        ...pageInput,
      }),
    )
    // Newest first: a record just created is at the top of the console's list.
    .query(({ ctx, input }) => listRecords(ctx.svc, input, pageOf(input, true))),
  get: staffProcedure.input(z.object({ type: recordTypeName, id: idSchema })).query(({ ctx, input }) => getRecord(ctx.svc, input.type, input.id)),
  create: adminProcedure
    .input(createRecordInput.extend({ type: recordTypeName }))
    .mutation(({ ctx, input }) => createRecord(ctx.svc, input.type, { memberId: input.memberId, fields: input.fields })),
  update: adminProcedure
    .input(updateRecordInput.extend({ type: recordTypeName, id: idSchema, replace: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => updateRecord(ctx.svc, input.type, input.id, { fields: input.fields }, input.replace)),
  delete: adminProcedure
    .input(z.object({ type: recordTypeName, id: idSchema }))
    .mutation(({ ctx, input }) => deleteRecord(ctx.svc, input.type, input.id)),
});
