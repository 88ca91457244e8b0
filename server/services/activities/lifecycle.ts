import { createHash } from 'node:crypto';
import type { ActionReminder } from '@/db/schema';
import { addOffset } from '@/server/core/offsets';

/**
 * The activity state machine (CONTRACT 6), as pure functions over an activity's lifecycle fields, so
 * the scheduler, the API and the property tests share one definition of "what is due next".
 */
export type TransitionKind = 'scheduled' | 'expired' | 'reminder';
export type TransitionEvent = 'activity_transition_scheduled' | 'activity_transition_expired' | 'activity_reminder';

export const EVENT_OF: Record<TransitionKind, TransitionEvent> = {
  scheduled: 'activity_transition_scheduled',
  expired: 'activity_transition_expired',
  reminder: 'activity_reminder',
};
export const TRANSITION_EVENTS = Object.values(EVENT_OF);

export type Lifecycle = {
  id: number;
  status: 'proposed' | 'scheduled' | 'expired' | 'completed' | 'cancelled';
  activateAt: Date;
  endAt: Date | null;
  remindAt: Date | null;
  reminders: ActionReminder[];
  reminderIndex: number;
  handledTransitions: string[];
  transitionSeq: number;
};

export type Transition = {
  kind: TransitionKind;
  event: TransitionEvent;
  /** When it became due. */
  at: Date;
  key: string;
  /** Keys of every transition due at this moment; a handled expiry takes the others with it. */
  dueKeys: string[];
  transitionId: string;
};

export const isOpen = (status: Lifecycle['status']) => status === 'proposed' || status === 'scheduled';
export const transitionKey = (kind: TransitionKind, at: Date) => `${kind}@${at.toISOString()}`;

/** The transitions still to come, handled ones left out, in the order they win when due together. */
export function pendingTransitions(a: Pick<Lifecycle, 'status' | 'activateAt' | 'endAt' | 'remindAt' | 'handledTransitions'>) {
  if (!isOpen(a.status)) return [];
  const list: { kind: TransitionKind; at: Date }[] = [];
  if (a.endAt) list.push({ kind: 'expired', at: a.endAt });
  if (a.status === 'proposed') list.push({ kind: 'scheduled', at: a.activateAt });
  if (a.status === 'scheduled' && a.remindAt) list.push({ kind: 'reminder', at: a.remindAt });
  return list.filter((t) => !a.handledTransitions.includes(transitionKey(t.kind, t.at)));
}

/** The scheduler's cursor: the earliest pending transition, or null when nothing is left. */
export function nextDueAt(a: Parameters<typeof pendingTransitions>[0]): Date | null {
  let min: Date | null = null;
  for (const t of pendingTransitions(a)) if (!min || t.at < min) min = t.at;
  return min;
}

/**
 * The transition to fire at `now`, if any: expiry wins over everything due with it, then activation,
 * then a reminder. The transitionId is derived from the activity, its firing count and the transition,
 * so a retry after a crash carries the same id and a later firing a new one.
 */
export function dueTransition(a: Lifecycle, now: Date): Transition | null {
  const due = pendingTransitions(a).filter((t) => t.at.getTime() <= now.getTime());
  if (due.length === 0) return null;
  const chosen = due[0]!; // pendingTransitions lists in winning order
  const key = transitionKey(chosen.kind, chosen.at);
  return {
    kind: chosen.kind,
    event: EVENT_OF[chosen.kind],
    at: chosen.at,
    key,
    dueKeys: due.map((t) => transitionKey(t.kind, t.at)),
    transitionId: transitionIdOf(a.id, a.transitionSeq, key),
  };
}

