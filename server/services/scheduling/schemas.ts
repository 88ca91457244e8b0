import { z } from 'zod';
import { APPOINTMENT_STATUSES, ENCOUNTER_STATUSES, WEEKDAYS } from '@/db/schema/enums';
import { idFilter, idSchema } from '@/server/core/ids';
import { isCalendarDate } from '@/server/core/offsets';
import { instantSchema, timestampSchema, timeZoneSchema } from '@/server/core/time';
import { HH_MM, minutesOf } from './rules';

export { APPOINTMENT_STATUSES, ENCOUNTER_STATUSES, WEEKDAYS };
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export type EncounterStatus = (typeof ENCOUNTER_STATUSES)[number];

const hhmm = z.string().regex(HH_MM, 'A local time HH:MM (00:00-24:00)');
const calendarDate = z.string().refine(isCalendarDate, 'A calendar date YYYY-MM-DD');
export { timeZoneSchema };

/** Windows of one day: each start before its end, none overlapping (issues at `<prefix>.<i>.start|end`). */
function windowIssues(windows: { start: string; end: string }[], ctx: z.RefinementCtx, path: (i: number) => (string | number)[]) {
  const sorted = windows.map((w, i) => ({ ...w, i })).sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
  windows.forEach((w, i) => {
    if (HH_MM.test(w.start) && HH_MM.test(w.end) && minutesOf(w.start) >= minutesOf(w.end)) ctx.addIssue({ code: 'custom', path: [...path(i), 'end'], message: 'Must be after start' });
  });
  for (let k = 1; k < sorted.length; k++) {
    if (minutesOf(sorted[k]!.start) < minutesOf(sorted[k - 1]!.end)) ctx.addIssue({ code: 'custom', path: [...path(sorted[k]!.i), 'start'], message: 'Overlaps another window of the same day' });
  }
}

const windowSchema = z.object({ start: hhmm, end: hhmm }).strict();
const availabilityWindow = z.object({ day: z.enum(WEEKDAYS), start: hhmm, end: hhmm }).strict().meta({ id: 'AvailabilityWindow' });
const exceptionSchema = z.object({ date: calendarDate, windows: z.array(windowSchema).max(24) }).strict().meta({ id: 'ScheduleException', description: 'On this local date the windows replace the weekly ones; none closes the day' });

function availabilityIssues(v: { availability?: z.infer<typeof availabilityWindow>[]; exceptions?: z.infer<typeof exceptionSchema>[] }, ctx: z.RefinementCtx) {
  if (v.availability) {
    for (const day of WEEKDAYS) {
      const idx = v.availability.map((w, i) => ({ w, i })).filter((x) => x.w.day === day);
      windowIssues(
        idx.map((x) => x.w),
        ctx,
        (k) => ['availability', idx[k]!.i],
      );
    }
  }
  if (v.exceptions) {
    const seen = new Set<string>();
    v.exceptions.forEach((e, i) => {
      if (seen.has(e.date)) ctx.addIssue({ code: 'custom', path: ['exceptions', i, 'date'], message: 'Each date once' });
      seen.add(e.date);
      windowIssues(e.windows, ctx, (k) => ['exceptions', i, 'windows', k]);
    });
  }
}

const scheduleFields = {
  display: z.string().trim().min(1, 'Give the schedule a name').max(200),
  timeZone: timeZoneSchema,
  slotMinutes: z.number().int().min(5).max(480),
  availability: z.array(availabilityWindow).max(200),
  exceptions: z.array(exceptionSchema).max(500),
  minimumNoticeMinutes: z.number().int().min(0).max(43_200),
  bufferMinutes: z.number().int().min(0).max(240),
  active: z.boolean(),
};

export const createScheduleInput = z
  .object({
    ...scheduleFields,
    timeZone: scheduleFields.timeZone.optional().meta({ description: "Default: the project's" }),
    slotMinutes: scheduleFields.slotMinutes.default(30),
    availability: scheduleFields.availability.default([]),
    exceptions: scheduleFields.exceptions.default([]),
    minimumNoticeMinutes: scheduleFields.minimumNoticeMinutes.default(0),
    bufferMinutes: scheduleFields.bufferMinutes.default(0),
    active: scheduleFields.active.default(true),
  })
  .strict()
  .superRefine(availabilityIssues)
  .meta({ id: 'ScheduleCreate' });
export type CreateScheduleInput = z.output<typeof createScheduleInput>;

