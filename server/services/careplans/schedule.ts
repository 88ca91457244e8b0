import type { DefinitionAction } from '@/db/schema';
import { addOffset } from './offsets';

export type ActivityTimes = { activateAt: Date; endAt: Date | null; remindAt: Date | null; nextDueAt: Date };

/**
 * When an action's activity happens, from its anchor: `start` from the anchor gives activateAt, `end`
 * from activateAt gives endAt, and the first reminder (offsets from activateAt) gives remindAt.
 * `nextDueAt` is the earliest pending transition for a proposed activity.
 */
export function scheduleAction(action: Pick<DefinitionAction, 'start' | 'end' | 'reminders'>, anchor: Date, timeZone: string): ActivityTimes {
  const activateAt = addOffset(anchor, action.start, timeZone);
  const endAt = action.end ? addOffset(activateAt, action.end, timeZone) : null;
  const reminderTimes = (action.reminders ?? []).map((r) => addOffset(activateAt, r, timeZone).getTime()).sort((a, b) => a - b);
  const remindAt = reminderTimes.length > 0 ? new Date(reminderTimes[0]!) : null;
  const nextDueAt = endAt && endAt < activateAt ? endAt : activateAt;
  return { activateAt, endAt, remindAt, nextDueAt };
}