export function transitionIdOf(activityId: number, seq: number, key: string): string {
  const h = createHash('sha256').update(`${activityId}:${seq}:${key}`).digest('hex');
  // Shaped as a UUID (version nibble 5, variant 10xx) so integrations can store it as one.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Reminders with their times from activateAt, in time order (ties keep the author's order). */
export function reminderSchedule(reminders: ActionReminder[], activateAt: Date, timeZone: string) {
  return reminders
    .map((reminder, i) => ({ reminder, at: addOffset(activateAt, reminder, timeZone), i }))
    .sort((x, y) => x.at.getTime() - y.at.getTime() || x.i - y.i)
    .map(({ reminder, at }) => ({ reminder, at }));
}

/** The reminder a firing at `remindAt` stands for; a remindAt set by hand gets a seconds offset. */
export function reminderAt(a: Pick<Lifecycle, 'reminders' | 'reminderIndex' | 'activateAt' | 'remindAt'>, timeZone: string): ActionReminder {
  const scheduled = reminderSchedule(a.reminders, a.activateAt, timeZone)[a.reminderIndex];
  if (scheduled && a.remindAt && scheduled.at.getTime() === a.remindAt.getTime()) return scheduled.reminder;
  const seconds = a.remindAt ? Math.round((a.remindAt.getTime() - a.activateAt.getTime()) / 1000) : 0;
  return { ...(scheduled?.reminder ?? {}), offset: seconds, offsetUnit: 's' };
}

export type LifecycleChange = Pick<Lifecycle, 'status' | 'remindAt' | 'reminderIndex' | 'handledTransitions' | 'transitionSeq'> & { nextDueAt: Date | null };

/** The default behaviour of a transition: the new lifecycle fields. */
export function applyDefault(a: Lifecycle, t: Transition, timeZone: string): LifecycleChange {
  let next: Omit<LifecycleChange, 'nextDueAt'>;
  if (t.kind === 'reminder') {
    const reminderIndex = a.reminderIndex + 1;
    const upcoming = reminderSchedule(a.reminders, a.activateAt, timeZone)[reminderIndex];
    next = { ...a, reminderIndex, remindAt: upcoming?.at ?? null, transitionSeq: a.transitionSeq + 1 };
  } else {
    // An expired activity has no reminder left to send: remindAt is null "when none".
    next = { ...a, status: t.kind, remindAt: t.kind === 'expired' ? null : a.remindAt, transitionSeq: a.transitionSeq + 1 };
  }
  return pickChange({ ...a, ...next });
}

/** A `handle` webhook took the transition over: nothing changes but that it is not fired again. */
export function applyHandled(a: Lifecycle, t: Transition): LifecycleChange {
  const keys = t.kind === 'expired' ? t.dueKeys : [t.key];
  const handledTransitions = [...new Set([...a.handledTransitions, ...keys])];
  return pickChange({ ...a, handledTransitions, transitionSeq: a.transitionSeq + 1 });
}

function pickChange(a: Lifecycle): LifecycleChange {
  return {
    status: a.status,
    remindAt: a.remindAt,
    reminderIndex: a.reminderIndex,
    handledTransitions: a.handledTransitions,
    transitionSeq: a.transitionSeq,
    nextDueAt: nextDueAt(a),
  };
}

/** After activateAt moves (a changed reference date, a PATCH): the pending reminder moves with it. */
export function pendingReminderAt(a: Pick<Lifecycle, 'reminders' | 'reminderIndex' | 'status'>, activateAt: Date, timeZone: string): Date | null {
  if (!isOpen(a.status)) return null;
  return reminderSchedule(a.reminders, activateAt, timeZone)[a.reminderIndex]?.at ?? null;
}

/** A new (proposed) activity's first reminder and first due transition. */
export function initialSchedule(activateAt: Date, endAt: Date | null, reminders: ActionReminder[], timeZone: string) {
  const remindAt = reminderSchedule(reminders, activateAt, timeZone)[0]?.at ?? null;
  return { remindAt, nextDueAt: nextDueAt({ status: 'proposed', activateAt, endAt, remindAt, handledTransitions: [] })! };
}