export const updateScheduleInput = z
  .object(scheduleFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give at least one field to change' })
  .superRefine(availabilityIssues)
  .meta({ id: 'ScheduleUpdate' });
export type UpdateScheduleInput = z.output<typeof updateScheduleInput>;

export const scheduleSchema = z
  .object({
    id: idSchema,
    display: z.string(),
    timeZone: z.string(),
    slotMinutes: z.number().int(),
    availability: z.array(availabilityWindow),
    exceptions: z.array(exceptionSchema),
    minimumNoticeMinutes: z.number().int(),
    bufferMinutes: z.number().int(),
    active: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Schedule' });
export type ScheduleDto = z.infer<typeof scheduleSchema>;

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');
export const listSchedulesQuery = z.object({ active: flag.optional() });

/** `from` and `to` both count, at most 62 days (the range is checked by the service: 400 naming `to`). */
export const slotQuery = z.object({ from: calendarDate.meta({ description: 'First local date (YYYY-MM-DD)' }), to: calendarDate.meta({ description: 'Last local date, at most 62 days on' }) });
export const slotSchema = z.object({ start: timestampSchema, end: timestampSchema }).meta({ id: 'Slot' });

// Appointments
const text = (max: number) => z.string().trim().max(max);
export const createAppointmentInput = z
  .object({
    scheduleId: idSchema,
    subjectId: idSchema,
    start: instantSchema.meta({ description: 'The start of a free slot (GET /schedule/{id}/slot)' }),
    activityId: idSchema.optional().meta({ description: 'A scheduled appointment activity of the subject; booking completes it' }),
    title: text(200).nullable().optional(),
    note: text(5000).nullable().optional(),
  })
  .strict()
  .meta({ id: 'AppointmentCreate' });
export type CreateAppointmentInput = z.output<typeof createAppointmentInput>;

export const updateAppointmentInput = z
  .object({
    start: instantSchema.meta({ description: 'Reschedules a booked appointment to another free slot' }),
    title: text(200).nullable(),
    note: text(5000).nullable(),
    status: z.enum(APPOINTMENT_STATUSES).meta({ description: 'booked -> cancelled | fulfilled | noshow (final)' }),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give at least one field to change' })
  .meta({ id: 'AppointmentUpdate' });
export type UpdateAppointmentInput = z.output<typeof updateAppointmentInput>;

export const appointmentSchema = z
  .object({
    id: idSchema,
    scheduleId: idSchema,
    subjectId: idSchema,
    activityId: idSchema.nullable(),
    title: z.string().nullable(),
    note: z.string().nullable(),
    start: timestampSchema,
    end: timestampSchema,
    status: z.enum(APPOINTMENT_STATUSES),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Appointment' });
export type AppointmentDto = z.infer<typeof appointmentSchema>;

export const listAppointmentsQuery = z.object({
  scheduleId: idFilter,
  subjectId: idFilter,
  status: z.enum(APPOINTMENT_STATUSES).optional(),
  from: instantSchema.optional().meta({ description: 'start at or after' }),
  to: instantSchema.optional().meta({ description: 'start before' }),
});
export type ListAppointmentsQuery = z.output<typeof listAppointmentsQuery>;

// Encounters
export const createEncounterInput = z
  .object({
    subjectId: idSchema,
    appointmentId: idSchema.optional(),
    status: z.enum(ENCOUNTER_STATUSES).default('in-progress'),
    start: instantSchema.optional().meta({ description: 'Default: now' }),
    note: text(10_000).nullable().optional(),
  })
  .strict()
  .meta({ id: 'EncounterCreate' });
export type CreateEncounterInput = z.output<typeof createEncounterInput>;

export const updateEncounterInput = z
  .object({ status: z.enum(ENCOUNTER_STATUSES), end: instantSchema, note: text(10_000).nullable() })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Give at least one field to change' })
  .meta({ id: 'EncounterUpdate', description: 'planned -> in-progress -> finished; planned or in-progress -> cancelled. Finishing sets end (default now) and fulfils the appointment.' });
export type UpdateEncounterInput = z.output<typeof updateEncounterInput>;

export const encounterSchema = z
  .object({
    id: idSchema,
    subjectId: idSchema,
    appointmentId: idSchema.nullable(),
    status: z.enum(ENCOUNTER_STATUSES),
    start: timestampSchema,
    end: timestampSchema.nullable(),
    note: z.string().nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Encounter' });
export type EncounterDto = z.infer<typeof encounterSchema>;

export const listEncountersQuery = z.object({ subjectId: idFilter, appointmentId: idFilter, status: z.enum(ENCOUNTER_STATUSES).optional() });
export type ListEncountersQuery = z.output<typeof listEncountersQuery>;
