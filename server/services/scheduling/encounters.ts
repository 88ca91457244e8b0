import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { appointments, encounters } from '@/db/schema';
import { requireCareManager } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso, isoOrNull } from '@/server/core/time';
import { conflict, invalidField, notFound, uniqueViolation } from '@/server/errors';
import { audit } from '@/server/audit/audit';
import { emit } from '@/server/events/emit';
import { requireMemberInProject } from '@/server/services/members/members';
import { fulfilAppointment } from './appointments';
import type { CreateEncounterInput, EncounterDto, EncounterStatus, ListEncountersQuery, UpdateEncounterInput } from './schemas';

type EncounterRow = typeof encounters.$inferSelect;

export const toEncounterDto = (e: EncounterRow): EncounterDto => ({
  id: e.id,
  subjectId: e.subjectId,
  appointmentId: e.appointmentId,
  status: e.status,
  start: iso(e.start),
  end: isoOrNull(e.end),
  note: e.note,
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
});

function visibleTo(ctx: ServiceContext): SQL {
  if (ctx.actor.kind === 'member') return and(eq(encounters.projectId, ctx.projectId), eq(encounters.subjectId, ctx.actor.memberId))!;
  return eq(encounters.projectId, ctx.projectId);
}

/** planned -> in-progress -> finished; planned or in-progress -> cancelled; finished and cancelled are final. */
const NEXT: Record<EncounterStatus, EncounterStatus[]> = { planned: ['in-progress', 'cancelled'], 'in-progress': ['finished', 'cancelled'], finished: [], cancelled: [] };

export async function createEncounter(ctx: ServiceContext, input: CreateEncounterInput): Promise<EncounterDto> {
  requireCareManager(ctx);
  if (input.status !== 'planned' && input.status !== 'in-progress') throw invalidField('status', 'An encounter starts planned or in-progress');
  await requireMemberInProject(ctx, input.subjectId, 'subjectId');
  if (input.appointmentId !== undefined) {
    const [a] = await ctx.db.select().from(appointments).where(and(eq(appointments.id, input.appointmentId), eq(appointments.projectId, ctx.projectId)));
    if (!a || a.subjectId !== input.subjectId) throw invalidField('appointmentId', "No appointment with this id for the encounter's subject");
    if (a.status !== 'booked') throw invalidField('appointmentId', `The appointment is ${a.status}; only a booked appointment has a visit to record`);
  }
  try {
    return await emit(ctx, 'encounter_create', input, async (tx) => {
      const now = tx.clock();
      const [row] = await tx.db
        .insert(encounters)
        .values({
          projectId: ctx.projectId,
          subjectId: input.subjectId,
          appointmentId: input.appointmentId ?? null,
          status: input.status,
          start: input.start ? new Date(input.start) : now,
          note: input.note ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const dto = toEncounterDto(row!);
      await audit(tx, { action: 'create', resource: 'encounter', resourceId: dto.id, after: dto });
      return dto;
    });
  } catch (e) {
    if (uniqueViolation(e) !== undefined) throw conflict('This appointment already has an encounter', 'appointmentId');
    throw e;
  }
}

async function findEncounter(ctx: ServiceContext, id: number, lock = false): Promise<EncounterRow> {
  const query = ctx.db.select().from(encounters).where(and(eq(encounters.id, id), visibleTo(ctx)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Encounter');
  return row;
}

export async function getEncounter(ctx: ServiceContext, id: number): Promise<EncounterDto> {
  return toEncounterDto(await findEncounter(ctx, id));
}

export async function listEncounters(ctx: ServiceContext, query: ListEncountersQuery, page: Page = FIRST_PAGE): Promise<Paged<EncounterDto>> {
  const rows = await ctx.db
    .select()
    .from(encounters)
    .where(
      and(
        visibleTo(ctx),
        gt(encounters.id, page.afterId),
        query.subjectId ? eq(encounters.subjectId, query.subjectId) : undefined,
        query.appointmentId ? eq(encounters.appointmentId, query.appointmentId) : undefined,
        query.status ? eq(encounters.status, query.status) : undefined,
      ),
    )
    .orderBy(asc(encounters.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toEncounterDto);
}

function requireTransition(row: EncounterRow, input: UpdateEncounterInput) {
  if (NEXT[row.status].length === 0) throw conflict(`The encounter is ${row.status}; it no longer changes`, input.status ? 'status' : undefined);
  if (input.status && input.status !== row.status && !NEXT[row.status].includes(input.status)) throw conflict(`An encounter goes from ${row.status} to ${NEXT[row.status].join(' or ')}`, 'status');
}

/** PATCH /encounter/<id>: finishing sets `end` (default now) and fulfils the linked appointment. */
export async function updateEncounter(ctx: ServiceContext, id: number, input: UpdateEncounterInput): Promise<EncounterDto> {
  requireCareManager(ctx);
  requireTransition(await findEncounter(ctx, id), input);
  return emit(ctx, 'encounter_update', { id, ...input }, async (tx) => {
    const row = await findEncounter(tx, id, true);
    requireTransition(row, input);
    const now = tx.clock();
    const finishing = input.status === 'finished' && row.status !== 'finished';
    const [saved] = await tx.db
      .update(encounters)
      .set({
        ...(input.status ? { status: input.status } : {}),
        ...(input.note !== undefined ? { note: input.note } : {}),
        ...(input.end ? { end: new Date(input.end) } : finishing ? { end: now } : {}),
        updatedAt: now,
      })
      .where(eq(encounters.id, id))
      .returning();
    if (finishing && row.appointmentId !== null) await fulfilAppointment(tx, row.appointmentId);
    const dto = toEncounterDto(saved!);
    await audit(tx, { action: 'update', resource: 'encounter', resourceId: id, before: toEncounterDto(row), after: dto });
    return dto;
  });
}
