import { z } from 'zod';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { createMember, deleteMember, getMember, issueMemberToken, listMembers, updateMember } from '@/server/services/members/members';
import { createMemberInput, listMembersQuery, updateMemberInput } from '@/server/services/members/schemas';
import { listRecords } from '@/server/services/records/records';
import { pageInput } from './shared';

export const membersRouter = router({
  list: staffProcedure
    .input(listMembersQuery.extend(pageInput))
    .query(({ ctx, input }) => listMembers(ctx.svc, input, { limit: input.limit, afterId: input.afterId })),
  get: staffProcedure.input(z.object({ id: z.number().int() })).query(({ ctx, input }) => getMember(ctx.svc, input.id)),
  records: staffProcedure
    .input(z.object({ id: z.number().int() }))
    .query(({ ctx, input }) => listRecords(ctx.svc, { memberId: input.id }, { limit: 200, afterId: 0 })),
  create: adminProcedure.input(createMemberInput).mutation(({ ctx, input }) => createMember(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: z.number().int(), changes: updateMemberInput }))
    .mutation(({ ctx, input }) => updateMember(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(z.object({ id: z.number().int() })).mutation(({ ctx, input }) => deleteMember(ctx.svc, input.id)),
  issueToken: adminProcedure
    .input(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => issueMemberToken(ctx.svc, input.id)),
});
