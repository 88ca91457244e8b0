import { getDb } from '@/db/client';
import { asAppError } from '@/server/errors';
import { acceptInvitation, completePasswordReset, lookUpUserToken } from '@/server/services/users/team';

/**
 * The one-time links' way in for people who are not signed in yet (the invite and reset pages): what a
 * link is for, and using it. Failures come back as field errors or a sentence, never thrown at the page.
 */
export async function describeLink(token: string) {
  if (!/^cb_inv_[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  return lookUpUserToken(await getDb(), token);
}

type Outcome = { ok: true; email: string } | { ok: false; message: string; fields: Record<string, string> };

async function attempt(run: () => Promise<{ email: string }>): Promise<Outcome> {
  try {
    return { ok: true, email: (await run()).email };
  } catch (e) {
    const err = asAppError(e);
    if (err.code === 'internal') throw e;
    const fields = Object.fromEntries((err.errors ?? []).map((f) => [f.path, f.message]));
    return { ok: false, message: err.code === 'invalid_request' ? 'Please correct the highlighted fields.' : err.message, fields };
  }
}

export async function redeemInvitation(input: { token: string; name?: string; password: string }): Promise<Outcome> {
  return attempt(async () => acceptInvitation(await getDb(), input));
}

export async function redeemResetLink(input: { token: string; password: string }): Promise<Outcome> {
  return attempt(async () => completePasswordReset(await getDb(), input));
}
