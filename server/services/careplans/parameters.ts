import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  activities,
  careplanDefinitionInputs,
  careplanDefinitionVersions,
  careplanParameters,
  careplans,
  observationCodes,
  observations,
  projects,
  type DefinitionAction } from '@/db/schema';
import type { Queryable } from '@/db/client';
import { insertPlaceholders, statement, valuePlaceholder } from '@/db/statements';
import { audit } from '@/server/audit/audit';
import type { EventName } from '@/server/core/event-names';
import { hooksJson, rememberHooks } from '@/server/events/emit';
import { withTransaction, type ServiceContext } from '@/server/context';
import { invalidField, notFound } from '@/server/errors';
import { cancelOpenActivities, createActivities, moveActivities, type ActivityMove } from '@/server/services/activities/plan';
import { requireCareManager } from '@/server/auth/guards';
import { checkObservationValue, toObservationDto } from './observations';
import { startOfDateIn } from '@/server/core/offsets';
import { nextDueAt, pendingReminderAt } from '@/server/services/activities/lifecycle';
import { scheduleAction } from '@/server/services/activities/schedule';
import { type ParameterDto, type PatchParameterInput, type SetParameterInput } from './schemas';

type Careplan = typeof careplans.$inferSelect;
type Input = typeof careplanDefinitionInputs.$inferSelect;
type Parameter = typeof careplanParameters.$inferSelect;
type Observation = typeof observations.$inferSelect;
type ObservationValue = { value: string; observedAt: string };

const P = sql.placeholder;

// The statements a date change runs every time, built once (db/statements).
const insertObservation = statement((db: Queryable, _: 'one') =>
  db
    .insert(observations)
    .values(insertPlaceholders<typeof observations>(['projectId', 'subjectId', 'observationCodeId', 'value', 'observedAt']))
    .returning()
    .prepare('observation_insert'),
);
const pointParameter = statement((db: Queryable, _: 'one') =>
  db
    .update(careplanParameters)
    .set({ observationId: valuePlaceholder<number | null>('observationId'), updatedAt: valuePlaceholder<Date>('updatedAt') })
    .where(eq(careplanParameters.id, P('id')))
    .prepare('careplan_parameter_point'),
);
/** The activities a care plan has anchored on one input. */
const anchoredActivities = statement((db: Queryable, _: 'all') =>
  db
    .select()
    .from(activities)
    .where(and(eq(activities.careplanId, P('careplanId')), eq(activities.inputId, P('inputId'))))
    .orderBy(asc(activities.id))
    .prepare('activities_of_input'),
);

/** The observation a parameter is set to: a new one for the care plan's subject, or an existing one of it. */
async function resolveObservation(
  tx: ServiceContext,
  c: Careplan,
  input: Input,
  codeType: (typeof observationCodes.$inferSelect)['type'],
  given: { observation?: ObservationValue; observationId?: number | null },
): Promise<typeof observations.$inferSelect | null> {
  if (given.observation) {
    checkObservationValue(codeType, given.observation.value, 'observation.value');
    const [row] = await insertObservation.run(tx.db, 'one', {
      projectId: c.projectId,
      subjectId: c.subjectId,
      observationCodeId: input.observationCodeId,
      value: given.observation.value,
      observedAt: new Date(given.observation.observedAt),
    });
    return row!;
  }
  if (given.observationId === null || given.observationId === undefined) return null;
  const [row] = await tx.db
    .select()
    .from(observations)
    .where(and(eq(observations.id, given.observationId), eq(observations.projectId, c.projectId)));
  if (!row) throw invalidField('observationId', 'No observation with this id in the project');
  if (row.subjectId !== c.subjectId) throw invalidField('observationId', "The observation is not about the care plan's subject");
  if (row.observationCodeId !== input.observationCodeId) throw invalidField('observationId', "The observation's code is not the input's code");
  return row;
}

/**
 * The effects of a parameter's date on the activities anchored on its input: the first date creates
 * them, a changed date moves those still proposed or scheduled (timestamps and pending reminder), and
 * emptying cancels those. Completed, expired and cancelled activities never move.
 */
