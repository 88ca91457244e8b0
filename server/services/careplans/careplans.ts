import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import {
  activities,
  careplanDefinitionInputs,
  careplanDefinitions,
  careplanDefinitionVersions,
  careplanParameters,
  careplans,
  members,
  observations,
  projects,
  type DefinitionAction } from '@/db/schema';
import type { Queryable } from '@/db/client';
import { insertPlaceholders, statement } from '@/db/statements';
import { requireCareManager, requireReadEverything } from '@/server/auth/guards';
import { toActivityDto } from '@/server/services/activities/dto';
import { cancelOpenActivities, createActivities } from '@/server/services/activities/plan';
import { audit } from '@/server/audit/audit';
import type { ServiceContext } from '@/server/context';
import { conflict, invalidField, notFound } from '@/server/errors';
import { emit } from '@/server/events/emit';
import { FIRST_PAGE, fetchSize, toPaged, type Page } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { toObservationDto } from './observations';
import { type CareplanDto, type CreateCareplanInput, type UpdateCareplanInput } from './schemas';


type CareplanRow = typeof careplans.$inferSelect;
export type CareplanInclude = { parameters: boolean; observation: boolean; activities: boolean };

export async function careplanDto(ctx: ServiceContext, c: CareplanRow, include: CareplanInclude, knownSlug?: string): Promise<CareplanDto> {
  const slug = knownSlug ?? (await ctx.db.select({ slug: careplanDefinitions.slug }).from(careplanDefinitions).where(eq(careplanDefinitions.id, c.definitionId)))[0]?.slug ?? '';
  const dto: CareplanDto = {
    id: c.id,
    definitionId: c.definitionId,
    subjectId: c.subjectId,
    title: c.title,
    version: c.version,
    slug,
    status: c.status,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
  if (include.parameters || include.observation) {
    const rows = await ctx.db
      .select({ p: careplanParameters, o: observations })
      .from(careplanParameters)
      .leftJoin(observations, eq(observations.id, careplanParameters.observationId))
      .where(eq(careplanParameters.careplanId, c.id))
      .orderBy(asc(careplanParameters.id));
    dto.parameters = rows.map(({ p, o }) => ({
      id: p.id,
      careplanId: p.careplanId,
      inputId: p.inputId,
      observationId: p.observationId,
      ...(include.observation ? { observation: o ? toObservationDto(o) : null } : {}),
    }));
  }
  if (include.activities) {
    const rows = await ctx.db.select().from(activities).where(eq(activities.careplanId, c.id)).orderBy(asc(activities.activateAt), asc(activities.id));
    dto.activities = rows.map(toActivityDto);
  }
  return dto;
}

export async function findCareplan(ctx: ServiceContext, id: number): Promise<CareplanRow> {
  const [row] = await ctx.db.select().from(careplans).where(and(eq(careplans.id, id), eq(careplans.projectId, ctx.projectId)));
  if (!row) throw notFound('Care plan');
  return row;
}

const P = sql.placeholder;

/**
 * An enrolment's first read, built once per way of naming the definition (db/statements): the definition,
 * its latest version with its inputs, the project's time zone and whether the subject is a member of it.
 */
const findDefinition = statement((db: Queryable, by: 'id' | 'slug') =>
  db
    .select({
      definition: careplanDefinitions,
      version: careplanDefinitionVersions,
      timeZone: projects.timeZone,
      inputIds: sql<number[]>`array(select ${careplanDefinitionInputs.id} from ${careplanDefinitionInputs} where ${careplanDefinitionInputs.versionId} = ${careplanDefinitionVersions.id} order by ${careplanDefinitionInputs.id})`,
      subjectFound: sql<boolean>`exists(select 1 from ${members} where ${members.id} = ${P('subjectId')} and ${members.projectId} = ${P('projectId')})`,
    })
    .from(careplanDefinitions)
    .innerJoin(
      careplanDefinitionVersions,
      and(eq(careplanDefinitionVersions.definitionId, careplanDefinitions.id), eq(careplanDefinitionVersions.version, careplanDefinitions.latestVersion)),
    )
    .innerJoin(projects, eq(projects.id, careplanDefinitions.projectId))
    .where(and(eq(careplanDefinitions.projectId, P('projectId')), by === 'id' ? eq(careplanDefinitions.id, P('definition')) : eq(careplanDefinitions.slug, P('definition'))))
    .prepare(`careplan_definition_by_${by}`),
);

const ENROLLED = ['projectId', 'definitionId', 'versionId', 'version', 'subjectId', 'title', 'createdAt', 'updatedAt'] as const satisfies readonly (keyof typeof careplans.$inferInsert)[];
const insertCareplan = statement((db: Queryable, _: 'one') =>
  db
    .insert(careplans)
    .values(insertPlaceholders<typeof careplans>(ENROLLED))
    .returning()
    .prepare('careplan_insert'),
);

/** One empty parameter per input, built once per number of inputs. */
const insertParameters = statement((db: Queryable, n: number) =>
  db
    .insert(careplanParameters)
    .values(Array.from({ length: n }, (_, i) => insertPlaceholders<typeof careplanParameters>(['careplanId', 'inputId'], i)))
    .returning()
    .prepare(`careplan_parameter_insert_${n}`),
);

/**
 * Enrolment: pins the definition's latest version, creates one empty parameter per input and the
 * activities that need no input (anchored on the care plan's start). Emits careplan_create.
 */
export async function createCareplan(ctx: ServiceContext, input: CreateCareplanInput): Promise<CareplanDto> {
  requireCareManager(ctx);
  // One round trip for the definition, its latest version with its inputs, the project's time zone and
  // whether the subject is a member of the project.
  const byId = input.definitionId !== undefined;
  const [found] = await findDefinition.run(ctx.db, byId ? 'id' : 'slug', {
    projectId: ctx.projectId,
    subjectId: input.subjectId,
    definition: byId ? input.definitionId! : input.definitionSlug!,
  });
  if (!found) {
    throw invalidField(byId ? 'definitionId' : 'definitionSlug', 'No care plan definition with this id or slug in the project');
  }
  const { definition, version, timeZone, inputIds, subjectFound } = found;
  if (byId && input.definitionSlug !== undefined && definition.slug !== input.definitionSlug) {
    throw invalidField('definitionSlug', 'definitionId and definitionSlug name different definitions');
  }
  if (!subjectFound) throw invalidField('subjectId', 'No member with this id in the project');
  return emit(
    ctx,
    'careplan_create',
    input,
    async (tx) => {
      const [c] = await insertCareplan.run(tx.db, 'one', {
        projectId: ctx.projectId,
        definitionId: definition.id,
        versionId: version.id,
        version: version.version,
        subjectId: input.subjectId,
        title: input.title ?? version.title,
        createdAt: ctx.clock(),
        updatedAt: ctx.clock(),
      });
      const parameters = inputIds.length > 0 ? await insertParameters.run(tx.db, inputIds.length, inputIds.map((inputId) => ({ careplanId: c!.id, inputId: Number(inputId) }))) : [];
      const unanchored = (version.actions as DefinitionAction[]).filter((a) => !a.inputKey);
      const created = await createActivities(tx, c!, unanchored, c!.createdAt, null, timeZone);
      const dto = await careplanDto(tx, c!, { parameters: false, observation: false, activities: false }, definition.slug);
      await audit(tx, { action: 'create', resource: 'careplan', resourceId: dto.id, after: dto });
      return {
        ...dto,
        parameters: parameters.map((p) => ({ id: p.id, careplanId: p.careplanId, inputId: p.inputId, observationId: p.observationId })),
        activities: created.map(toActivityDto),
      };
    },
    // The activities it creates are recorded as activity_create: their webhooks come with careplan_create's.
    { consequences: ['activity_create'] },
  );
}

export async function getCareplan(ctx: ServiceContext, id: number, include: CareplanInclude): Promise<CareplanDto> {
  requireReadEverything(ctx);
  return careplanDto(ctx, await findCareplan(ctx, id), include);
}

export async function listCareplans(ctx: ServiceContext, query: { subjectId?: number; definitionId?: number; status?: CareplanRow['status'] }, page: Page = FIRST_PAGE) {
  requireReadEverything(ctx);
  const where: SQL[] = [eq(careplans.projectId, ctx.projectId), gt(careplans.id, page.afterId)];
  if (query.subjectId) where.push(eq(careplans.subjectId, query.subjectId));
  if (query.definitionId) where.push(eq(careplans.definitionId, query.definitionId));
  if (query.status) where.push(eq(careplans.status, query.status));
  const rows = await ctx.db
    .select({ c: careplans, slug: careplanDefinitions.slug })
    .from(careplans)
    .innerJoin(careplanDefinitions, eq(careplanDefinitions.id, careplans.definitionId))
    .where(and(...where))
    .orderBy(asc(careplans.id))
    .limit(fetchSize(page));
  const paged = toPaged(rows.map((r) => ({ ...r, id: r.c.id })), page);
  return { items: await Promise.all(paged.items.map(({ c, slug }) => careplanDto(ctx, c, { parameters: false, observation: false, activities: false }, slug))), next: paged.next };
}

export async function updateCareplan(ctx: ServiceContext, id: number, input: UpdateCareplanInput): Promise<CareplanDto> {
  requireCareManager(ctx);
  const current = await findCareplan(ctx, id);
  if (input.status !== undefined && input.status !== current.status && current.status !== 'ongoing') {
    throw conflict(`The care plan is ${current.status}; its status cannot change`, 'status');
  }
  return emit(ctx, 'careplan_update', { id, ...input }, async (tx) => {
    const [locked] = await tx.db.select().from(careplans).where(eq(careplans.id, id)).for('update');
    if (!locked) throw notFound('Care plan');
    if (input.status !== undefined && input.status !== locked.status && locked.status !== 'ongoing') {
      throw conflict(`The care plan is ${locked.status}; its status cannot change`, 'status');
    }
    const [row] = await tx.db
      .update(careplans)
      .set({ ...input, updatedAt: ctx.clock() })
      .where(eq(careplans.id, id))
      .returning();
    if (locked.status === 'ongoing' && input.status && input.status !== 'ongoing') await cancelOpenActivities(tx, eq(activities.careplanId, id));
    const dto = await careplanDto(tx, row!, { parameters: false, observation: false, activities: false });
    await audit(tx, { action: 'update', resource: 'careplan', resourceId: id, before: { title: locked.title, status: locked.status }, after: { title: dto.title, status: dto.status } });
    return dto;
  });
}

export async function deleteCareplan(ctx: ServiceContext, id: number): Promise<CareplanDto> {
  requireCareManager(ctx);
  const current = await findCareplan(ctx, id);
  const dto = await careplanDto(ctx, current, { parameters: false, observation: false, activities: false });
  return emit(ctx, 'careplan_delete', { id }, async (tx) => {
    const [row] = await tx.db.delete(careplans).where(eq(careplans.id, id)).returning({ id: careplans.id });
    if (!row) throw notFound('Care plan');
    await audit(tx, { action: 'delete', resource: 'careplan', resourceId: id, before: dto });
    return dto;
  });
}

