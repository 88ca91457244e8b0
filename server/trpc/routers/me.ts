import { z } from 'zod';
import { updateActivity } from '@/server/services/activities/activities';
import { updateNotification } from '@/server/services/activities/notifications';
import { loadMemberHome } from '@/server/services/members/member-home';
import { memberProcedure, router } from '@/server/trpc/init';
import { byId, pageOf } from './shared';

/** The signed-in member's own page (`/me`): their to-do list, inbox and records. */
export const meRouter = router({
  home: memberProcedure
    .input(z.object({ recordsCursor: z.number().int().min(0).nullish() }).default({}))
    .query(({ ctx, input }) => loadMemberHome(ctx.svc, pageOf({ limit: 50, cursor: input.recordsCursor }))),
  completeActivity: memberProcedure.input(byId).mutation(({ ctx, input }) => updateActivity(ctx.svc, input.id, { status: 'completed' })),
  markNotificationRead: memberProcedure.input(byId).mutation(({ ctx, input }) => updateNotification(ctx.svc, input.id, { read: true })),
});
