import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { observationCodes, questionnaireResponses, questionnaires, questionnaireVersions, type QuestionnaireItemRow } from '@/db/schema';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { conflict, foreignKeyViolation, invalid, notFound, uniqueViolation, type FieldError } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { definitionNaming } from '@/server/services/careplans/definitions';
import { idOrSlugWhere, preferExactId, searchWhere } from '@/server/services/shared';
import { codeTypeFor, type Item } from './rules';
import { type CreateQuestionnaireInput, type QuestionnaireDto, type QuestionnaireStatus, type UpdateQuestionnaireInput } from './schemas';

type QuestionnaireRow = typeof questionnaires.$inferSelect;
type VersionRow = typeof questionnaireVersions.$inferSelect;

export const toQuestionnaireDto = (q: QuestionnaireRow, v: VersionRow): QuestionnaireDto => ({
  id: q.id,
  slug: q.slug,
  title: v.title,
  description: v.description,
  status: q.status,
  version: v.version,
  items: v.items as Item[],
  createdAt: iso(q.createdAt),
  updatedAt: iso(v.updatedAt > q.updatedAt ? v.updatedAt : q.updatedAt),
});

function slugTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('A questionnaire with this slug exists', 'slug');
  throw e;
}

/** Staff and integrations read every questionnaire; a member token only active ones (the rest are 404). */
function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(questionnaires.projectId, ctx.projectId), eq(questionnaires.status, 'active'))!;
  requireReadEverything(ctx);
  return eq(questionnaires.projectId, ctx.projectId);
}

/** A mapped item names a code of the project whose type fits the item (CONTRACT 9, 400 at the field). */
async function checkCodes(ctx: ServiceContext, items: Item[]): Promise<void> {
  const ids = [...new Set(items.flatMap((i) => (i.observationCodeId ? [i.observationCodeId] : [])))];
  if (ids.length === 0) return;
  const codes = await ctx.db
    .select()
    .from(observationCodes)
    .where(and(eq(observationCodes.projectId, ctx.projectId), inArray(observationCodes.id, ids)));
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (!item.observationCodeId) return;
    const code = codes.find((c) => c.id === item.observationCodeId);
    const fits = codeTypeFor(item);
    const path = `items.${i}.observationCodeId`;
    if (!code) errors.push({ path, message: 'No observation code with this id in the project' });
    else if (fits !== code.type) errors.push({ path, message: `${code.slug} is a ${code.type} code; a ${item.type} item is recorded as a ${fits ?? 'no'} code` });
  });
  if (errors.length > 0) throw invalid(errors);
}

/** Items as stored: exactly the fields given, so a version reads back as it was saved. */
const stored = (items: Item[]): QuestionnaireItemRow[] => items.map((item) => JSON.parse(JSON.stringify(item)) as QuestionnaireItemRow);

export async function createQuestionnaire(ctx: ServiceContext, input: CreateQuestionnaireInput): Promise<QuestionnaireDto> {
  requireAdmin(ctx);
  await checkCodes(ctx, input.items);
  return emit(ctx, 'questionnaire_create', input, async (tx) => {
    const now = tx.clock();
    const [q] = await tx.db.insert(questionnaires).values({ projectId: ctx.projectId, slug: input.slug, status: input.status, createdAt: now, updatedAt: now }).returning().catch(slugTaken);
    const [v] = await tx.db
      .insert(questionnaireVersions)
      .values({ questionnaireId: q!.id, version: 1, title: input.title, description: input.description ?? null, items: stored(input.items), createdAt: now, updatedAt: now })
      .returning();
    const dto = toQuestionnaireDto(q!, v!);
    await audit(tx, { action: 'create', resource: 'questionnaire', resourceId: dto.id, after: dto });
    return dto;
  });
}

/** `<id>` or `<slug>` in a path, among the questionnaires the actor may read. */
export async function findQuestionnaire(ctx: ServiceContext, idOrSlug: string): Promise<QuestionnaireRow> {
  const rows = await ctx.db.select().from(questionnaires).where(and(visibleTo(ctx), idOrSlugWhere(questionnaires.id, questionnaires.slug, idOrSlug)));
  const row = preferExactId(rows, idOrSlug);
  if (!row) throw notFound('Questionnaire');
  return row;
}

async function findVersion(ctx: ServiceContext, questionnaireId: number, version: number): Promise<VersionRow> {
  const [row] = await ctx.db
    .select()
    .from(questionnaireVersions)
    .where(and(eq(questionnaireVersions.questionnaireId, questionnaireId), eq(questionnaireVersions.version, version)));
  if (!row) throw notFound(`Version ${version}`);
  return row;
}

export async function getQuestionnaire(ctx: ServiceContext, idOrSlug: string, version?: number): Promise<QuestionnaireDto> {
  const q = await findQuestionnaire(ctx, idOrSlug);
  return toQuestionnaireDto(q, await findVersion(ctx, q.id, version ?? q.latestVersion));
}

export async function listQuestionnaires(
  ctx: ServiceContext,
  query: { slug?: string; status?: QuestionnaireStatus; search?: string },
  page: Page = FIRST_PAGE,
): Promise<Paged<QuestionnaireDto>> {
  const rows = await ctx.db
    .select({ q: questionnaires, v: questionnaireVersions })
    .from(questionnaires)
    .innerJoin(questionnaireVersions, and(eq(questionnaireVersions.questionnaireId, questionnaires.id), eq(questionnaireVersions.version, questionnaires.latestVersion)))
    .where(
      and(
        visibleTo(ctx),
        gt(questionnaires.id, page.afterId),
        query.slug ? eq(questionnaires.slug, query.slug) : undefined,
        query.status ? eq(questionnaires.status, query.status) : undefined,
        searchWhere(query.search, questionnaires.slug, questionnaireVersions.title),
      ),
    )
    .orderBy(asc(questionnaires.id))
    .limit(fetchSize(page));
  return toPaged(rows.map((r) => ({ ...r, id: r.q.id })), page, ({ q, v }) => toQuestionnaireDto(q, v));
}

