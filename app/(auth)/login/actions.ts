'use server';

import { AuthError } from 'next-auth';
import { signIn, signOut } from '@/server/auth/next-auth';

export type LoginState = { error?: string; email?: string };

export async function login(_prev: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  if (!email || !password) return { error: 'Enter your email and password', email };
  const next = String(form.get('next') ?? '/');
  try {
    await signIn('credentials', { email, password, redirectTo: next.startsWith('/') && !next.startsWith('//') ? next : '/' });
  } catch (e) {
    if (e instanceof AuthError) {
      const code = (e as AuthError & { code?: string }).code ?? '';
      if (code.startsWith('rate_limited:')) {
        const minutes = Number(code.split(':')[1]) || 15;
        return { error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, email };
      }
      return { error: 'Wrong email or password', email };
    }
    throw e; // the redirect after a successful sign-in
  }
  return {};
}

export async function logout(): Promise<void> {
  await signOut({ redirectTo: '/login' });
}

/** Starts OpenID Connect sign-in with one of the configured identity providers. */
export async function loginWithProvider(form: FormData): Promise<void> {
  const providerId = Number(form.get('providerId'));
  if (!Number.isInteger(providerId) || providerId <= 0) return;
  await signIn(`idp-${providerId}`, { redirectTo: '/me' });
}
