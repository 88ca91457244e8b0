import { z } from 'zod';
import { updateActivity } from '@/server/services/activities/activities';
import { recentNotifications } from '@/server/services/activities/notifications';
import { activityDashboard, careplanTimeline } from '@/server/services/activities/overview';
import { updateActivityInput } from '@/server/services/activities/schemas';
import { router, staffProcedure } from '@/server/trpc/init';

export const activitiesRouter = router({
  dashboard: staffProcedure.query(({ ctx }) => activityDashboard(ctx.svc)),
  timeline: staffProcedure.input(z.object({ careplanId: z.number().int() })).query(({ ctx, input }) => careplanTimeline(ctx.svc, input.careplanId)),
  update: staffProcedure
    .input(z.object({ id: z.number().int(), changes: updateActivityInput }))
    .mutation(({ ctx, input }) => updateActivity(ctx.svc, input.id, input.changes)),
  notifications: staffProcedure
    .input(z.object({ memberId: z.number().int(), beforeId: z.number().int().optional() }))
    .query(({ ctx, input }) => recentNotifications(ctx.svc, input.memberId, 20, input.beforeId)),
});
