import { z } from 'zod';
import { getActivity, updateActivity } from '@/server/services/activities/activities';
import { getArticle } from '@/server/services/articles/articles';
import { getQuestionnaire } from '@/server/services/questionnaires/questionnaires';
import { activityDraft, answerActivity } from '@/server/services/questionnaires/responses';
import { answerSchema } from '@/server/services/questionnaires/schemas';
import { createAppointment, getAppointment, listAppointments, updateAppointment } from '@/server/services/scheduling/appointments';
import { getSchedule, listSchedules, listSlots } from '@/server/services/scheduling/schedules';
import { slotQuery } from '@/server/services/scheduling/schemas';
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
  activity: memberProcedure.input(byId).query(({ ctx, input }) => getActivity(ctx.svc, input.id)),
  article: memberProcedure.input(byId).query(({ ctx, input }) => getArticle(ctx.svc, String(input.id))),
  questionnaire: memberProcedure.input(byId).query(({ ctx, input }) => getQuestionnaire(ctx.svc, String(input.id))),
  draft: memberProcedure.input(z.object({ activityId: byId.shape.id })).query(({ ctx, input }) => activityDraft(ctx.svc, input.activityId)),
  answer: memberProcedure
    .input(z.object({ activityId: byId.shape.id, answers: z.array(answerSchema).max(500), complete: z.boolean() }))
    .mutation(({ ctx, input }) => answerActivity(ctx.svc, input.activityId, input.answers, input.complete)),
  schedules: memberProcedure.query(({ ctx }) => listSchedules(ctx.svc, { active: true }, pageOf({ limit: 20 }))),
  schedule: memberProcedure.input(byId).query(({ ctx, input }) => getSchedule(ctx.svc, input.id)),
  slots: memberProcedure.input(slotQuery.extend({ id: byId.shape.id })).query(({ ctx, input }) => listSlots(ctx.svc, input.id, input.from, input.to)),
  appointments: memberProcedure.query(({ ctx }) => listAppointments(ctx.svc, { status: 'booked', from: new Date().toISOString() }, pageOf({ limit: 50 }))),
  appointment: memberProcedure.input(byId).query(({ ctx, input }) => getAppointment(ctx.svc, input.id)),
  book: memberProcedure
    .input(z.object({ scheduleId: byId.shape.id, start: z.iso.datetime({ offset: true }), activityId: byId.shape.id.optional() }))
    .mutation(({ ctx, input }) => {
      if (ctx.svc.actor.kind !== 'member') throw new Error('member only');
      return createAppointment(ctx.svc, { ...input, subjectId: ctx.svc.actor.memberId });
    }),
  reschedule: memberProcedure
    .input(z.object({ id: byId.shape.id, start: z.iso.datetime({ offset: true }) }))
    .mutation(({ ctx, input }) => updateAppointment(ctx.svc, input.id, { start: input.start })),
  cancelAppointment: memberProcedure.input(byId).mutation(({ ctx, input }) => updateAppointment(ctx.svc, input.id, { status: 'cancelled' })),
  markNotificationRead: memberProcedure.input(byId).mutation(({ ctx, input }) => updateNotification(ctx.svc, input.id, { read: true })),
});
