import { getDb } from '@/db/client';
import { AppError } from '@/server/errors';
import { memberContext, type MemberContext } from '@/server/services/members/member-home';

/** The service context of a member signed in through an identity provider (members' twin of staff.ts). */
export async function resolveMemberContext(memberId: number): Promise<MemberContext> {
  const ctx = await memberContext(await getDb(), memberId);
  if (!ctx) throw new AppError('unauthenticated', 'This member no longer exists');
  return ctx;
}