/** Titles of the given questionnaires, for labelling rows that carry a questionnaireId (one page of them). */
export async function questionnaireTitles(ctx: ServiceContext, ids: number[]): Promise<{ id: number; slug: string; title: string }[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ id: questionnaires.id, slug: questionnaires.slug, title: questionnaireVersions.title })
    .from(questionnaires)
    .innerJoin(questionnaireVersions, and(eq(questionnaireVersions.questionnaireId, questionnaires.id), eq(questionnaireVersions.version, questionnaires.latestVersion)))
    .where(and(visibleTo(ctx), inArray(questionnaires.id, [...new Set(ids)])));
  return rows;
}

/** Every version, newest first, with how many responses answer each. */
export async function listQuestionnaireVersions(ctx: ServiceContext, idOrSlug: string) {
  requireReadEverything(ctx);
  const q = await findQuestionnaire(ctx, idOrSlug);
  const rows = await ctx.db
    .select({ v: questionnaireVersions, responses: sql<number>`(select count(*)::int from ${questionnaireResponses} where ${questionnaireResponses.versionId} = ${questionnaireVersions.id})` })
    .from(questionnaireVersions)
    .where(eq(questionnaireVersions.questionnaireId, q.id))
    .orderBy(desc(questionnaireVersions.version));
  return rows.map(({ v, responses }) => ({ version: v.version, title: v.title, items: (v.items as Item[]).length, createdAt: iso(v.createdAt), updatedAt: iso(v.updatedAt), responses }));
}

/**
 * "Save changes", as for templates: the latest version is edited in place while no response answers
 * it; otherwise (or with `newVersion`) version+1 is saved. Versions that responses answer never change,
 * and a change of status alone never makes a version (CONTRACT 9).
 */
export async function updateQuestionnaire(ctx: ServiceContext, idOrSlug: string, input: UpdateQuestionnaireInput): Promise<QuestionnaireDto> {
  requireAdmin(ctx);
  const q = await findQuestionnaire(ctx, idOrSlug);
  if (input.items) await checkCodes(ctx, input.items);
  const { newVersion, ...changes } = input;
  const content = input.title !== undefined || input.description !== undefined || input.items !== undefined;
  return emit(ctx, 'questionnaire_update', { id: q.id, ...changes, ...(newVersion !== undefined ? { newVersion } : {}) }, async (tx) => {
    // Locked: two saves of one questionnaire must not both decide to edit (or add) the same version.
    const [current] = await tx.db.select().from(questionnaires).where(eq(questionnaires.id, q.id)).for('update');
    if (!current) throw notFound('Questionnaire');
    const latest = await findVersion(tx, q.id, current.latestVersion);
    const [answered] = await tx.db.select({ id: questionnaireResponses.id }).from(questionnaireResponses).where(eq(questionnaireResponses.versionId, latest.id)).limit(1);
    const makesVersion = content ? Boolean(answered) || newVersion === true : newVersion === true && input.status === undefined;
    const now = tx.clock();
    const body = {
      title: input.title ?? latest.title,
      description: input.description !== undefined ? input.description : latest.description,
      items: input.items ? stored(input.items) : latest.items,
    };
    let version = latest;
    if (makesVersion) {
      [version] = (await tx.db.insert(questionnaireVersions).values({ questionnaireId: q.id, version: latest.version + 1, ...body, createdAt: now, updatedAt: now }).returning()) as [VersionRow];
    } else if (content) {
      [version] = (await tx.db.update(questionnaireVersions).set({ ...body, updatedAt: now }).where(eq(questionnaireVersions.id, latest.id)).returning()) as [VersionRow];
    }
    const [saved] = await tx.db
      .update(questionnaires)
      .set({ latestVersion: version.version, updatedAt: now, ...(input.slug ? { slug: input.slug } : {}), ...(input.status ? { status: input.status } : {}) })
      .where(eq(questionnaires.id, q.id))
      .returning()
      .catch(slugTaken);
    const dto = toQuestionnaireDto(saved!, version);
    await audit(tx, { action: 'update', resource: 'questionnaire', resourceId: q.id, before: toQuestionnaireDto(current, latest), after: dto });
    return dto;
  });
}

/** 409 while responses answer it or a template's latest version names it (CONTRACT 9; no event). */
export async function deleteQuestionnaire(ctx: ServiceContext, idOrSlug: string): Promise<void> {
  requireAdmin(ctx);
  const q = await findQuestionnaire(ctx, idOrSlug);
  const [answered] = await ctx.db.select({ id: questionnaireResponses.id }).from(questionnaireResponses).where(eq(questionnaireResponses.questionnaireId, q.id)).limit(1);
  if (answered) throw conflict('Responses answer this questionnaire; retire it instead');
  const definition = await definitionNaming(ctx, 'questionnaireId', q.id);
  if (definition) throw conflict(`The latest version of template ${definition} names this questionnaire`);
  const before = await getQuestionnaire(ctx, String(q.id));
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .delete(questionnaires)
      .where(eq(questionnaires.id, q.id))
      .catch((e: unknown) => {
        // A response that arrived since the check holds it (the foreign key restricts).
        if (foreignKeyViolation(e)) throw conflict('Responses answer this questionnaire; retire it instead');
        throw e;
      });
    await audit(tx, { action: 'delete', resource: 'questionnaire', resourceId: q.id, before });
  });
}
