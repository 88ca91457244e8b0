import { z } from 'zod';
import { idSchema, idFilter } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';
import { namePattern } from '@/server/core/names';
import { jsonObject, unsafeJsonPlaces } from '@/server/core/json';

export const recordTypeName = z
  .string()
  .regex(namePattern, 'A type starts with a letter and has at most 64 letters, digits, _ or -');

export const permissionFlags = z
  .object({ read: z.boolean().optional(), write: z.boolean().optional() })
  .strict()
  .meta({ id: 'PermissionFlags', description: '`read` lets the role read its own records; `write` lets it create, change and delete them' });

export const permissionsSchema = z
  .record(z.string().regex(namePattern, 'Role names start with a letter; letters, digits, _ or -'), permissionFlags)
  .meta({ id: 'Permissions', description: 'Keyed by role name' });

export const recordTypeSchema = z
  .object({
    id: idSchema,
    type: z.string(),
    permissions: permissionsSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'RecordType' });
export type RecordTypeDto = z.infer<typeof recordTypeSchema>;

export const createRecordTypeInput = z
  .object({ type: recordTypeName, permissions: permissionsSchema.default({}) })
  .strict()
  .meta({ id: 'RecordTypeCreate' });
export type CreateRecordTypeInput = z.input<typeof createRecordTypeInput>;

export const updateRecordTypeInput = z.object({ permissions: permissionsSchema }).strict().meta({ id: 'RecordTypeUpdate' });
export type UpdateRecordTypeInput = z.infer<typeof updateRecordTypeInput>;

export const recordSchema = z
  .object({
    id: idSchema,
    type: z.string(),
    memberId: idSchema,
    fields: jsonObject,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Record' });
export type RecordDto = z.infer<typeof recordSchema>;

export const createRecordInput = z
  .object({ fields: jsonObject, memberId: idSchema })
  .strict()
  .meta({ id: 'RecordCreate' });
export type CreateRecordInput = z.infer<typeof createRecordInput>;

export const updateRecordInput = z
  .object({ fields: jsonObject.meta({ description: 'A JSON Merge Patch (RFC 7396) of the fields' }) })
  .strict()
  .meta({ id: 'RecordUpdate' });
export type UpdateRecordInput = z.infer<typeof updateRecordInput>;

/** `fields` arrives as URL-encoded JSON and must be an object; records match when their fields contain it. */
export const fieldsFilter = z
  .string()
  .transform((text, ctx) => {
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      /* reported below */
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'fields must be a JSON object, e.g. {"status":"active"}' });
      return z.NEVER;
    }
    // Too deep or holding NUL: refused here, before it reaches a jsonb containment query.
    const unsafe = unsafeJsonPlaces(value);
    for (const place of unsafe) ctx.addIssue({ code: 'custom', path: place.path.split('.').filter(Boolean), message: place.message });
    return unsafe.length > 0 ? z.NEVER : (value as Record<string, unknown>);
  })
  .meta({ description: 'URL-encoded JSON object; a record matches when its fields contain it (jsonb @>)' });

export const listRecordsQuery = z.object({
  memberId: idFilter,
  type: recordTypeName.optional(),
  fields: fieldsFilter.optional(),
});
export type ListRecordsQuery = { memberId?: number; type?: string; fields?: Record<string, unknown> };
