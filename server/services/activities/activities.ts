import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { activities, careplans, projects } from '@/db/schema';
import { requireReadEverything, requireCareManager } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import type { ServiceContext } from '@/server/context';
import { AppError, conflict, invalidField, notFound } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { toActivityDto } from '@/server/services/activities/dto';
import { type ActivityDto } from '@/server/services/activities/schemas';
import { initialSchedule, isOpen, nextDueAt, pendingReminderAt } from './lifecycle';
import { requireReferencesInProject } from './references';
import { type CreateActivityInput, type UpdateActivityInput } from './schemas';

type ActivityRow = typeof activities.$inferSelect;

export async function listActivities(
  ctx: ServiceContext,
  query: { careplanId?: number; subjectId?: number; status?: ActivityDto['status']; kind?: ActivityDto['kind'] },
  page: Page = FIRST_PAGE,
): Promise<Paged<ActivityDto>> {
  const where: SQL[] = [visibleTo(ctx), gt(activities.id, page.afterId)];
  if (query.careplanId) where.push(eq(activities.careplanId, query.careplanId));
  if (query.subjectId) where.push(eq(activities.subjectId, query.subjectId));
  if (query.status) where.push(eq(activities.status, query.status));
  if (query.kind) where.push(eq(activities.kind, query.kind));
  const rows = await ctx.db.select().from(activities).where(and(...where)).orderBy(asc(activities.id)).limit(fetchSize(page));
  return toPaged(rows, page, toActivityDto);
}

/** Staff and integrations see the project's activities; a member token only the member's own. */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(activities.projectId, ctx.projectId), eq(activities.subjectId, ctx.actor.memberId))!;
  requireReadEverything(ctx);
  return eq(activities.projectId, ctx.projectId);
}

/** A member may mark their own activity done, when it is theirs to do (actorType subject). */
function requireMemberMayUpdate(ctx: ServiceContext, row: ActivityRow, input: UpdateActivityInput) {
  if (ctx.actor.kind !== 'member') return;
  const onlyCompletes = Object.keys(input).length === 1 && input.status === 'completed';
  if (!onlyCompletes || row.actorType !== 'subject') throw new AppError('forbidden', 'A member may only mark their own activities completed');
}

async function findActivity(ctx: ServiceContext, id: number): Promise<{ row: ActivityRow; timeZone: string }> {
  const [found] = await ctx.db
    .select({ row: activities, timeZone: projects.timeZone })
    .from(activities)
    .innerJoin(projects, eq(projects.id, activities.projectId))
    .where(and(eq(activities.id, id), visibleTo(ctx)));
  if (!found) throw notFound('Activity');
  return found;
}

export async function getActivity(ctx: ServiceContext, id: number): Promise<ActivityDto> {
  return toActivityDto((await findActivity(ctx, id)).row);
}

/**
 * CONTRACT 9: a questionnaire activity is completed by a completed response naming it, an appointment
 * activity by booking (409 for a PATCH). A questionnaire activity whose form was deleted since has
 * nothing to fill in, so it may be marked done by hand.
 */
function requireCompletableByPatch(row: ActivityRow, input: UpdateActivityInput) {
  if (input.status !== 'completed') return;
  if (row.kind === 'questionnaire' && row.questionnaireId !== null) throw conflict('A questionnaire activity is completed by a completed response naming it', 'status');
  if (row.kind === 'appointment') throw conflict('An appointment activity is completed by booking an appointment for it', 'status');
}

function requireEndNotBefore(activateAt: Date, endAt: Date | null) {
  if (endAt && endAt < activateAt) throw invalidField('endAt', 'endAt must not be before activateAt');
}

