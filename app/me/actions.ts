'use server';

import { revalidatePath } from 'next/cache';
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
