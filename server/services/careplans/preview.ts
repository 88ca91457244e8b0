import type { z } from 'zod';
import { type actionSchema } from './schemas';
import type { ServiceContext } from '@/server/context';
import { projectTimeZone } from '@/server/services/projects/projects';
import { isCalendarDate, startOfDateIn } from '@/server/core/offsets';
import { scheduleAction } from '@/server/services/activities/schedule';
import { reminderSchedule } from '@/server/services/activities/lifecycle';
import { iso, isoOrNull } from '@/server/core/time';

export type PreviewActivity = { actionKey: string; type: string; display: string; actorType: string; anchor: string; activateAt: string; endAt: string | null; remindAt: string | null; reminders: string[] };

/**
 * The timeline a template would produce for sample reference dates, before anyone is enrolled: actions
 * anchored on an input without a sample date are left out, as they would be for a real care plan.
 */
export async function previewTimeline(
  ctx: ServiceContext,
  input: { actions: z.output<typeof actionSchema>[]; sampleDates: Record<string, string>; start?: string },
): Promise<{ timeZone: string; start: string; activities: PreviewActivity[] }> {
  const timeZone = await projectTimeZone(ctx);
  const start = input.start ? new Date(input.start) : ctx.clock();
  const activities: PreviewActivity[] = [];
  for (const action of input.actions) {
    const sample = action.inputKey ? input.sampleDates[action.inputKey] : undefined;
    if (action.inputKey && (!sample || !isCalendarDate(sample))) continue;
    const anchor = action.inputKey ? startOfDateIn(sample!, timeZone) : start;
    const t = scheduleAction(action, anchor, timeZone);
    activities.push({
      actionKey: action.key,
      type: action.type,
      display: action.display,
      actorType: action.actorType ?? 'subject',
      anchor: action.inputKey ?? '',
      activateAt: iso(t.activateAt),
      endAt: isoOrNull(t.endAt),
      remindAt: isoOrNull(t.remindAt),
      reminders: reminderSchedule(action.reminders ?? [], t.activateAt, timeZone).map((r) => iso(r.at)),
    });
  }
  return { timeZone, start: iso(start), activities };
}
