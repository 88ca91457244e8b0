import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { insertPlaceholders, statement, valuePlaceholder } from '@/db/statements';
import { activities, OPEN_ACTIVITY_STATUSES, type careplans, type DefinitionAction } from '@/db/schema';
import type { ServiceContext } from '@/server/context';
import { recordEvents } from '@/server/events/emit';
import { toActivityDto } from './dto';
import { existingReferences } from './references';
import { scheduleAction } from './schedule';
import { iso, isoOrNull } from '@/server/core/time';

/**
 * The activities of a care plan as its definition plans them: created from actions and an anchor,
 * cancelled when their anchor empties or the plan ends. Care plans and parameters call these; the events
 * are consequences (after-only), recorded in the caller's transaction.
 */
type CareplanRow = typeof careplans.$inferSelect;

/** The columns createActivities sets; the rest take their defaults. */
const PLANNED = [
  'projectId', 'careplanId', 'subjectId', 'actionKey', 'inputId', 'kind', 'type', 'display', 'description', 'articleId',
  'questionnaireId', 'scheduleId', 'actorType', 'reminders', 'activateAt', 'endAt', 'remindAt', 'nextDueAt',
] as const satisfies readonly (keyof typeof activities.$inferInsert)[];

/** The insert of n planned activities, built once per n (db/statements). */
const insertActivities = statement((db: Queryable, n: number) =>
  db
    .insert(activities)
    .values(Array.from({ length: n }, (_, i) => insertPlaceholders<typeof activities>(PLANNED, i)))
    .returning()
    .prepare(`activity_insert_${n}`),
);

/** Creates the activities of `actions` from an anchor, and records activity_create for each. */
export async function createActivities(tx: ServiceContext, c: CareplanRow, actions: DefinitionAction[], anchor: Date, inputId: number | null, timeZone: string) {
  if (actions.length === 0) return [];
  const current = await existingReferences(tx, actions);
  const rows = await insertActivities.run(
    tx.db,
    current.length,
    current.map((a) => {
      const t = scheduleAction(a, anchor, timeZone);
      return {
        projectId: c.projectId,
        careplanId: c.id,
        subjectId: c.subjectId,
        actionKey: a.key,
        inputId,
        kind: a.kind ?? 'task',
        type: a.type,
        display: a.display,
        description: a.description ?? null,
        articleId: a.articleId ?? null,
        questionnaireId: a.questionnaireId ?? null,
        scheduleId: a.scheduleId ?? null,
        actorType: a.actorType ?? 'subject',
        reminders: a.reminders ?? [],
        activateAt: t.activateAt,
        endAt: t.endAt,
        remindAt: t.remindAt,
        nextDueAt: t.nextDueAt,
      } satisfies Record<(typeof PLANNED)[number], unknown>;
    }),
  );
  await recordEvents(tx, 'activity_create', rows.map((row) => ({ params: { careplanId: c.id, actionKey: row.actionKey }, responseData: toActivityDto(row) })));
  return rows;
}

/** Cancels open (proposed or scheduled) activities, recording activity_update for each. */
export async function cancelOpenActivities(tx: ServiceContext, where: SQL) {
  const rows = await tx.db
    .update(activities)
    .set({ status: 'cancelled', nextDueAt: null, remindAt: null, updatedAt: tx.clock() })
    .where(and(where, inArray(activities.status, OPEN_ACTIVITY_STATUSES)))
    .returning();
  await recordEvents(tx, 'activity_update', rows.map((row) => ({ params: { id: row.id, status: 'cancelled' }, responseData: toActivityDto(row) })));
  return rows;
}

export type ActivityTimes = { activateAt: Date; endAt: Date | null; remindAt: Date | null; nextDueAt: Date | null };
export type ActivityMove = { id: number; times: ActivityTimes };

const TIMES = ['activateAt', 'endAt', 'remindAt', 'nextDueAt'] as const satisfies readonly (keyof ActivityTimes)[];

/** The move of n activities, built once per n (db/statements): each time column a CASE over the ids. */
const updateTimes = statement((db: Queryable, n: number) => {
  const rows = Array.from({ length: n }, (_, i) => i);
  const when = (column: (typeof TIMES)[number]) =>
    sql`case ${activities.id} ${sql.join(
      rows.map((i) => sql`when ${sql.placeholder(`${i}.id`)}::int then ${sql.placeholder(`${i}.${column}`)}::timestamptz`),
      sql` `,
    )} end`;
  return db
    .update(activities)
    // One time of change for all of them: the first row's.
    .set({ ...Object.fromEntries(TIMES.map((column) => [column, when(column)])), updatedAt: valuePlaceholder<Date>('0.updatedAt') })
    .where(inArray(activities.id, rows.map((i) => sql.placeholder(`${i}.id`))))
    .returning()
    .prepare(`activity_move_${n}`);
});

/** Moves activities to new times in one statement (each column a CASE over the ids), recording activity_update for each. */
export async function moveActivities(tx: ServiceContext, moves: ActivityMove[]) {
  const now = tx.clock();
  const movedRows =
    moves.length === 0
      ? []
      : await updateTimes.run(
          tx.db,
          moves.length,
          moves.map((m) => ({
            id: m.id,
            activateAt: iso(m.times.activateAt),
            endAt: isoOrNull(m.times.endAt),
            remindAt: isoOrNull(m.times.remindAt),
            nextDueAt: isoOrNull(m.times.nextDueAt),
            updatedAt: now,
          })),
        );
  await recordEvents(
    tx,
    'activity_update',
    movedRows.map((row) => ({ params: { id: row.id, activateAt: iso(row.activateAt), endAt: isoOrNull(row.endAt) }, responseData: toActivityDto(row) })),
  );
}
