import { and, asc, eq, gt, gte, lt, type SQL } from 'drizzle-orm';
import { activities, appointments } from '@/db/schema';
import { requireCareManager } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { AppError, conflict, exclusionViolation, invalidField, notFound } from '@/server/errors';
import { audit } from '@/server/audit/audit';
import { emit, recordEvents } from '@/server/events/emit';
import { completeActivityBy, reopenActivity } from '@/server/services/activities/consequences';
import type { ActivityRow } from '@/server/services/activities/dto';
import { requireMemberInProject } from '@/server/services/members/members';
import { allFieldErrors } from '@/server/services/shared';
import { schedules } from '@/db/schema';
import { bookedBetween, rulesOf, type ScheduleRow } from './schedules';
import { clashes, slotProblem } from './rules';
import type { AppointmentDto, CreateAppointmentInput, ListAppointmentsQuery, UpdateAppointmentInput } from './schemas';

export type AppointmentRow = typeof appointments.$inferSelect;
const MINUTE = 60_000;

export const toAppointmentDto = (a: AppointmentRow): AppointmentDto => ({
  id: a.id,
  scheduleId: a.scheduleId,
  subjectId: a.subjectId,
  activityId: a.activityId,
  title: a.title,
  note: a.note,
  start: iso(a.start),
  end: iso(a.end),
  status: a.status,
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

/** Staff and integrations see the project's appointments; a member token only its own (others 404). */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(appointments.projectId, ctx.projectId), eq(appointments.subjectId, ctx.actor.memberId))!;
  return eq(appointments.projectId, ctx.projectId);
}

async function scheduleForBooking(ctx: ServiceContext, id: number): Promise<ScheduleRow> {
  const [row] = await ctx.db.select().from(schedules).where(and(eq(schedules.id, id), eq(schedules.projectId, ctx.projectId)));
  if (!row) throw invalidField('scheduleId', 'No schedule with this id in the project');
  return row;
}

/** `start` must be a slot start of the active schedule that has not begun and is beyond the notice (400). */
function requireSlot(schedule: ScheduleRow, start: Date, now: Date) {
  if (!schedule.active) throw invalidField('start', 'The schedule is not active; it takes no bookings');
  const problem = slotProblem(rulesOf(schedule), start, now);
  if (problem) throw invalidField('start', problem);
}

/** 409 when a booked appointment of the schedule, widened by the buffer, overlaps [start, end). */
async function requireFree(ctx: ServiceContext, schedule: ScheduleRow, start: Date, end: Date, exceptId?: number) {
  const booked = await bookedBetween(ctx, schedule.id, start, end, schedule.bufferMinutes, exceptId);
  if (clashes({ start, end }, booked, schedule.bufferMinutes)) throw conflict('This slot is taken: another appointment of the schedule (with its buffer) overlaps it', 'start');
}

/** The activity a booking names: the subject's, kind appointment, scheduled, and of this schedule when it names one. */
async function bookableActivity(ctx: ServiceContext, id: number, subjectId: number, scheduleId: number, lock = false): Promise<ActivityRow> {
  const query = ctx.db.select().from(activities).where(and(eq(activities.id, id), eq(activities.projectId, ctx.projectId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.subjectId !== subjectId) throw invalidField('activityId', "No activity with this id for the appointment's subject");
  if (row.kind !== 'appointment') throw invalidField('activityId', 'The activity is not an appointment activity');
  if (row.status !== 'scheduled') throw invalidField('activityId', `The activity is ${row.status}; only a scheduled activity is booked`);
  if (row.scheduleId !== null && row.scheduleId !== scheduleId) throw invalidField('activityId', 'The activity asks for a booking in another schedule');
  return row;
}

/** Members book for themselves (403 otherwise); staff and integrations for anyone. */
function requireMayBookFor(ctx: ServiceContext, subjectId: number) {
  if (ctx.actor.kind === 'member') {
    if (ctx.actor.memberId !== subjectId) throw new AppError('forbidden', 'A member books appointments for themselves only');
    return;
  }
  requireCareManager(ctx);
}

/**
 * Bookings of one schedule take turns on its row: without it, simultaneous inserts waited on each other's
 * uncommitted rows inside the exclusion check until the lock limit (503s where CONTRACT 10 wants one 201
 * and 409s). With it, each later booking sees the earlier one committed and
 * fails the constraint at once. The constraint stays the guarantee; the lock only orders the attempts.
 */
async function lockSchedule(tx: ServiceContext, scheduleId: number) {
  await tx.db.select({ id: schedules.id }).from(schedules).where(eq(schedules.id, scheduleId)).for('update');
}

/** A booking that lost the race at the database (the exclusion constraint): 409, as for a visible clash. */
async function refusingOverlap<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (exclusionViolation(e)) throw conflict('This slot was just taken by another booking', 'start');
    throw e;
  }
}

