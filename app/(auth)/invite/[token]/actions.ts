'use server';

import { AuthError } from 'next-auth';
import { signIn } from '@/server/auth/next-auth';
import { redeemInvitation, redeemResetLink } from '@/server/auth/invitations';

export type LinkFormState = { message?: string; fields?: Record<string, string> };

/** Sets the password (or confirms the existing one), joins the project, and signs the person in. */
export async function acceptInvite(_prev: LinkFormState, form: FormData): Promise<LinkFormState> {
  const token = String(form.get('token') ?? '');
  const name = form.get('name') === null ? undefined : String(form.get('name'));
  const password = String(form.get('password') ?? '');
  const confirm = form.get('confirm');
  if (confirm !== null && confirm !== password) return { fields: { confirm: 'The two passwords differ' } };
  const outcome = await redeemInvitation({ token, password, ...(name !== undefined ? { name } : {}) });
  if (!outcome.ok) return { message: outcome.message, fields: outcome.fields };
  return signInAfter(outcome.email, password);
}

/** Chooses a new password through a reset link and signs the person in with it. */
export async function completeReset(_prev: LinkFormState, form: FormData): Promise<LinkFormState> {
  const token = String(form.get('token') ?? '');
  const password = String(form.get('password') ?? '');
  if (password !== String(form.get('confirm') ?? '')) return { fields: { confirm: 'The two passwords differ' } };
  const outcome = await redeemResetLink({ token, password });
  if (!outcome.ok) return { message: outcome.message, fields: outcome.fields };
  return signInAfter(outcome.email, password);
}

async function signInAfter(email: string, password: string): Promise<LinkFormState> {
  try {
    await signIn('credentials', { email, password, redirectTo: '/' });
  } catch (e) {
    if (e instanceof AuthError) return { message: 'Your password is set. Sign in with it on the sign-in page.' };
    throw e; // the redirect after signing in
  }
  return {};
}
