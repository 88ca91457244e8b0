import { and, asc, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import {
  careplanDefinitionInputs,
  careplanDefinitions,
  careplanDefinitionVersions,
  careplans,
  observationCodes,
  type DefinitionAction,
} from '@/db/schema';
import { requireAdmin, requireReadEverything } from '@/server/auth/guards';
import { audit } from '@/server/audit/audit';
import type { ServiceContext } from '@/server/context';
import { conflict, invalidField, notFound, uniqueViolation } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { requireReferencesInProject } from '@/server/services/activities/references';
import { idOrSlugWhere, preferExactId, searchWhere } from '@/server/services/shared';
import { iso } from '@/server/core/time';
import { toCodeDto } from './observations';
import { type CreateDefinitionInput, type DefinitionDto, type UpdateDefinitionInput } from './schemas';

type DefinitionRow = typeof careplanDefinitions.$inferSelect;
type VersionRow = typeof careplanDefinitionVersions.$inferSelect;
export type Include = { inputs: boolean; observationCode: boolean };

function slugTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('A care plan definition with this slug exists', 'slug');
  throw e;
}

async function toDto(ctx: ServiceContext, d: DefinitionRow, v: VersionRow, include: Include): Promise<DefinitionDto> {
  const dto: DefinitionDto = {
    id: d.id,
    slug: d.slug,
    title: v.title,
    version: v.version,
    // Actions saved before kinds existed are tasks.
    actions: (v.actions as DefinitionDto['actions']).map((a) => ({ ...a, kind: a.kind ?? 'task' })),
    createdAt: iso(d.createdAt),
    updatedAt: iso(v.updatedAt > d.updatedAt ? v.updatedAt : d.updatedAt),
  };
  if (include.inputs || include.observationCode) {
    const rows = await ctx.db
      .select({ input: careplanDefinitionInputs, code: observationCodes })
      .from(careplanDefinitionInputs)
      .innerJoin(observationCodes, eq(observationCodes.id, careplanDefinitionInputs.observationCodeId))
      .where(eq(careplanDefinitionInputs.versionId, v.id))
      .orderBy(asc(careplanDefinitionInputs.id));
    dto.inputs = rows.map(({ input, code }) => ({
      id: input.id,
      key: input.key,
      observationCodeId: input.observationCodeId,
      ...(include.observationCode ? { observationCode: toCodeDto(code) } : {}),
    }));
  }
  return dto;
}

/** Inputs must name date codes of the project: only dates anchor a schedule. */
async function checkInputs(ctx: ServiceContext, inputs: { key: string; observationCodeId: number }[]) {
  if (inputs.length === 0) return;
  const ids = [...new Set(inputs.map((i) => i.observationCodeId))];
  const codes = await ctx.db
    .select()
    .from(observationCodes)
    .where(and(eq(observationCodes.projectId, ctx.projectId), inArray(observationCodes.id, ids)));
  inputs.forEach((input, i) => {
    const code = codes.find((c) => c.id === input.observationCodeId);
    if (!code) throw invalidField(`inputs.${i}.observationCodeId`, 'No observation code with this id in the project');
    if (code.type !== 'date') throw invalidField(`inputs.${i}.observationCodeId`, `Only date codes can anchor a schedule; ${code.slug} is a ${code.type} code`);
  });
}

async function insertVersion(ctx: ServiceContext, definitionId: number, version: number, body: { title: string; inputs: { key: string; observationCodeId: number }[]; actions: DefinitionAction[] }) {
  const [row] = await ctx.db.insert(careplanDefinitionVersions).values({ definitionId, version, title: body.title, actions: body.actions }).returning();
  if (body.inputs.length > 0) {
    await ctx.db.insert(careplanDefinitionInputs).values(body.inputs.map((i) => ({ versionId: row!.id, key: i.key, observationCodeId: i.observationCodeId })));
  }
  return row!;
}

export async function createDefinition(ctx: ServiceContext, input: CreateDefinitionInput, include: Include = { inputs: true, observationCode: false }): Promise<DefinitionDto> {
  requireAdmin(ctx);
  await checkInputs(ctx, input.inputs);
  await requireReferencesInProject(ctx, input.actions, (i) => `actions.${i}.`);
  return emit(ctx, 'careplan_definition_create', input, async (tx) => {
    const [d] = await tx.db.insert(careplanDefinitions).values({ projectId: ctx.projectId, slug: input.slug, latestVersion: 1 }).returning().catch(slugTaken);
    const v = await insertVersion(tx, d!.id, 1, input as CreateDefinitionInput & { actions: DefinitionAction[] });
    const dto = await toDto(tx, d!, v, include);
    await audit(tx, { action: 'create', resource: 'careplan-definition', resourceId: d!.id, after: auditView(dto, input.inputs) });
    return dto;
  });
}