type Plan = { actions: DefinitionAction[]; timeZone: string };

async function applyDate(tx: ServiceContext, c: Careplan, plan: Plan, input: Input, before: string | null, after: string | null) {
  if (before === after || c.status !== 'ongoing') return;
  if (after === null) {
    await cancelOpenActivities(tx, and(eq(activities.careplanId, c.id), eq(activities.inputId, input.id))!);
    return;
  }
  const actions = plan.actions.filter((a) => a.inputKey === input.key);
  const timeZone = plan.timeZone;
  const anchor = startOfDateIn(after, timeZone);
  const existing = await anchoredActivities.run(tx.db, 'all', { careplanId: c.id, inputId: input.id });
  const toCreate: DefinitionAction[] = [];
  const moves: ActivityMove[] = [];
  for (const action of actions) {
    const mine = existing.filter((a) => a.actionKey === action.key);
    const open = mine.filter((a) => a.status === 'proposed' || a.status === 'scheduled');
    if (open.length > 0) {
      const { activateAt, endAt } = scheduleAction(action, anchor, timeZone);
      for (const a of open) {
        // The pending reminder keeps its place in the list; the next due transition follows the move.
        const remindAt = pendingReminderAt(a, activateAt, timeZone);
        moves.push({ id: a.id, times: { activateAt, endAt, remindAt, nextDueAt: nextDueAt({ ...a, activateAt, endAt, remindAt }) } });
      }
    } else if (!mine.some((a) => a.status === 'completed' || a.status === 'expired')) {
      toCreate.push(action);
    }
  }
  await moveActivities(tx, moves);
  await createActivities(tx, c, toCreate, anchor, input.id, timeZone);
}

function toParameterDto(p: Pick<Parameter, 'id' | 'careplanId' | 'inputId' | 'observationId'>, o: Observation | null): ParameterDto {
  return { id: p.id, careplanId: p.careplanId, inputId: p.inputId, observationId: p.observationId, observation: o ? toObservationDto(o) : null };
}

/**
 * An input of the locked care plan's version with its code's type, the plan's parameter for it and that
 * parameter's observation, in one round trip. Read after the plan's lock, so it sees what an earlier
 * writer of the plan committed.
 * Built once per way of naming it (db/statements).
 */
const slotOf = statement((db: Queryable, by: 'input' | 'parameter') =>
  db
    .select({ input: careplanDefinitionInputs, codeType: observationCodes.type, p: careplanParameters, o: observations })
    .from(careplanDefinitionInputs)
    .innerJoin(observationCodes, eq(observationCodes.id, careplanDefinitionInputs.observationCodeId))
    .leftJoin(careplanParameters, and(eq(careplanParameters.careplanId, P('careplanId')), eq(careplanParameters.inputId, careplanDefinitionInputs.id)))
    .leftJoin(observations, eq(observations.id, careplanParameters.observationId))
    .where(and(eq(careplanDefinitionInputs.versionId, P('versionId')), by === 'input' ? eq(careplanDefinitionInputs.id, P('id')) : eq(careplanParameters.id, P('id'))))
    .prepare(`careplan_slot_by_${by}`),
);

async function loadSlot(tx: ServiceContext, c: Careplan, by: 'input' | 'parameter', id: number) {
  const [row] = await slotOf.run(tx.db, by, { careplanId: c.id, versionId: c.versionId, id });
  return row;
}

/**
 * The one way a parameter changes: it points at `obs` (or nothing), and the activities anchored on its
 * input follow the date (created, moved or cancelled). Callers hold the care plan's lock.
 */
