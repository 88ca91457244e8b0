import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { createMember, deleteMember, getMember, issueMemberToken, listMembers, memberNames, updateMember } from '@/server/services/members/members';
import { createMemberInput, listMembersQuery, updateMemberInput } from '@/server/services/members/schemas';
import { listRecords } from '@/server/services/records/records';
import { byId, pageInput, pageOf } from './shared';

export const membersRouter = router({
  list: staffProcedure.input(listMembersQuery.extend(pageInput)).query(({ ctx, input }) => listMembers(ctx.svc, input, pageOf(input))),
  names: staffProcedure.input(z.object({ ids: z.array(idSchema).max(200) })).query(({ ctx, input }) => memberNames(ctx.svc, input.ids)),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getMember(ctx.svc, input.id)),
  records: staffProcedure.input(byId.extend(pageInput)).query(({ ctx, input }) => listRecords(ctx.svc, { memberId: input.id }, pageOf(input))),
  create: adminProcedure.input(createMemberInput).mutation(({ ctx, input }) => createMember(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateMemberInput }))
    .mutation(({ ctx, input }) => updateMember(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteMember(ctx.svc, input.id)),
  issueToken: adminProcedure.input(byId).mutation(({ ctx, input }) => issueMemberToken(ctx.svc, input.id)),
});