/** `<id>` or `<slug>` in a path (slugs may start with a digit; an all-digit one is taken as an id first). */
export async function findDefinition(ctx: ServiceContext, idOrSlug: string | number): Promise<DefinitionRow> {
  const text = String(idOrSlug);
  const rows = await ctx.db
    .select()
    .from(careplanDefinitions)
    .where(and(eq(careplanDefinitions.projectId, ctx.projectId), idOrSlugWhere(careplanDefinitions.id, careplanDefinitions.slug, text)));
  const row = preferExactId(rows, text);
  if (!row) throw notFound('Care plan definition');
  return row;
}

export async function findVersion(ctx: ServiceContext, definitionId: number, version: number): Promise<VersionRow> {
  const [row] = await ctx.db
    .select()
    .from(careplanDefinitionVersions)
    .where(and(eq(careplanDefinitionVersions.definitionId, definitionId), eq(careplanDefinitionVersions.version, version)));
  if (!row) throw notFound(`Version ${version}`);
  return row;
}

export async function getDefinition(ctx: ServiceContext, idOrSlug: string, include: Include, version?: number): Promise<DefinitionDto> {
  requireReadEverything(ctx);
  const d = await findDefinition(ctx, idOrSlug);
  return toDto(ctx, d, await findVersion(ctx, d.id, version ?? d.latestVersion), include);
}

export async function listDefinitions(ctx: ServiceContext, query: { slug?: string; id?: number; search?: string }, include: Include, page: Page = FIRST_PAGE): Promise<Paged<DefinitionDto>> {
  requireReadEverything(ctx);
  const where: SQL[] = [eq(careplanDefinitions.projectId, ctx.projectId), gt(careplanDefinitions.id, page.afterId)];
  if (query.slug) where.push(eq(careplanDefinitions.slug, query.slug));
  if (query.id) where.push(eq(careplanDefinitions.id, query.id));
  const search = searchWhere(query.search, careplanDefinitions.slug, careplanDefinitionVersions.title);
  if (search) where.push(search);
  const rows = await ctx.db
    .select({ d: careplanDefinitions, v: careplanDefinitionVersions })
    .from(careplanDefinitions)
    .innerJoin(
      careplanDefinitionVersions,
      and(eq(careplanDefinitionVersions.definitionId, careplanDefinitions.id), eq(careplanDefinitionVersions.version, careplanDefinitions.latestVersion)),
    )
    .where(and(...where))
    .orderBy(asc(careplanDefinitions.id))
    .limit(fetchSize(page));
  const paged = toPaged(rows.map((r) => ({ ...r, id: r.d.id })), page);
  return { items: await Promise.all(paged.items.map(({ d, v }) => toDto(ctx, d, v, include))), next: paged.next };
}

/** Every version of a template, newest first, with how many care plans use each. */
export async function listDefinitionVersions(ctx: ServiceContext, idOrSlug: string) {
  requireReadEverything(ctx);
  const d = await findDefinition(ctx, idOrSlug);
  const versions = await ctx.db.select().from(careplanDefinitionVersions).where(eq(careplanDefinitionVersions.definitionId, d.id)).orderBy(desc(careplanDefinitionVersions.version));
  const used = await ctx.db.select({ versionId: careplans.versionId }).from(careplans).where(eq(careplans.definitionId, d.id));
  return versions.map((v) => ({ version: v.version, title: v.title, createdAt: iso(v.createdAt), updatedAt: iso(v.updatedAt), careplans: used.filter((u) => u.versionId === v.id).length }));
}

/**
 * "Save changes": edits the latest version in place while no care plan uses it; otherwise (or with
 * `newVersion: true`) saves version+1. Versions that care plans use never change.
 */
