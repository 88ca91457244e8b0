'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { messageForPeople } from '@/app/_components/error-messages';
import { getMemberCaller } from '@/app/_trpc/server';

export type RowActionState = { error?: string };

/** The signed-in member acts on one of their rows; a failure comes back as a sentence, not a crash. */
async function asMember(formData: FormData, act: (caller: Awaited<ReturnType<typeof getMemberCaller>>, id: number) => Promise<unknown>): Promise<RowActionState> {
  const id = Number(formData.get('id'));
  if (!Number.isInteger(id) || id <= 0) return { error: 'This item could not be found.' };
  const caller = await getMemberCaller();
  try {
    await act(caller, id);
  } catch (e) {
    return { error: messageForPeople(e) };
  }
  revalidatePath('/me');
  return {};
}

export async function markNotificationRead(_prev: RowActionState, formData: FormData): Promise<RowActionState> {
  return asMember(formData, (caller, id) => caller.me.markNotificationRead({ id }));
}

export async function markActivityDone(_prev: RowActionState, formData: FormData): Promise<RowActionState> {
  return asMember(formData, (caller, id) => caller.me.completeActivity({ id }));
}

export type AnswerState = { problems?: { path: string; message: string }[]; error?: string };

/** The field errors of a failed call (the service's AppError behind the tRPC error), if it had any. */
const fieldErrorsOf = (e: unknown) => (e as { cause?: { errors?: { path: string; message: string }[] } }).cause?.errors ?? [];

/**
 * The member's questionnaire form saves (draft) or submits its answers; problems come back for the form
 * to show at their questions. A submitted form goes back to /me, where the plan's new activities show.
 */
export async function answerActivity(activityId: number, answers: { linkId: string; value: unknown }[], complete: boolean): Promise<AnswerState> {
  const caller = await getMemberCaller();
  try {
    await caller.me.answer({ activityId, answers, complete });
  } catch (e) {
    const problems = fieldErrorsOf(e).filter((p) => p.path === 'answers' || p.path.startsWith('answers.'));
    if (problems.length > 0) return { problems };
    return { error: messageForPeople(e) };
  }
  revalidatePath('/me');
  if (complete) redirect('/me?answered=1');
  return {};
}

/** Books or moves the member's appointment; back to /me when done, else the reason in words. */
async function takeSlot(work: (caller: Awaited<ReturnType<typeof getMemberCaller>>) => Promise<unknown>): Promise<{ error?: string }> {
  const caller = await getMemberCaller();
  try {
    await work(caller);
  } catch (e) {
    return { error: fieldErrorsOf(e)[0]?.message ?? messageForPeople(e) };
  }
  revalidatePath('/me');
  redirect('/me?booked=1');
}

/** The member books a slot (for one of their appointment activities, or on its own). */
export async function bookSlot(scheduleId: number, start: string, activityId?: number): Promise<{ error?: string }> {
  return takeSlot((caller) => caller.me.book({ scheduleId, start, ...(activityId ? { activityId } : {}) }));
}

/** The member moves one of their appointments to another free slot. */
export async function rescheduleAppointment(id: number, start: string): Promise<{ error?: string }> {
  return takeSlot((caller) => caller.me.reschedule({ id, start }));
}

export async function cancelAppointment(_prev: RowActionState, formData: FormData): Promise<RowActionState> {
  return asMember(formData, (caller, id) => caller.me.cancelAppointment({ id }));
}
