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

/**
 * The member's questionnaire form saves (draft) or submits its answers; problems come back for the form
 * to show at their questions. A submitted form goes back to /me, where the plan's new activities show.
 */
export async function answerActivity(activityId: number, answers: { linkId: string; value: unknown }[], complete: boolean): Promise<AnswerState> {
  const caller = await getMemberCaller();
  try {
    await caller.me.answer({ activityId, answers, complete });
  } catch (e) {
    const fields = (e as { cause?: { errors?: { path: string; message: string }[] } }).cause?.errors;
    const problems = fields?.filter((p) => p.path === 'answers' || p.path.startsWith('answers.'));
    if (problems && problems.length > 0) return { problems };
    return { error: messageForPeople(e) };
  }
  revalidatePath('/me');
  if (complete) redirect('/me?answered=1');
  return {};
}

/** The member books a slot (for one of their appointment activities, or on its own); back to /me when booked. */
export async function bookSlot(scheduleId: number, start: string, activityId?: number): Promise<{ error?: string }> {
  const caller = await getMemberCaller();
  try {
    await caller.me.book({ scheduleId, start, ...(activityId ? { activityId } : {}) });
  } catch (e) {
    const fields = (e as { cause?: { errors?: { path: string; message: string }[] } }).cause?.errors;
    return { error: fields?.[0]?.message ?? messageForPeople(e) };
  }
  revalidatePath('/me');
  redirect('/me?booked=1');
}

/** The member moves one of their appointments to another free slot. */
export async function rescheduleAppointment(id: number, start: string): Promise<{ error?: string }> {
  const caller = await getMemberCaller();
  try {
    await caller.me.reschedule({ id, start });
  } catch (e) {
    const fields = (e as { cause?: { errors?: { path: string; message: string }[] } }).cause?.errors;
    return { error: fields?.[0]?.message ?? messageForPeople(e) };
  }
  revalidatePath('/me');
  redirect('/me?booked=1');
}

export async function cancelAppointment(_prev: RowActionState, formData: FormData): Promise<RowActionState> {
  return asMember(formData, (caller, id) => caller.me.cancelAppointment({ id }));
}