/** POST /activity: a custom activity on an ongoing care plan, proposed until its activateAt passes. */
export async function createActivity(ctx: ServiceContext, input: CreateActivityInput): Promise<ActivityDto> {
  requireCareManager(ctx);
  const [found] = await ctx.db
    .select({ c: careplans, timeZone: projects.timeZone })
    .from(careplans)
    .innerJoin(projects, eq(projects.id, careplans.projectId))
    .where(and(eq(careplans.id, input.careplanId), eq(careplans.projectId, ctx.projectId)));
  if (!found) throw invalidField('careplanId', 'No care plan with this id in the project');
  if (found.c.status !== 'ongoing') throw conflict(`The care plan is ${found.c.status}; it takes no new activities`, 'careplanId');
  const activateAt = new Date(input.activateAt);
  const endAt = input.endAt ? new Date(input.endAt) : null;
  requireEndNotBefore(activateAt, endAt);
  await requireReferencesInProject(ctx, [input]);
  const { remindAt, nextDueAt: firstDue } = initialSchedule(activateAt, endAt, input.reminders, found.timeZone);
  return emit(ctx, 'activity_create', { ...input }, async (tx) => {
    const [row] = await tx.db
      .insert(activities)
      .values({
        projectId: ctx.projectId,
        careplanId: found.c.id,
        subjectId: found.c.subjectId,
        kind: input.kind,
        type: input.type,
        display: input.display,
        description: input.description ?? null,
        articleId: input.articleId ?? null,
        questionnaireId: input.questionnaireId ?? null,
        scheduleId: input.scheduleId ?? null,
        actorType: input.actorType,
        activateAt,
        endAt,
        remindAt,
        reminders: input.reminders,
        nextDueAt: firstDue,
        createdAt: ctx.clock(),
        updatedAt: ctx.clock(),
      })
      .returning();
    const dto = toActivityDto(row!);
    await audit(tx, { action: 'create', resource: 'activity', resourceId: dto.id, after: dto });
    return dto;
  });
}

/**
 * PATCH /activity/<id>: completes or cancels an open activity, applies a transition (what an integration
 * that handles the transition events does), or changes its timestamps. The pending
 * reminder moves with activateAt (unless remindAt is given) and the next due transition follows.
 * Expired, completed and cancelled activities are final (409).
 */
export async function updateActivity(ctx: ServiceContext, id: number, input: UpdateActivityInput): Promise<ActivityDto> {
  if (ctx.actor.kind !== 'member') requireCareManager(ctx);
  const { row: current, timeZone } = await findActivity(ctx, id);
  requireMemberMayUpdate(ctx, current, input);
  requireCompletableByPatch(current, input);
  const changesSchedule = input.status !== undefined || input.activateAt !== undefined || input.endAt !== undefined || input.remindAt !== undefined;
  if (changesSchedule && !isOpen(current.status)) throw conflict(`The activity is ${current.status}; only proposed or scheduled activities change`, 'status');
  const activateAt = input.activateAt ? new Date(input.activateAt) : current.activateAt;
  const endAt = input.endAt === undefined ? current.endAt : input.endAt ? new Date(input.endAt) : null;
  requireEndNotBefore(activateAt, endAt);
  return emit(ctx, 'activity_update', { id, ...input }, async (tx) => {
    // Locked and read again: the scheduler may have moved it since.
    const [row] = await tx.db.select().from(activities).where(eq(activities.id, id)).for('update');
    if (!row) throw notFound('Activity');
    if (changesSchedule && !isOpen(row.status)) throw conflict(`The activity is ${row.status}; only proposed or scheduled activities change`, 'status');
    if (input.status === 'scheduled' && row.status !== 'proposed') throw conflict('Only a proposed activity becomes scheduled', 'status');
    const status = input.status ?? row.status;
    const remindAt = !isOpen(status)
      ? null
      : input.remindAt !== undefined
        ? input.remindAt
          ? new Date(input.remindAt)
          : null
        : input.activateAt
          ? pendingReminderAt(row, activateAt, timeZone)
          : row.remindAt;
    const [updated] = await tx.db
      .update(activities)
      .set({
        type: input.type ?? row.type,
        display: input.display ?? row.display,
        status,
        activateAt,
        endAt,
        remindAt,
        completedAt: input.status === 'completed' ? ctx.clock() : row.completedAt,
        nextDueAt: nextDueAt({ status, activateAt, endAt, remindAt, handledTransitions: row.handledTransitions }),
        failures: 0,
        updatedAt: ctx.clock(),
      })
      .where(eq(activities.id, id))
      .returning();
    const dto = toActivityDto(updated!);
    await audit(tx, { action: 'update', resource: 'activity', resourceId: id, before: toActivityDto(row), after: dto });
    return dto;
  });
}

export async function deleteActivity(ctx: ServiceContext, id: number): Promise<ActivityDto> {
  requireCareManager(ctx);
  await findActivity(ctx, id);
  return emit(ctx, 'activity_delete', { id }, async (tx) => {
    const [row] = await tx.db.delete(activities).where(eq(activities.id, id)).returning();
    if (!row) throw notFound('Activity');
    const deleted = toActivityDto(row);
    await audit(tx, { action: 'delete', resource: 'activity', resourceId: id, before: deleted });
    return deleted;
  });
}
