import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { getEnv } from '@/server/env';
import { authenticateUser } from '@/server/services/users/users';

const credentials = z.object({ email: z.email(), password: z.string().min(1).max(500) });

/** Staff sign-in for the admin UI: email + password (scrypt-hashed), JWT session cookie. */
export const { handlers, auth, signIn, signOut } = NextAuth({
  trustHost: true,
  secret: getEnv().authSecret,
  session: { strategy: 'jwt', maxAge: 12 * 60 * 60 },
  // A wrong password is an expected outcome, not a server error worth a stack trace in the log.
  logger: {
    error(error) {
      if (error.name === 'CredentialsSignin' || (error as { type?: string }).type === 'CredentialsSignin') return;
      console.error('[auth]', error);
    },
  },
  pages: { signIn: '/login' },
  providers: [
    Credentials({
      credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) throw new CredentialsSignin();
        const user = await authenticateUser(await getDb(), parsed.data.email, parsed.data.password);
        if (!user) throw new CredentialsSignin();
        return { id: String(user.id), email: user.email, name: user.name ?? user.email };
      },
    }),
  ],
  callbacks: {
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});

/** The signed-in staff user's id, or undefined. */
export async function currentUserId(): Promise<number | undefined> {
  const session = await auth();
  const id = Number(session?.user?.id);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}
