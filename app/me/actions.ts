'use server';

import { revalidatePath } from 'next/cache';
import { currentMemberId } from '@/server/auth/next-auth';
import { completeOwnActivity, markOwnNotificationRead } from '@/server/services/members/member-home';

/** The signed-in member acts on one of their rows; anything without a member or an id does nothing. */
async function asMember(formData: FormData, act: (memberId: number, id: number) => Promise<void>): Promise<void> {
  const memberId = await currentMemberId();
  const id = Number(formData.get('id'));
  if (!memberId || !Number.isInteger(id) || id <= 0) return;
  await act(memberId, id);
  revalidatePath('/me');
}

export async function markNotificationRead(formData: FormData): Promise<void> {
  await asMember(formData, markOwnNotificationRead);
}

export async function markActivityDone(formData: FormData): Promise<void> {
  await asMember(formData, completeOwnActivity);
}