async function setObservation(
  tx: ServiceContext,
  c: Careplan,
  plan: Plan,
  input: Input,
  parameter: Parameter | undefined,
  obs: Observation | null,
  /** The date the parameter held, when the caller read it already. */
  known?: { before: string | null },
  /** Runs once the parameter is written, before the activities follow (the caller's audit entry, which
   * then rides along with the activities' event insert). */
  written?: (id: number) => Promise<void>,
): Promise<number> {
  const before = known
    ? known.before
    : parameter?.observationId
      ? ((await tx.db.select({ value: observations.value }).from(observations).where(eq(observations.id, parameter.observationId)))[0]?.value ?? null)
      : null;
  let id: number;
  if (parameter) {
    await pointParameter.run(tx.db, 'one', { id: parameter.id, observationId: obs?.id ?? null, updatedAt: tx.clock() });
    id = parameter.id;
  } else {
    const [row] = await tx.db.insert(careplanParameters).values({ careplanId: c.id, inputId: input.id, observationId: obs?.id ?? null }).returning();
    id = row!.id;
  }
  await written?.(id);
  await applyDate(tx, c, plan, input, before, obs?.value ?? null);
  return id;
}

/** What a changed date records: activities created, moved or cancelled. */
const PLAN_EVENTS: EventName[] = ['activity_create', 'activity_update'];

/**
 * Locks the care plan (parameters of one plan change one at a time) and reads its version's actions, the
 * project's time zone and the webhooks of the events a date change records, in the same round trip.
 */
const planOf = statement((db: Queryable, by: 'careplan' | 'parameter') =>
  db
    .select({ c: careplans, actions: careplanDefinitionVersions.actions, timeZone: projects.timeZone, hooks: hooksJson(careplans.projectId, PLAN_EVENTS) })
    .from(careplans)
    .innerJoin(careplanDefinitionVersions, eq(careplanDefinitionVersions.id, careplans.versionId))
    .innerJoin(projects, eq(projects.id, careplans.projectId))
    .where(
      and(
        by === 'careplan'
          ? eq(careplans.id, P('id'))
          : eq(careplans.id, sql`(select ${careplanParameters.careplanId} from ${careplanParameters} where ${careplanParameters.id} = ${P('id')})`),
        eq(careplans.projectId, P('projectId')),
      ),
    )
    .for('update', { of: careplans })
    .prepare(`careplan_lock_by_${by}`),
);

async function lockPlan(tx: ServiceContext, by: 'careplan' | 'parameter', id: number) {
  const [row] = await planOf.run(tx.db, by, { id, projectId: tx.projectId });
  if (row) rememberHooks(tx, PLAN_EVENTS, row.hooks);
  return row && { c: row.c, plan: { actions: row.actions as DefinitionAction[], timeZone: row.timeZone } };
}

/** POST /careplan-parameter: sets the parameter of an input; `created` when the care plan had none for it. */
export async function setParameter(ctx: ServiceContext, body: SetParameterInput): Promise<{ created: boolean; parameter: ParameterDto }> {
  requireCareManager(ctx);
  return withTransaction(ctx, async (tx) => {
    const found = await lockPlan(tx, 'careplan', body.careplanId);
    if (!found) throw invalidField('careplanId', 'No care plan with this id in the project');
    const { c, plan } = found;
    const slot = await loadSlot(tx, c, 'input', body.inputId);
    if (!slot) throw invalidField('inputId', "No input with this id in the care plan's definition version");
    const parameter = slot.p ?? undefined;
    const before = parameter ? toParameterDto(parameter, slot.o) : null;
    const obs = await resolveObservation(tx, c, slot.input, slot.codeType, body);
    let after: ParameterDto | undefined;
    await setObservation(tx, c, plan, slot.input, parameter, obs, { before: slot.o?.value ?? null }, async (id) => {
      after = toParameterDto({ id, careplanId: c.id, inputId: slot.input.id, observationId: obs?.id ?? null }, obs);
      await audit(tx, { action: parameter ? 'update' : 'create', resource: 'careplan-parameter', resourceId: id, before, after });
    });
    return { created: !parameter, parameter: after! };
  });
}

