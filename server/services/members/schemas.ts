import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { timestampSchema, timeZoneSchema } from '@/server/core/time';
import { namePattern } from '@/server/core/names';
import { jsonObject } from '@/server/core/json';

export const roleSchema = z
  .string()
  .regex(namePattern, 'A role starts with a letter and has at most 64 letters, digits, _ or -');

export const memberSchema = z
  .object({
    id: idSchema,
    role: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    externalId: z.string().nullable(),
    meta: jsonObject,
    timeZone: z.string().nullable().meta({ description: "The IANA zone the member reads dates in; null: the project's" }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Member' });
export type MemberDto = z.infer<typeof memberSchema>;

const memberFields = {
  role: roleSchema.optional().meta({ description: 'Defaults to `user`' }),
  name: z.string().trim().min(1).max(200).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  externalId: z.string().min(1).max(200).nullable().optional(),
  meta: jsonObject.optional(),
  timeZone: timeZoneSchema.nullable().optional().meta({ description: "IANA zone for dates shown to the member; null: the project's" }),
};

export const createMemberInput = z.object(memberFields).strict().meta({ id: 'MemberCreate' });
export type CreateMemberInput = z.infer<typeof createMemberInput>;

export const updateMemberInput = z.object(memberFields).strict().meta({ id: 'MemberUpdate' });
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;

export const listMembersQuery = z.object({
  role: z.string().optional(),
  email: z.string().optional(),
  externalId: z.string().optional(),
  search: z.string().max(200).optional().meta({ description: 'Case-insensitive match on name or email' }),
});
export type ListMembersQuery = z.infer<typeof listMembersQuery>;

export const memberTokenSchema = z.object({ token: z.string() }).meta({ id: 'MemberToken' });
