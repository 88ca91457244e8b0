import type { DefinitionAction } from '@/db/schema';
import { initialSchedule } from '@/server/services/activities/lifecycle';
import { addOffset } from '@/server/core/offsets';

export type ActivityTimes = { activateAt: Date; endAt: Date | null; remindAt: Date | null; nextDueAt: Date };

/**
 * When an action's activity happens, from its anchor: `start` from the anchor gives activateAt, `end`
 * from activateAt gives endAt, and the first reminder by time (offsets from activateAt) gives remindAt.
 * `nextDueAt` is the earliest pending transition of the new, proposed activity (the state machine's rule).
 */
export function scheduleAction(action: Pick<DefinitionAction, 'start' | 'end' | 'reminders'>, anchor: Date, timeZone: string): ActivityTimes {
  const activateAt = addOffset(anchor, action.start, timeZone);
  const endAt = action.end ? addOffset(activateAt, action.end, timeZone) : null;
  return { activateAt, endAt, ...initialSchedule(activateAt, endAt, action.reminders ?? [], timeZone) };
}
