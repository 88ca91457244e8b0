import { eq } from 'drizzle-orm';
import { activities } from '@/db/schema';
import type { ServiceContext } from '@/server/context';
import { recordEvents } from '@/server/events/emit';
import { toActivityDto, type ActivityRow } from './dto';
import { nextDueAt } from './lifecycle';
import { iso } from '@/server/core/time';

/**
 * Activities changed as a consequence of another operation (CONTRACT 9): a questionnaire activity
 * completed by a completed response, an appointment activity by a booking. Recorded after-only with
 * params `{id, ...changes}`, as if the change had been a PATCH, in the caller's transaction.
 */
export async function completeActivityBy(tx: ServiceContext, activity: ActivityRow, link: { questionnaireResponseId: number } | { appointmentId: number }): Promise<ActivityRow> {
  const completedAt = tx.clock();
  const [row] = await tx.db
    .update(activities)
    .set({ status: 'completed', completedAt, nextDueAt: null, remindAt: null, failures: 0, ...link, updatedAt: completedAt })
    .where(eq(activities.id, activity.id))
    .returning();
  await recordEvents(tx, 'activity_update', [{ params: { id: activity.id, status: 'completed', completedAt: iso(completedAt), ...link }, responseData: toActivityDto(row!) }]);
  return row!;
}

/**
 * An appointment activity whose booking was cancelled opens again (CONTRACT 10): `scheduled`, or
 * `expired` when its `endAt` has passed; its next transition is the state machine's. Recorded like
 * `completeActivityBy`, after-only with `{id, ...changes}`.
 */
export async function reopenActivity(tx: ServiceContext, activity: ActivityRow): Promise<ActivityRow> {
  const now = tx.clock();
  const status = activity.endAt && activity.endAt.getTime() <= now.getTime() ? 'expired' : 'scheduled';
  const next = status === 'scheduled' ? nextDueAt({ status, activateAt: activity.activateAt, endAt: activity.endAt, remindAt: null, handledTransitions: activity.handledTransitions }) : null;
  const [row] = await tx.db
    .update(activities)
    .set({ status, completedAt: null, appointmentId: null, remindAt: null, nextDueAt: next, failures: 0, updatedAt: now })
    .where(eq(activities.id, activity.id))
    .returning();
  await recordEvents(tx, 'activity_update', [{ params: { id: activity.id, status, completedAt: null, appointmentId: null }, responseData: toActivityDto(row!) }]);
  return row!;
}