/** POST /appointment (CONTRACT 10). */
export async function createAppointment(ctx: ServiceContext, input: CreateAppointmentInput): Promise<AppointmentDto> {
  requireMayBookFor(ctx, input.subjectId);
  const start = new Date(input.start);
  const [schedule] = await allFieldErrors([scheduleForBooking(ctx, input.scheduleId), requireMemberInProject(ctx, input.subjectId, 'subjectId')] as const);
  requireSlot(schedule, start, ctx.clock());
  if (input.activityId !== undefined) await bookableActivity(ctx, input.activityId, input.subjectId, schedule.id);
  const end = new Date(start.getTime() + schedule.slotMinutes * MINUTE);
  await requireFree(ctx, schedule, start, end);
  return refusingOverlap(() =>
    emit(ctx, 'appointment_create', input, async (tx) => {
      await lockSchedule(tx, schedule.id);
      const activity = input.activityId !== undefined ? await bookableActivity(tx, input.activityId, input.subjectId, schedule.id, true) : undefined;
      const now = tx.clock();
      const [row] = await tx.db
        .insert(appointments)
        .values({
          projectId: ctx.projectId,
          scheduleId: schedule.id,
          subjectId: input.subjectId,
          activityId: input.activityId ?? null,
          title: input.title ?? null,
          note: input.note ?? null,
          start,
          end,
          blockedUntil: new Date(end.getTime() + schedule.bufferMinutes * MINUTE),
          status: 'booked',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (activity) await completeActivityBy(tx, activity, { appointmentId: row!.id });
      const dto = toAppointmentDto(row!);
      await audit(tx, { action: 'create', resource: 'appointment', resourceId: dto.id, after: dto });
      return dto;
    }),
  );
}

export async function findAppointment(ctx: ServiceContext, id: number, lock = false): Promise<AppointmentRow> {
  const query = ctx.db.select().from(appointments).where(and(eq(appointments.id, id), visibleTo(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Appointment');
  return row;
}

export async function getAppointment(ctx: ServiceContext, id: number): Promise<AppointmentDto> {
  return toAppointmentDto(await findAppointment(ctx, id));
}

export async function listAppointments(ctx: ServiceContext, query: ListAppointmentsQuery, page: Page = FIRST_PAGE): Promise<Paged<AppointmentDto>> {
  const rows = await ctx.db
    .select()
    .from(appointments)
    .where(
      and(
        visibleTo(ctx),
        gt(appointments.id, page.afterId),
        query.scheduleId ? eq(appointments.scheduleId, query.scheduleId) : undefined,
        query.subjectId ? eq(appointments.subjectId, query.subjectId) : undefined,
        query.status ? eq(appointments.status, query.status) : undefined,
        query.from ? gte(appointments.start, new Date(query.from)) : undefined,
        query.to ? lt(appointments.start, new Date(query.to)) : undefined,
      ),
    )
    .orderBy(asc(appointments.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toAppointmentDto);
}

/**
 * The activity a cancelled booking had completed opens again, in the caller's transaction. Only a
 * cancellation gives it back: a fulfilled or missed appointment still answered the activity.
 */
async function reopenBookedActivity(tx: ServiceContext, appointment: AppointmentRow) {
  if (appointment.activityId === null) return;
  const [activity] = await tx.db.select().from(activities).where(eq(activities.id, appointment.activityId)).for('update');
  if (activity && activity.status === 'completed' && activity.appointmentId === appointment.id) await reopenActivity(tx, activity);
}

/** PATCH /appointment/<id>: reschedule (same rules as booking), edit, or end it in a final state. */
export async function updateAppointment(ctx: ServiceContext, id: number, input: UpdateAppointmentInput): Promise<AppointmentDto> {
  const current = await findAppointment(ctx, id);
  if (ctx.actor.kind === 'member') {
    if (input.status === 'fulfilled' || input.status === 'noshow') throw new AppError('forbidden', 'Only the care team records a visit as fulfilled or missed');
  } else requireCareManager(ctx);
  if (current.status !== 'booked') throw conflict(`The appointment is ${current.status}; it no longer changes`, input.status ? 'status' : undefined);
  const [schedule] = await ctx.db.select().from(schedules).where(eq(schedules.id, current.scheduleId));
  let times: { start: Date; end: Date; blockedUntil: Date } | undefined;
  if (input.start !== undefined) {
    const start = new Date(input.start);
    if (start.getTime() !== current.start.getTime()) {
      requireSlot(schedule!, start, ctx.clock());
      const end = new Date(start.getTime() + schedule!.slotMinutes * MINUTE);
      await requireFree(ctx, schedule!, start, end, id);
      times = { start, end, blockedUntil: new Date(end.getTime() + schedule!.bufferMinutes * MINUTE) };
    }
  }
  return refusingOverlap(() =>
    emit(ctx, 'appointment_update', { id, ...input }, async (tx) => {
      if (times) await lockSchedule(tx, current.scheduleId);
      const row = await findAppointment(tx, id, true);
      if (row.status !== 'booked') throw conflict(`The appointment is ${row.status}; it no longer changes`, input.status ? 'status' : undefined);
      const [saved] = await tx.db
        .update(appointments)
        .set({
          ...(times ?? {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.note !== undefined ? { note: input.note } : {}),
          ...(input.status ? { status: input.status } : {}),
          updatedAt: tx.clock(),
        })
        .where(eq(appointments.id, id))
        .returning();
      if (input.status === 'cancelled') await reopenBookedActivity(tx, row);
      const dto = toAppointmentDto(saved!);
      await audit(tx, { action: 'update', resource: 'appointment', resourceId: id, before: toAppointmentDto(row), after: dto });
      return dto;
    }),
  );
}

/** An encounter finished: its booked appointment is fulfilled, recorded after-only as if PATCHed. */
export async function fulfilAppointment(tx: ServiceContext, appointmentId: number): Promise<void> {
  const [row] = await tx.db
    .update(appointments)
    .set({ status: 'fulfilled', updatedAt: tx.clock() })
    .where(and(eq(appointments.id, appointmentId), eq(appointments.status, 'booked')))
    .returning();
  if (row) await recordEvents(tx, 'appointment_update', [{ params: { id: row.id, status: 'fulfilled' }, responseData: toAppointmentDto(row) }]);
}