export async function updateDefinition(ctx: ServiceContext, idOrSlug: string, input: UpdateDefinitionInput, include: Include = { inputs: true, observationCode: false }): Promise<DefinitionDto> {
  requireAdmin(ctx);
  const d = await findDefinition(ctx, idOrSlug);
  const latest = await findVersion(ctx, d.id, d.latestVersion);
  const currentInputs = await ctx.db.select().from(careplanDefinitionInputs).where(eq(careplanDefinitionInputs.versionId, latest.id)).orderBy(asc(careplanDefinitionInputs.id));
  const inputs = input.inputs ?? currentInputs.map((i) => ({ key: i.key, observationCodeId: i.observationCodeId }));
  const actions = (input.actions ?? latest.actions) as DefinitionAction[];
  const keys = new Set(inputs.map((i) => i.key));
  actions.forEach((a, i) => {
    if (a.inputKey && !keys.has(a.inputKey)) throw invalidField(`actions.${i}.inputKey`, `No input with key ${a.inputKey}`);
  });
  if (input.inputs) await checkInputs(ctx, inputs);
  if (input.actions) await requireReferencesInProject(ctx, input.actions, (i) => `actions.${i}.`);
  const { newVersion, ...params } = input;
  const beforeView = { slug: d.slug, title: latest.title, version: latest.version, inputs: currentInputs.map((i) => ({ key: i.key, observationCodeId: i.observationCodeId })), actions: (latest.actions as DefinitionAction[]).map((a) => ({ ...a, kind: a.kind ?? 'task' })) };
  return emit(ctx, 'careplan_definition_update', { id: d.id, ...params, ...(newVersion !== undefined ? { newVersion } : {}) }, async (tx) => {
    // Saves of one template take turns, so the version each writes and the trail's `before` hold.
    await tx.db.select({ id: careplanDefinitions.id }).from(careplanDefinitions).where(eq(careplanDefinitions.id, d.id)).for('update');
    const [inUse] = await tx.db.select({ id: careplans.id }).from(careplans).where(eq(careplans.versionId, latest.id)).limit(1);
    const body = { title: input.title ?? latest.title, inputs, actions };
    let version: VersionRow;
    if (newVersion || inUse) {
      version = await insertVersion(tx, d.id, d.latestVersion + 1, body);
    } else {
      [version] = (await tx.db
        .update(careplanDefinitionVersions)
        .set({ title: body.title, actions: body.actions, updatedAt: ctx.clock() })
        .where(eq(careplanDefinitionVersions.id, latest.id))
        .returning()) as [VersionRow];
      if (input.inputs) {
        await tx.db.delete(careplanDefinitionInputs).where(eq(careplanDefinitionInputs.versionId, latest.id));
        if (inputs.length > 0) await tx.db.insert(careplanDefinitionInputs).values(inputs.map((i) => ({ versionId: latest.id, key: i.key, observationCodeId: i.observationCodeId })));
      }
    }
    const [saved] = await tx.db
      .update(careplanDefinitions)
      .set({ latestVersion: version.version, updatedAt: ctx.clock(), ...(input.slug ? { slug: input.slug } : {}) })
      .where(eq(careplanDefinitions.id, d.id))
      .returning()
      .catch(slugTaken);
    const dto = await toDto(tx, saved!, version, include);
    await audit(tx, { action: 'update', resource: 'careplan-definition', resourceId: d.id, before: beforeView, after: auditView(dto, inputs) });
    return dto;
  });
}

/** What the trail keeps of a template: its slug, title, version, inputs (by key and code) and actions. */
function auditView(dto: DefinitionDto, inputs: { key: string; observationCodeId: number }[]) {
  return { slug: dto.slug, title: dto.title, version: dto.version, inputs: inputs.map((i) => ({ key: i.key, observationCodeId: i.observationCodeId })), actions: dto.actions };
}

/**
 * The slug of a definition whose latest version has an action naming this article or questionnaire
 * (deleting those is refused while one does), or undefined.
 */
export async function definitionNaming(ctx: ServiceContext, field: 'articleId' | 'questionnaireId', id: number): Promise<string | undefined> {
  const [row] = await ctx.db
    .select({ slug: careplanDefinitions.slug })
    .from(careplanDefinitions)
    .innerJoin(
      careplanDefinitionVersions,
      and(eq(careplanDefinitionVersions.definitionId, careplanDefinitions.id), eq(careplanDefinitionVersions.version, careplanDefinitions.latestVersion)),
    )
    .where(and(eq(careplanDefinitions.projectId, ctx.projectId), sql`${careplanDefinitionVersions.actions} @> ${JSON.stringify([{ [field]: id }])}::jsonb`))
    .limit(1);
  return row?.slug;
}

/** 409 while ongoing care plans use it; finished care plans of it are deleted with it. */
export async function deleteDefinition(ctx: ServiceContext, idOrSlug: string): Promise<DefinitionDto> {
  requireAdmin(ctx);
  const d = await findDefinition(ctx, idOrSlug);
  const [ongoing] = await ctx.db
    .select({ id: careplans.id })
    .from(careplans)
    .where(and(eq(careplans.definitionId, d.id), eq(careplans.status, 'ongoing')))
    .limit(1);
  if (ongoing) throw conflict('Ongoing care plans use this definition');
  const dto = await toDto(ctx, d, await findVersion(ctx, d.id, d.latestVersion), { inputs: true, observationCode: false });
  return emit(ctx, 'careplan_definition_delete', { id: d.id }, async (tx) => {
    await tx.db.delete(careplans).where(eq(careplans.definitionId, d.id));
    await tx.db.delete(careplanDefinitions).where(eq(careplanDefinitions.id, d.id));
    await audit(tx, { action: 'delete', resource: 'careplan-definition', resourceId: d.id, before: auditView(dto, dto.inputs ?? []) });
    return dto;
  });
}
