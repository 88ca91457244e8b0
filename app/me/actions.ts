'use server';

import { revalidatePath } from 'next/cache';
import { currentMemberId } from '@/server/auth/next-auth';
import { completeOwnActivity, markOwnNotificationRead } from '@/server/services/members/member-home';

export async function markNotificationRead(formData: FormData): Promise<void> {
  const memberId = await currentMemberId();
  const id = Number(formData.get('notificationId'));
  if (!memberId || !Number.isInteger(id) || id <= 0) return;
  await markOwnNotificationRead(memberId, id);
  revalidatePath('/me');
}

export async function markActivityDone(formData: FormData): Promise<void> {
  const memberId = await currentMemberId();
  const id = Number(formData.get('activityId'));
  if (!memberId || !Number.isInteger(id) || id <= 0) return;
  await completeOwnActivity(memberId, id);
  revalidatePath('/me');
}