/** PATCH /careplan-parameter/<id>: a new observation, an existing one, or null to empty it. */
export async function patchParameter(ctx: ServiceContext, id: number, body: PatchParameterInput): Promise<ParameterDto> {
  requireCareManager(ctx);
  return withTransaction(ctx, async (tx) => {
    // The plan the parameter belongs to, locked; then the parameter, its input and date as of the lock.
    const found = await lockPlan(tx, 'parameter', id);
    const slot = found && (await loadSlot(tx, found.c, 'parameter', id));
    if (!found || !slot?.p) throw notFound('Care plan parameter');
    const { c, plan } = found;
    const before = toParameterDto(slot.p, slot.o);
    const obs = await resolveObservation(tx, c, slot.input, slot.codeType, body);
    const after = toParameterDto({ ...slot.p, observationId: obs?.id ?? null }, obs);
    await setObservation(tx, c, plan, slot.input, slot.p, obs, { before: slot.o?.value ?? null }, () => audit(tx, { action: 'update', resource: 'careplan-parameter', resourceId: id, before, after }));
    return after;
  });
}

/** A new observation another operation made, and the one it replaces (an amended answer's earlier one). */
export type MadeObservation = { observation: Observation; replaces: number | null };

/**
 * Observations made by another operation (a completed or amended questionnaire response, CONTRACT 9)
 * feed the subject's ongoing care plans through the same code path as `PATCH /careplan-parameter`:
 * every parameter of an input with the observation's code that is empty fills with it, and every
 * parameter pointing at the observation it replaces moves to it. Runs in the caller's transaction;
 * plans are locked in id order, as every other writer of parameters locks them.
 */
export async function feedObservations(tx: ServiceContext, subjectId: number, made: MadeObservation[]): Promise<void> {
  if (made.length === 0) return;
  const codes = [...new Set(made.map((m) => m.observation.observationCodeId))];
  const replaced = made.flatMap((m) => (m.replaces ? [m.replaces] : []));
  const plans = await tx.db
    .select({ c: careplans, actions: careplanDefinitionVersions.actions, timeZone: projects.timeZone })
    .from(careplans)
    .innerJoin(careplanDefinitionVersions, eq(careplanDefinitionVersions.id, careplans.versionId))
    .innerJoin(projects, eq(projects.id, careplans.projectId))
    .innerJoin(careplanDefinitionInputs, and(eq(careplanDefinitionInputs.versionId, careplans.versionId), inArray(careplanDefinitionInputs.observationCodeId, codes)))
    .where(and(eq(careplans.projectId, tx.projectId), eq(careplans.subjectId, subjectId), eq(careplans.status, 'ongoing')))
    .orderBy(asc(careplans.id))
    .for('update', { of: careplans });
  if (plans.length === 0) return;
  // Read after the locks, in a statement of its own: it sees what a parameter writer that held a plan
  // committed meanwhile (one statement joining both would judge the parameters by its older snapshot).
  const planIds = [...new Set(plans.map((p) => p.c.id))];
  const slots = await tx.db
    .select({ input: careplanDefinitionInputs, p: careplanParameters, careplanId: careplans.id })
    .from(careplans)
    .innerJoin(careplanDefinitionInputs, and(eq(careplanDefinitionInputs.versionId, careplans.versionId), inArray(careplanDefinitionInputs.observationCodeId, codes)))
    .leftJoin(careplanParameters, and(eq(careplanParameters.careplanId, careplans.id), eq(careplanParameters.inputId, careplanDefinitionInputs.id)))
    .where(
      and(
        inArray(careplans.id, planIds),
        or(isNull(careplanParameters.observationId), replaced.length > 0 ? inArray(careplanParameters.observationId, replaced) : undefined),
      ),
    )
    .orderBy(asc(careplans.id), asc(careplanDefinitionInputs.id));
  for (const slot of slots) {
    const owner = plans.find((p) => p.c.id === slot.careplanId)!;
    const current = slot.p?.observationId ?? null;
    // The replacement of the observation it points at; otherwise (empty) the newest of the input's code.
    const next =
      made.find((m) => current !== null && m.replaces === current) ??
      (current === null ? made.findLast((m) => m.observation.observationCodeId === slot.input.observationCodeId) : undefined);
    if (!next) continue;
    await setObservation(tx, owner.c, { actions: owner.actions as DefinitionAction[], timeZone: owner.timeZone }, slot.input, slot.p ?? undefined, next.observation);
  }
}
