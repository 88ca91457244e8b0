import { getDb } from '@/db/client';
import type { ServiceContext } from '@/server/context';
import { AppError } from '@/server/errors';
import { memberContext } from '@/server/services/members/member-home';

/** The service context of a member signed in through an identity provider (members' twin of staff.ts). */
export async function resolveMemberContext(memberId: number): Promise<ServiceContext & { projectName: string; timeZone: string }> {
  const ctx = await memberContext(await getDb(), memberId);
  if (!ctx) throw new AppError('unauthenticated', 'This member no longer exists');
  return ctx;
}
