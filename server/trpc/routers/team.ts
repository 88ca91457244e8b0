import { idSchema } from '@/server/core/ids';
import { changeRoleInput, inviteInput } from '@/server/services/users/schemas';
import { changeRole, inviteUser, listTeam, resetPassword, revokeInvitation, setActive } from '@/server/services/users/team';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { z } from 'zod';

/** The Team page: staff of the project, invitations, roles, deactivation and password resets (admins). */
export const teamRouter = router({
  list: staffProcedure.query(({ ctx }) => listTeam(ctx.svc)),
  invite: adminProcedure.input(inviteInput).mutation(({ ctx, input }) => inviteUser(ctx.svc, input)),
  revokeInvitation: adminProcedure.input(z.object({ id: idSchema })).mutation(({ ctx, input }) => revokeInvitation(ctx.svc, input.id)),
  changeRole: adminProcedure.input(changeRoleInput).mutation(({ ctx, input }) => changeRole(ctx.svc, input.userId, input.role)),
  setActive: adminProcedure.input(z.object({ userId: idSchema, active: z.boolean() })).mutation(({ ctx, input }) => setActive(ctx.svc, input.userId, input.active)),
  resetPassword: adminProcedure.input(z.object({ userId: idSchema })).mutation(({ ctx, input }) => resetPassword(ctx.svc, input.userId)),
});
