import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { activities, OPEN_ACTIVITY_STATUSES, type careplans, type DefinitionAction } from '@/db/schema';
import type { ServiceContext } from '@/server/context';
import { recordEvents } from '@/server/events/emit';
import { toActivityDto } from './dto';
import { existingReferences } from './references';
import { scheduleAction } from './schedule';

/**
 * The activities of a care plan as its definition plans them: created from actions and an anchor,
 * cancelled when their anchor empties or the plan ends. Care plans and parameters call these; the events
 * are consequences (after-only), recorded in the caller's transaction.
 */
type CareplanRow = typeof careplans.$inferSelect;

/** Creates the activities of `actions` from an anchor, and records activity_create for each. */
export async function createActivities(tx: ServiceContext, c: CareplanRow, actions: DefinitionAction[], anchor: Date, inputId: number | null, timeZone: string) {
  if (actions.length === 0) return [];
  const current = await existingReferences(tx, actions);
  const rows = await tx.db
    .insert(activities)
    .values(
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
          ...t,
        };
      }),
    )
    .returning();
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

/** Moves activities to new times in one statement (each column a CASE over the ids), recording activity_update for each. */
export async function moveActivities(tx: ServiceContext, moves: ActivityMove[]) {
  const when = (value: (t: ActivityTimes) => Date | null) =>
    sql`case ${activities.id} ${sql.join(moves.map((m) => sql`when ${m.id} then ${value(m.times)?.toISOString() ?? null}::timestamptz`), sql` `)} end`;
  const movedRows =
    moves.length === 0
      ? []
      : await tx.db
          .update(activities)
          .set({
            activateAt: when((t) => t.activateAt),
            endAt: when((t) => t.endAt),
            remindAt: when((t) => t.remindAt),
            nextDueAt: when((t) => t.nextDueAt),
            updatedAt: tx.clock(),
          })
          .where(inArray(activities.id, moves.map((m) => m.id)))
          .returning();
  await recordEvents(
    tx,
    'activity_update',
    movedRows.map((row) => ({ params: { id: row.id, activateAt: row.activateAt.toISOString(), endAt: row.endAt?.toISOString() ?? null }, responseData: toActivityDto(row) })),
  );
}
