import { and, asc, eq, gt, gte, lt, type SQL } from 'drizzle-orm';
import { appointments, schedules } from '@/db/schema';
import { requireAdmin, requireCareManager } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso, isoString } from '@/server/core/time';
import { conflict, foreignKeyViolation, invalidField, notFound } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { projectTimeZone } from '@/server/services/projects/projects';
import { daysInclusive, freeSlots, MAX_SLOT_DAYS, type ScheduleRules } from './rules';
import type { CreateScheduleInput, ScheduleDto, UpdateScheduleInput } from './schemas';

export type ScheduleRow = typeof schedules.$inferSelect;

export const toScheduleDto = (s: ScheduleRow): ScheduleDto => ({
  id: s.id,
  display: s.display,
  timeZone: s.timeZone,
  slotMinutes: s.slotMinutes,
  availability: s.availability as ScheduleDto['availability'],
  exceptions: s.exceptions as ScheduleDto['exceptions'],
  minimumNoticeMinutes: s.minimumNoticeMinutes,
  bufferMinutes: s.bufferMinutes,
  active: s.active,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const rulesOf = (s: ScheduleRow): ScheduleRules => ({
  timeZone: s.timeZone,
  slotMinutes: s.slotMinutes,
  availability: s.availability,
  exceptions: s.exceptions,
  minimumNoticeMinutes: s.minimumNoticeMinutes,
  bufferMinutes: s.bufferMinutes,
});

/** Staff and integrations see every schedule; a member token the active ones (CONTRACT 10). */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(schedules.projectId, ctx.projectId), eq(schedules.active, true))!;
  return eq(schedules.projectId, ctx.projectId);
}

export async function findSchedule(ctx: ServiceContext, id: number, lock = false): Promise<ScheduleRow> {
  const query = ctx.db.select().from(schedules).where(and(eq(schedules.id, id), visibleTo(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Schedule');
  return row;
}

export async function createSchedule(ctx: ServiceContext, input: CreateScheduleInput): Promise<ScheduleDto> {
  requireCareManager(ctx);
  const timeZone = input.timeZone ?? (await projectTimeZone(ctx));
  return emit(ctx, 'schedule_create', input, async (tx) => {
    const now = tx.clock();
    const [row] = await tx.db
      .insert(schedules)
      .values({ ...input, timeZone, projectId: ctx.projectId, createdAt: now, updatedAt: now })
      .returning();
    const dto = toScheduleDto(row!);
    await audit(tx, { action: 'create', resource: 'schedule', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listSchedules(ctx: ServiceContext, query: { active?: boolean; search?: string }, page: Page = FIRST_PAGE): Promise<Paged<ScheduleDto>> {
  const rows = await ctx.db
    .select()
    .from(schedules)
    .where(and(visibleTo(ctx), gt(schedules.id, page.afterId), query.active === undefined ? undefined : eq(schedules.active, query.active)))
    .orderBy(asc(schedules.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toScheduleDto);
}

export async function getSchedule(ctx: ServiceContext, id: number): Promise<ScheduleDto> {
  return toScheduleDto(await findSchedule(ctx, id));
}

export async function updateSchedule(ctx: ServiceContext, id: number, input: UpdateScheduleInput): Promise<ScheduleDto> {
  requireCareManager(ctx);
  await findSchedule(ctx, id);
  return emit(ctx, 'schedule_update', { id, ...input }, async (tx) => {
    const current = await findSchedule(tx, id, true);
    const [row] = await tx.db
      .update(schedules)
      .set({ ...input, updatedAt: tx.clock() })
      .where(eq(schedules.id, id))
      .returning();
    const dto = toScheduleDto(row!);
    await audit(tx, { action: 'update', resource: 'schedule', resourceId: id, before: toScheduleDto(current), after: dto });
    return dto;
  });
}

/** Admins only; refused (409) while a booked appointment lies in the future. Past ones go with it. */
export async function deleteSchedule(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  await withTransaction(ctx, async (tx) => {
    const current = await findSchedule(tx, id, true);
    const [upcoming] = await tx.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(and(eq(appointments.scheduleId, id), eq(appointments.status, 'booked'), gte(appointments.end, tx.clock())))
      .limit(1);
    if (upcoming) throw conflict('The schedule has booked appointments to come; cancel or move them first');
    try {
      await tx.db.delete(schedules).where(eq(schedules.id, id));
    } catch (e) {
      if (foreignKeyViolation(e)) throw conflict('Something still refers to this schedule');
      throw e;
    }
    await audit(tx, { action: 'delete', resource: 'schedule', resourceId: id, before: toScheduleDto(current) });
  });
}

/** Booked appointments of a schedule whose times (widened by `widenMinutes`) touch [from, to). */
export async function bookedBetween(ctx: ServiceContext, scheduleId: number, from: Date, to: Date, widenMinutes: number, exceptId?: number) {
  const margin = widenMinutes * 60_000;
  const rows = await ctx.db
    .select({ id: appointments.id, start: appointments.start, end: appointments.end })
    .from(appointments)
    .where(
      and(
        eq(appointments.scheduleId, scheduleId),
        eq(appointments.status, 'booked'),
        lt(appointments.start, new Date(to.getTime() + margin)),
        gt(appointments.end, new Date(from.getTime() - margin)),
      ),
    );
  return rows.filter((r) => r.id !== exceptId);
}

/** GET /schedule/<id>/slot: the free slots between two local dates of the schedule (CONTRACT 10). */
export async function listSlots(ctx: ServiceContext, id: number, from: string, to: string): Promise<{ start: string; end: string }[]> {
  const days = daysInclusive(from, to);
  if (days < 1) throw invalidField('to', 'Must not be before from');
  if (days > MAX_SLOT_DAYS) throw invalidField('to', `At most ${MAX_SLOT_DAYS} days from from, both counted`);
  const schedule = await findSchedule(ctx, id);
  if (!schedule.active) return [];
  const now = ctx.clock();
  // Wide enough for any time zone's local dates; the exact cut is the slots' own.
  const lo = new Date(Date.parse(`${from}T00:00:00Z`) - 2 * 86_400_000);
  const hi = new Date(Date.parse(`${to}T00:00:00Z`) + 3 * 86_400_000);
  const booked = await bookedBetween(ctx, id, lo, hi, schedule.bufferMinutes);
  return freeSlots(rulesOf(schedule), from, to, booked, now).map((s) => ({ start: isoString(s.start), end: isoString(s.end) }));
}
