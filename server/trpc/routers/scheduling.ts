import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { createAppointment, getAppointment, listAppointments, updateAppointment } from '@/server/services/scheduling/appointments';
import { createEncounter, listEncounters, updateEncounter } from '@/server/services/scheduling/encounters';
import { createSchedule, deleteSchedule, getSchedule, listSchedules, listSlots, updateSchedule } from '@/server/services/scheduling/schedules';
import {
  APPOINTMENT_STATUSES,
  createAppointmentInput,
  createEncounterInput,
  createScheduleInput,
  ENCOUNTER_STATUSES,
  slotQuery,
  updateAppointmentInput,
  updateEncounterInput,
  updateScheduleInput,
} from '@/server/services/scheduling/schemas';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { byId, pageInput, pageOf } from './shared';

const instant = z.iso.datetime({ offset: true });

/** Schedules: coordinators manage them (CONTRACT 10), only admins delete them. */
export const schedulesRouter = router({
  list: staffProcedure
    .input(z.object({ active: z.boolean().optional(), ...pageInput }).default({ limit: 50 }))
    .query(({ ctx, input }) => listSchedules(ctx.svc, input, pageOf(input))),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getSchedule(ctx.svc, input.id)),
  slots: staffProcedure.input(slotQuery.extend({ id: idSchema })).query(({ ctx, input }) => listSlots(ctx.svc, input.id, input.from, input.to)),
  create: staffProcedure.input(createScheduleInput).mutation(({ ctx, input }) => createSchedule(ctx.svc, input)),
  update: staffProcedure
    .input(z.object({ id: idSchema, changes: updateScheduleInput }))
    .mutation(({ ctx, input }) => updateSchedule(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteSchedule(ctx.svc, input.id)),
});

export const appointmentsRouter = router({
  list: staffProcedure
    .input(
      z
        .object({
          scheduleId: idSchema.optional(),
          subjectId: idSchema.optional(),
          status: z.enum(APPOINTMENT_STATUSES).optional(),
          from: instant.optional(),
          to: instant.optional(),
          ...pageInput,
        })
        .default({ limit: 50 }),
    )
    .query(({ ctx, input }) => listAppointments(ctx.svc, input, pageOf(input))),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getAppointment(ctx.svc, input.id)),
  create: staffProcedure.input(createAppointmentInput).mutation(({ ctx, input }) => createAppointment(ctx.svc, input)),
  update: staffProcedure
    .input(z.object({ id: idSchema, changes: updateAppointmentInput }))
    .mutation(({ ctx, input }) => updateAppointment(ctx.svc, input.id, input.changes)),
});

export const encountersRouter = router({
  list: staffProcedure
    .input(z.object({ subjectId: idSchema.optional(), appointmentId: idSchema.optional(), status: z.enum(ENCOUNTER_STATUSES).optional(), ...pageInput }).default({ limit: 50 }))
    .query(({ ctx, input }) => listEncounters(ctx.svc, input, pageOf(input))),
  create: staffProcedure.input(createEncounterInput).mutation(({ ctx, input }) => createEncounter(ctx.svc, input)),
  update: staffProcedure
    .input(z.object({ id: idSchema, changes: updateEncounterInput }))
    .mutation(({ ctx, input }) => updateEncounter(ctx.svc, input.id, input.changes)),
});
