import { z } from 'zod';
import { STAFF_ROLES } from '@/db/schema/enums';
import { idSchema } from '@/server/core/ids';

export const passwordSchema = z.string().min(8, 'Use at least 8 characters').max(200, 'Use at most 200 characters');
export const staffRoleSchema = z.enum(STAFF_ROLES, { message: 'Choose admin or coordinator' });

export const teamMemberSchema = z.object({
  userId: idSchema,
  email: z.string(),
  name: z.string().nullable(),
  role: staffRoleSchema,
  active: z.boolean(),
  joinedAt: z.string(),
  deactivatedAt: z.string().nullable(),
});
export type TeamMemberDto = z.infer<typeof teamMemberSchema>;

export const invitationSchema = z.object({
  id: idSchema,
  kind: z.enum(['invite', 'reset']),
  email: z.string(),
  role: staffRoleSchema.nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'used', 'expired', 'revoked']),
});
export type InvitationDto = z.infer<typeof invitationSchema>;

export const inviteInput = z
  .object({
    email: z.email({ message: 'Enter an email address, like name@example.org' }).max(320).transform((e) => e.toLowerCase()),
    role: staffRoleSchema,
  })
  .strict();
export type InviteInput = z.infer<typeof inviteInput>;

export const changeRoleInput = z.object({ userId: idSchema, role: staffRoleSchema }).strict();

/** Accepting an invitation: a new account sets its name and password; an existing one confirms with its password. */
export const acceptInvitationInput = z
  .object({
    token: z.string().min(20).max(200),
    name: z.string().trim().min(1, 'Enter your name').max(200).optional(),
    password: passwordSchema,
  })
  .strict();
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInput>;

export const completeResetInput = z.object({ token: z.string().min(20).max(200), password: passwordSchema }).strict();
