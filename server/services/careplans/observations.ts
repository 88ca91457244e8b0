import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { careplanDefinitionInputs, observationCodes, observations, questionnaires, questionnaireVersions } from '@/db/schema';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { conflict, invalidField, notFound, uniqueViolation } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { requireMemberInProject } from '@/server/services/members/members';
import { idOrSlugWhere, preferExactId, searchWhere } from '@/server/services/shared';
import { iso } from '@/server/core/time';
import { isCalendarDate } from '@/server/core/offsets';
import { type CreateObservationCodeInput, type CreateObservationInput, type ObservationCodeDto, type ObservationDto, type UpdateObservationCodeInput } from './schemas';

type CodeRow = typeof observationCodes.$inferSelect;
export const toCodeDto = (c: CodeRow): ObservationCodeDto => ({ id: c.id, slug: c.slug, display: c.display, type: c.type });
export const toObservationDto = (o: typeof observations.$inferSelect): ObservationDto => ({
  id: o.id,
  subjectId: o.subjectId,
  observationCodeId: o.observationCodeId,
  value: o.value,
  observedAt: iso(o.observedAt),
});

function slugTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('An observation code with this slug exists', 'slug');
  throw e;
}

export async function createObservationCode(ctx: ServiceContext, input: CreateObservationCodeInput): Promise<ObservationCodeDto> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.insert(observationCodes).values({ projectId: ctx.projectId, ...input }).returning().catch(slugTaken);
    const dto = toCodeDto(row!);
    await audit(tx, { action: 'create', resource: 'observation-code', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listObservationCodes(
  ctx: ServiceContext,
  page: Page = FIRST_PAGE,
  filter: { search?: string; type?: CodeRow['type'] } = {},
): Promise<Paged<ObservationCodeDto>> {
  requireReadEverything(ctx);
  const rows = await ctx.db
    .select()
    .from(observationCodes)
    .where(
      and(
        eq(observationCodes.projectId, ctx.projectId),
        gt(observationCodes.id, page.afterId),
        searchWhere(filter.search, observationCodes.slug, observationCodes.display),
        filter.type ? eq(observationCodes.type, filter.type) : undefined,
      ),
    )
    .orderBy(asc(observationCodes.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toCodeDto);
}

export async function findObservationCode(ctx: ServiceContext, idOrSlug: string): Promise<CodeRow> {
  const rows = await ctx.db
    .select()
    .from(observationCodes)
    .where(and(eq(observationCodes.projectId, ctx.projectId), idOrSlugWhere(observationCodes.id, observationCodes.slug, idOrSlug)));
  const row = preferExactId(rows, idOrSlug);
  if (!row) throw notFound('Observation code');
  return row;
}

export async function getObservationCode(ctx: ServiceContext, idOrSlug: string): Promise<ObservationCodeDto> {
  requireReadEverything(ctx);
  return toCodeDto(await findObservationCode(ctx, idOrSlug));
}

export async function updateObservationCode(ctx: ServiceContext, idOrSlug: string, input: UpdateObservationCodeInput): Promise<ObservationCodeDto> {
  requireAdmin(ctx);
  const code = await findObservationCode(ctx, idOrSlug);
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(observationCodes).where(eq(observationCodes.id, code.id)).for('update');
    const [row] = await tx.db
      .update(observationCodes)
      .set({ ...input, updatedAt: ctx.clock() })
      .where(eq(observationCodes.id, code.id))
      .returning()
      .catch(slugTaken);
    const dto = toCodeDto(row!);
    await audit(tx, { action: 'update', resource: 'observation-code', resourceId: code.id, before: toCodeDto(current!), after: dto });
    return dto;
  });
}

export async function deleteObservationCode(ctx: ServiceContext, idOrSlug: string): Promise<void> {
  requireAdmin(ctx);
  const code = await findObservationCode(ctx, idOrSlug);
  const [used] = await ctx.db.select({ id: careplanDefinitionInputs.id }).from(careplanDefinitionInputs).where(eq(careplanDefinitionInputs.observationCodeId, code.id)).limit(1);
  if (used) throw conflict('A care plan definition uses this code');
  const [mapped] = await ctx.db
    .select({ slug: questionnaires.slug })
    .from(questionnaireVersions)
    .innerJoin(questionnaires, eq(questionnaires.id, questionnaireVersions.questionnaireId))
    .where(and(eq(questionnaires.projectId, ctx.projectId), sql`${questionnaireVersions.items} @> ${JSON.stringify([{ observationCodeId: code.id }])}::jsonb`))
    .limit(1);
  if (mapped) throw conflict(`Questionnaire ${mapped.slug} records answers as this code`);
  const [observed] = await ctx.db.select({ id: observations.id }).from(observations).where(eq(observations.observationCodeId, code.id)).limit(1);
  if (observed) throw conflict('Observations of this code exist');
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.delete(observationCodes).where(eq(observationCodes.id, code.id)).returning();
    if (!row) throw notFound('Observation code');
    await audit(tx, { action: 'delete', resource: 'observation-code', resourceId: code.id, before: toCodeDto(row) });
  });
}

/** A value must suit its code's type: a real `YYYY-MM-DD` for dates, a number, true/false. */
export function checkObservationValue(type: CodeRow['type'], value: string, path: string): void {
  const ok =
    type === 'date' ? isCalendarDate(value) : type === 'number' ? /^-?\d+(\.\d+)?$/.test(value) : type === 'boolean' ? value === 'true' || value === 'false' : true;
  if (!ok) {
    const expected = { date: 'a calendar date YYYY-MM-DD', number: 'a number', boolean: 'true or false', string: 'text' }[type];
    throw invalidField(path, `Must be ${expected} for a ${type} code`);
  }
}

export async function codeInProject(ctx: ServiceContext, id: number, path: string): Promise<CodeRow> {
  const [code] = await ctx.db.select().from(observationCodes).where(and(eq(observationCodes.id, id), eq(observationCodes.projectId, ctx.projectId)));
  if (!code) throw invalidField(path, 'No observation code with this id in the project');
  return code;
}

export async function createObservation(ctx: ServiceContext, input: CreateObservationInput, paths = { value: 'value' }): Promise<ObservationDto> {
  requireAdmin(ctx);
  await requireMemberInProject(ctx, input.subjectId, 'subjectId');
  const code = await codeInProject(ctx, input.observationCodeId, 'observationCodeId');
  checkObservationValue(code.type, input.value, paths.value);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(observations)
      .values({ projectId: ctx.projectId, ...input, observedAt: new Date(input.observedAt) })
      .returning();
    const dto = toObservationDto(row!);
    await audit(tx, { action: 'create', resource: 'observation', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listObservations(ctx: ServiceContext, query: { subjectId?: number; observationCodeId?: number }, page: Page = FIRST_PAGE) {
  requireReadEverything(ctx);
  const where: SQL[] = [eq(observations.projectId, ctx.projectId), gt(observations.id, page.afterId)];
  if (query.subjectId) where.push(eq(observations.subjectId, query.subjectId));
  if (query.observationCodeId) where.push(eq(observations.observationCodeId, query.observationCodeId));
  const rows = await ctx.db.select().from(observations).where(and(...where)).orderBy(asc(observations.id)).limit(fetchSize(page));
  return toPaged(rows, page, toObservationDto);
}

export async function getObservation(ctx: ServiceContext, id: number): Promise<ObservationDto> {
  requireReadEverything(ctx);
  const [row] = await ctx.db.select().from(observations).where(and(eq(observations.id, id), eq(observations.projectId, ctx.projectId)));
  if (!row) throw notFound('Observation');
  return toObservationDto(row);
}

