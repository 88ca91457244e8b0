import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { activities, careplans, observations, questionnaireResponses, questionnaires, questionnaireVersions, responseObservations } from '@/db/schema';
import { requireCareManager, requireReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { AppError, conflict, invalid, invalidField, notFound } from '@/server/errors';
import { audit } from '@/server/audit/audit';
import { emit } from '@/server/events/emit';
import { completeActivityBy } from '@/server/services/activities/consequences';
import type { ActivityRow } from '@/server/services/activities/dto';
import { feedObservations, type MadeObservation } from '@/server/services/careplans/parameters';
import { requireMemberInProject } from '@/server/services/members/members';
import { allFieldErrors } from '@/server/services/shared';
import { answerProblems, answerText, inItemOrder, type Answer, type Item } from './rules';
import { type CreateResponseInput, type ListResponsesQuery, type ResponseDto, type ResponseStatus, type UpdateResponseInput } from './schemas';

type ResponseRow = typeof questionnaireResponses.$inferSelect;

export const toResponseDto = (r: ResponseRow): ResponseDto => ({
  id: r.id,
  questionnaireId: r.questionnaireId,
  questionnaireVersion: r.questionnaireVersion,
  subjectId: r.subjectId,
  activityId: r.activityId,
  status: r.status,
  answers: r.answers.map((a) => ({ linkId: a.linkId, value: a.value })),
  authoredAt: iso(r.authoredAt),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

/** Staff and integrations see the project's responses; a member token only the member's own. */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(questionnaireResponses.projectId, ctx.projectId), eq(questionnaireResponses.subjectId, ctx.actor.memberId))!;
  requireReadEverything(ctx);
  return eq(questionnaireResponses.projectId, ctx.projectId);
}

/** Members answer for themselves only (403); staff and integrations may answer on a member's behalf. */
function requireMayAnswerFor(ctx: ServiceContext, subjectId: number) {
  if (ctx.actor.kind === 'member') {
    if (ctx.actor.memberId !== subjectId) throw new AppError('forbidden', 'A member answers questionnaires for themselves only');
    return;
  }
  requireCareManager(ctx);
}

/** CONTRACT 9: every failing place at once, and nothing stored. */
function requireValidAnswers(items: Item[], answers: Answer[], complete: boolean) {
  const problems = answerProblems(items, answers, complete);
  if (problems.length > 0) throw invalid(problems);
}

const isComplete = (status: ResponseStatus) => status !== 'in-progress';
/** Equal answers in the same order; compared by field, since jsonb does not keep an object's key order. */
const sameAnswers = (a: Answer[], b: Answer[]) => a.length === b.length && a.every((x, i) => x.linkId === b[i]!.linkId && JSON.stringify(x.value) === JSON.stringify(b[i]!.value));

/**
 * The activity a response names: a questionnaire activity of the subject for this questionnaire (400),
 * not already completed by a response (409), and scheduled (400).
 */
function activityProblem(row: ActivityRow | undefined, subjectId: number, questionnaireId: number): AppError | undefined {
  if (!row || row.subjectId !== subjectId) return invalidField('activityId', "No activity with this id for the response's subject");
  if (row.kind !== 'questionnaire' || row.questionnaireId !== questionnaireId) return invalidField('activityId', 'The activity does not ask for this questionnaire');
  if (row.status === 'completed' && row.questionnaireResponseId !== null) return conflict('A completed response already completed this activity', 'activityId');
  if (row.status !== 'scheduled') return invalidField('activityId', `The activity is ${row.status}; only a scheduled activity is answered`);
  return undefined;
}

async function findActivity(ctx: ServiceContext, id: number, lock = false): Promise<ActivityRow | undefined> {
  const query = ctx.db.select().from(activities).where(and(eq(activities.id, id), eq(activities.projectId, ctx.projectId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/**
 * Locks the subject's care plans in id order before anything else a completion touches (the activity,
 * parameters): the order every writer of parameters takes, so a response and a parameter change of
 * the same plan wait for each other instead of deadlocking.
 */
async function lockSubjectPlans(tx: ServiceContext, subjectId: number) {
  await tx.db.select({ id: careplans.id }).from(careplans).where(eq(careplans.subjectId, subjectId)).orderBy(asc(careplans.id)).for('update');
}

/**
 * Answers of mapped items that are new or changed become observations of the subject (value: the answer
 * as text, observedAt: authoredAt); the care plans then take them through the parameter code path.
 */
async function recordAnswers(tx: ServiceContext, response: ResponseRow, items: Item[], isNew: boolean): Promise<void> {
  const mapped = new Map(items.filter((i) => i.observationCodeId !== undefined).map((i) => [i.linkId, i.observationCodeId!]));
  const answered = response.answers.filter((a) => mapped.has(a.linkId));
  if (answered.length === 0) return;
  // A response created just now has made no observations yet.
  const earlier = isNew
    ? []
    : await tx.db
        .select({ linkId: responseObservations.linkId, observationId: observations.id, value: observations.value })
        .from(responseObservations)
        .innerJoin(observations, eq(observations.id, responseObservations.observationId))
        .where(eq(responseObservations.responseId, response.id));
  const changed = answered
    .map((a) => ({ linkId: a.linkId, value: answerText(a.value), before: earlier.find((e) => e.linkId === a.linkId) }))
    .filter((a) => a.before?.value !== a.value);
  if (changed.length === 0) return;
  const made = await tx.db
    .insert(observations)
    .values(changed.map((a) => ({ projectId: response.projectId, subjectId: response.subjectId, observationCodeId: mapped.get(a.linkId)!, value: a.value, observedAt: response.authoredAt })))
    .returning();
  await tx.db
    .insert(responseObservations)
    .values(changed.map((a, k) => ({ responseId: response.id, linkId: a.linkId, observationId: made[k]!.id })))
    .onConflictDoUpdate({ target: [responseObservations.responseId, responseObservations.linkId], set: { observationId: sql`excluded.observation_id` } });
  const feed: MadeObservation[] = changed.map((a, k) => ({ observation: made[k]!, replaces: a.before?.observationId ?? null }));
  await feedObservations(tx, response.subjectId, feed);
}

/** The latest version of an active questionnaire of the project (CONTRACT 9: 400 naming questionnaireId). */
async function answerableVersion(ctx: ServiceContext, questionnaireId: number) {
  const [row] = await ctx.db
    .select({ q: questionnaires, v: questionnaireVersions })
    .from(questionnaires)
    .innerJoin(questionnaireVersions, and(eq(questionnaireVersions.questionnaireId, questionnaires.id), eq(questionnaireVersions.version, questionnaires.latestVersion)))
    .where(and(eq(questionnaires.id, questionnaireId), eq(questionnaires.projectId, ctx.projectId)));
  if (!row) throw invalidField('questionnaireId', 'No questionnaire with this id in the project');
  if (row.q.status !== 'active') throw invalidField('questionnaireId', `The questionnaire is ${row.q.status}; only active questionnaires are answered`);
  return row.v;
}

/** POST /questionnaire-response: a draft or a completed response to the latest version (CONTRACT 9). */
export async function createResponse(ctx: ServiceContext, input: CreateResponseInput): Promise<ResponseDto> {
  requireMayAnswerFor(ctx, input.subjectId);
  const [version] = await allFieldErrors([answerableVersion(ctx, input.questionnaireId), requireMemberInProject(ctx, input.subjectId, 'subjectId')] as const);
  const items = version.items as Item[];
  const complete = isComplete(input.status);
  requireValidAnswers(items, input.answers, complete);
  if (input.activityId !== undefined) {
    const problem = activityProblem(await findActivity(ctx, input.activityId), input.subjectId, input.questionnaireId);
    if (problem) throw problem;
  }
  return emit(ctx, 'questionnaire_response_create', input, async (tx) => {
    // Completing an activity locks the subject's plans before the activity (see lockSubjectPlans); without
    // one, feeding the plans takes its own locks in the same order.
    if (complete && input.activityId !== undefined) await lockSubjectPlans(tx, input.subjectId);
    const activity = input.activityId !== undefined ? await findActivity(tx, input.activityId, true) : undefined;
    if (input.activityId !== undefined) {
      const problem = activityProblem(activity, input.subjectId, input.questionnaireId);
      if (problem) throw problem;
    }
    const now = tx.clock();
    const [row] = await tx.db
      .insert(questionnaireResponses)
      .values({
        projectId: ctx.projectId,
        questionnaireId: input.questionnaireId,
        versionId: version.id,
        questionnaireVersion: version.version,
        subjectId: input.subjectId,
        activityId: input.activityId ?? null,
        status: input.status,
        answers: inItemOrder(items, input.answers),
        authoredAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (complete) {
      if (activity) await completeActivityBy(tx, activity, { questionnaireResponseId: row!.id });
      await recordAnswers(tx, row!, items, true);
    }
    const dto = toResponseDto(row!);
    await audit(tx, { action: 'create', resource: 'questionnaire-response', resourceId: dto.id, after: dto });
    return dto;
  });
}

async function findResponse(ctx: ServiceContext, id: number, lock = false): Promise<ResponseRow> {
  const query = ctx.db.select().from(questionnaireResponses).where(and(eq(questionnaireResponses.id, id), visibleTo(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Questionnaire response');
  return row;
}

export async function getResponse(ctx: ServiceContext, id: number): Promise<ResponseDto> {
  return toResponseDto(await findResponse(ctx, id));
}

export async function listResponses(ctx: ServiceContext, query: ListResponsesQuery, page: Page = FIRST_PAGE): Promise<Paged<ResponseDto>> {
  const rows = await ctx.db
    .select()
    .from(questionnaireResponses)
    .where(
      and(
        visibleTo(ctx),
        gt(questionnaireResponses.id, page.afterId),
        query.questionnaireId ? eq(questionnaireResponses.questionnaireId, query.questionnaireId) : undefined,
        query.subjectId ? eq(questionnaireResponses.subjectId, query.subjectId) : undefined,
        query.activityId ? eq(questionnaireResponses.activityId, query.activityId) : undefined,
        query.status ? eq(questionnaireResponses.status, query.status) : undefined,
      ),
    )
    .orderBy(asc(questionnaireResponses.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toResponseDto);
}

/**
 * The status a PATCH leads to (CONTRACT 9): a draft stays a draft or is completed; a completed or
 * amended response never returns to in-progress (409), and becomes amended when its answers change.
 */
function nextStatus(current: ResponseRow, input: UpdateResponseInput, answersChanged: boolean): ResponseStatus {
  if (current.status === 'in-progress') {
    if (input.status === 'amended') throw conflict('Only a completed response is amended; complete the draft first', 'status');
    return input.status ?? 'in-progress';
  }
  if (input.status === 'in-progress') throw conflict(`The response is ${current.status}; it never returns to in-progress`, 'status');
  return answersChanged ? 'amended' : current.status;
}

async function versionItems(ctx: ServiceContext, versionId: number): Promise<Item[]> {
  const [v] = await ctx.db.select({ items: questionnaireVersions.items }).from(questionnaireVersions).where(eq(questionnaireVersions.id, versionId));
  return v!.items as Item[];
}

/** PATCH /questionnaire-response/<id>: answers are always validated against the response's own version. */
export async function updateResponse(ctx: ServiceContext, id: number, input: UpdateResponseInput): Promise<ResponseDto> {
  const current = await findResponse(ctx, id);
  requireMayAnswerFor(ctx, current.subjectId);
  const items = await versionItems(ctx, current.versionId);
  // Checked in the order given (so error paths name the caller's indexes), stored in item order.
  const given = input.answers ?? current.answers;
  const answers = inItemOrder(items, given);
  const check = (row: ResponseRow) => {
    const status = nextStatus(row, input, !sameAnswers(answers, row.answers));
    requireValidAnswers(items, given, isComplete(status));
    return status;
  };
  check(current);
  return emit(ctx, 'questionnaire_response_update', { id, ...input }, async (tx) => {
    const row = await findResponse(tx, id, true);
    const status = check(row);
    const completing = row.status === 'in-progress' && status === 'completed';
    const answersChanged = !sameAnswers(answers, row.answers);
    if (completing && row.activityId !== null) await lockSubjectPlans(tx, row.subjectId);
    let activity: ActivityRow | undefined;
    if (completing && row.activityId !== null) {
      activity = await findActivity(tx, row.activityId, true);
      if (activity?.status === 'completed' && activity.questionnaireResponseId !== null) throw conflict('A completed response already completed this activity', 'activityId');
      // An activity that expired or was cancelled meanwhile stays so; the late answers still count.
      if (activity && activity.status !== 'scheduled' && activity.status !== 'proposed') activity = undefined;
    }
    const now = tx.clock();
    const changed = answersChanged || status !== row.status;
    const [saved] = await tx.db
      .update(questionnaireResponses)
      .set({ answers, status, updatedAt: now, ...(changed ? { authoredAt: now } : {}) })
      .where(eq(questionnaireResponses.id, id))
      .returning();
    if (activity) await completeActivityBy(tx, activity, { questionnaireResponseId: id });
    if (isComplete(status) && (completing || answersChanged)) await recordAnswers(tx, saved!, items, false);
    const dto = toResponseDto(saved!);
    await audit(tx, { action: 'update', resource: 'questionnaire-response', resourceId: id, before: toResponseDto(row), after: dto });
    return dto;
  });
}

/**
 * A member answers the questionnaire of one of their activities (the /me form): the first save creates
 * the response (a draft, or completed at once), later saves change that draft. The same rules as
 * POST and PATCH apply, because this calls them.
 */
export async function answerActivity(ctx: ServiceContext, activityId: number, answers: Answer[], complete: boolean): Promise<ResponseDto> {
  if (ctx.actor.kind !== 'member') throw new AppError('forbidden', 'Only a member answers from their own page');
  const activity = await findActivity(ctx, activityId);
  if (!activity || activity.subjectId !== ctx.actor.memberId || activity.kind !== 'questionnaire' || activity.questionnaireId === null) throw notFound('Activity');
  const [draft] = await ctx.db
    .select({ id: questionnaireResponses.id })
    .from(questionnaireResponses)
    .where(and(eq(questionnaireResponses.activityId, activityId), eq(questionnaireResponses.subjectId, activity.subjectId), eq(questionnaireResponses.status, 'in-progress')))
    .orderBy(asc(questionnaireResponses.id))
    .limit(1);
  const status = complete ? 'completed' : 'in-progress';
  if (draft) return updateResponse(ctx, draft.id, { answers, status });
  return createResponse(ctx, { questionnaireId: activity.questionnaireId, subjectId: activity.subjectId, activityId, status, answers });
}

/** The member's saved draft for an activity, if any (to continue where they left off). */
export async function activityDraft(ctx: ServiceContext, activityId: number): Promise<ResponseDto | null> {
  const [row] = await ctx.db
    .select()
    .from(questionnaireResponses)
    .where(and(visibleTo(ctx), eq(questionnaireResponses.activityId, activityId), eq(questionnaireResponses.status, 'in-progress')))
    .orderBy(asc(questionnaireResponses.id))
    .limit(1);
  return row ? toResponseDto(row) : null;
}
