import NextAuth, { CredentialsSignin, customFetch, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { clientAddress } from '@/server/core/client-address';
import { getEnv } from '@/server/env';
import { checkSignInAllowed, recordSignInFailure, recordSignInSuccess } from './rate-limits';
import { guardedFetch } from '@/server/webhooks/safety';
import { cachedSignInProviders, type SignInProvider } from '@/server/services/identity/identity-providers';
import { linkAccount } from '@/server/services/identity/link-account';
import { authenticateUser, staffSessionValid } from '@/server/services/users/users';

const credentials = z.object({ email: z.email(), password: z.string().min(1).max(500) });

/** Too many failed sign-ins for the account or the address; `code` carries the minutes to wait. */
export class TooManySignIns extends CredentialsSignin {
  constructor(waitMs: number) {
    super();
    this.code = `rate_limited:${Math.max(1, Math.ceil(waitMs / 60_000))}`;
  }
}
const MEMBER_PREFIX = 'member:';
const IDP_PREFIX = 'idp-';

export const listSignInProviders = (): Promise<SignInProvider[]> => cachedSignInProviders(getDb);

const providerIdOf = (provider: string | undefined) => (provider?.startsWith(IDP_PREFIX) ? Number(provider.slice(IDP_PREFIX.length)) : undefined);

async function link(providerId: number, sub: string, profile: Record<string, unknown>) {
  return linkAccount(await getDb(), { providerId, sub, userinfo: profile });
}

/**
 * Staff sign in with email and password; anyone may sign in through a project's OpenID Connect providers,
 * where `account_link` decides whom the account belongs to (a member, or a staff user). JWT sessions:
 * `sub` is the user id for staff and `member:<id>` for members.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(async (): Promise<NextAuthConfig> => {
  const idps = await listSignInProviders();
  return {
    trustHost: true,
    secret: getEnv().authSecret,
    session: { strategy: 'jwt', maxAge: 12 * 60 * 60 },
    pages: { signIn: '/login', error: '/login' },
    // A wrong password is an expected outcome, not a server error worth a stack trace in the log.
    logger: {
      error(error) {
        const type = (error as { type?: string }).type;
        if (error.name === 'CredentialsSignin' || type === 'CredentialsSignin' || type === 'AccessDenied') return;
        console.error('[auth]', error);
      },
    },
    providers: [
      Credentials({
        credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
        async authorize(raw, request) {
          const parsed = credentials.safeParse(raw);
          if (!parsed.success) throw new CredentialsSignin();
          const { email, password } = parsed.data;
          // Limited per account and per address before the password is even checked.
          const address = clientAddress(request.headers);
          const waitMs = await checkSignInAllowed(email, address);
          if (waitMs !== null) throw new TooManySignIns(waitMs);
          const user = await authenticateUser(await getDb(), email, password);
          if (!user) {
            await recordSignInFailure(email, address);
            throw new CredentialsSignin();
          }
          await recordSignInSuccess(email);
          return { id: String(user.id), email: user.email, name: user.name ?? user.email };
        },
      }),
      ...idps.map((p) => ({
        id: `${IDP_PREFIX}${p.id}`,
        name: p.display,
        type: 'oidc' as const,
        issuer: p.issuer,
        clientId: p.clientId,
        clientSecret: p.clientSecret,
        checks: ['pkce' as const, 'state' as const],
        // Discovery, JWKS, token and userinfo calls go through the outbound policy (CONTRACT 7).
        [customFetch]: guardedFetch,
        authorization: { params: { scope: 'openid email profile' } },
        profile: (profile: Record<string, unknown>) => ({
          id: String(profile.sub),
          email: typeof profile.email === 'string' ? profile.email : null,
          name: typeof profile.name === 'string' ? profile.name : null,
        }),
      })),
    ],
    callbacks: {
      /** account_link runs here; a refusal (no one in the project, a failing webhook) refuses the sign-in. */
      async signIn({ account, profile }) {
        const providerId = providerIdOf(account?.provider);
        if (providerId === undefined) return true;
        try {
          await link(providerId, account!.providerAccountId, (profile ?? {}) as Record<string, unknown>);
          return true;
        } catch (e) {
          console.warn(`[auth] sign-in through ${account!.provider} refused: ${(e as Error).message}`);
          return false;
        }
      },
      /**
       * Runs at sign-in and on every read of the session: a staff session ends as soon as its user is
       * deactivated everywhere or their password is reset (null signs them out).
       */
      async jwt({ token, account, profile, user }) {
        const providerId = providerIdOf(account?.provider);
        if (providerId !== undefined) {
          const linked = await link(providerId, account!.providerAccountId, (profile ?? {}) as Record<string, unknown>);
          token.sub = linked.kind === 'member' ? `${MEMBER_PREFIX}${linked.memberId}` : String(linked.userId);
        }
        if (user) token.signedInAt = Date.now();
        else if (token.sub && !token.sub.startsWith(MEMBER_PREFIX)) {
          const signedInAt = typeof token.signedInAt === 'number' ? token.signedInAt : undefined;
          if (!(await staffSessionValid(await getDb(), Number(token.sub), signedInAt))) return null;
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
});

/** Who is signed in: a staff user (`userId`), a member (`memberId`, through an identity provider), or nobody. */
export async function currentSignedIn(): Promise<{ userId?: number; memberId?: number }> {
  const id = (await auth())?.user?.id;
  if (!id) return {};
  const member = id.startsWith(MEMBER_PREFIX);
  const n = Number(member ? id.slice(MEMBER_PREFIX.length) : id);
  if (!Number.isInteger(n) || n <= 0) return {};
  return member ? { memberId: n } : { userId: n };
}

/** The signed-in staff user's id, or undefined (also for members). */
export const currentUserId = async () => (await currentSignedIn()).userId;
/** The signed-in member's id, when a member signed in through an identity provider. */
export const currentMemberId = async () => (await currentSignedIn()).memberId;
