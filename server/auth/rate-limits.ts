import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { getDbHandle } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { getEnv } from '@/server/env';
import { AppError, errorSummary } from '@/server/errors';

/**
 * The limits of CONTRACT 1 and the admin sign-in, with rate-limiter-flexible. With PostgreSQL the counts
 * live in the `rate_limit` table, so every instance sees the same ones; the embedded PGlite serves one
 * process, so memory is enough there.
 *
 * - Requests per token (RATE_LIMIT_PER_MINUTE, 0 = off). Every API request counts, so a database write
 *   per request would cost more than the request: each instance counts in memory, exactly, and adds its
 *   counts to the shared counter every 250 ms; when the shared total reaches the limit, every instance
 *   refuses the token until the window ends. Across instances the limit is therefore approximate: an
 *   instance may admit one sync interval's requests past it before it hears of the others' counts.
 * - Failed authentication per client address (AUTH_FAILURES_PER_MINUTE): counted in the shared store
 *   on each failure (rare, unless someone is guessing keys).
 * - Admin sign-in failures (SIGN_IN_FAILURES_PER_15_MIN) per account, and five times that per address.
 */
const SYNC_MS = 250;

export const rateLimited = (msBeforeNext: number, what: string) =>
  new AppError('rate_limited', `Too many ${what}; try again in ${Math.max(1, Math.ceil(msBeforeNext / 1000))} s`, undefined, {
    retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });

/** The library's store for a limit: the database's `rate_limit` table on PostgreSQL, else memory. */
export async function limitStore(points: number, duration: number, prefix: string): Promise<RateLimiterAbstract> {
  const handle = await getDbHandle();
  if (handle.kind !== 'postgres') return new RateLimiterMemory({ points, duration, keyPrefix: prefix });
  return new RateLimiterDrizzle({
    storeClient: handle.db,
    schema: rateLimits,
    points,
    duration,
    keyPrefix: prefix,
    // Once a key is over, refuse it from memory without asking the database again.
    inMemoryBlockOnConsumed: points + 1,
    inMemoryBlockDuration: duration,
    // The library would delete old counters from its own timer, which outlives the pool at shutdown
    // ("Failed to clear expired records: CONNECTION_ENDED"); housekeeping deletes them instead.
    clearExpiredByTimeout: false,
  });
}

/** Counts locally and exactly; shares the counts through the store in batches (see above). */
export class TokenLimiter {
  private readonly pending = new Map<string, number>();
  private readonly blockedUntil = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  private readonly local: RateLimiterMemory;

  constructor(
    perMinute: number,
    private readonly shared: RateLimiterAbstract | null,
  ) {
    this.local = new RateLimiterMemory({ points: perMinute, duration: 60 });
  }

  /** Whether the shared count has closed this key to every request here until its window ends. */
  isRefusing(key: string): boolean {
    return (this.blockedUntil.get(key) ?? 0) > Date.now();
  }

  async consume(key: string): Promise<void> {
    const until = this.blockedUntil.get(key);
    if (until !== undefined) {
      if (until > Date.now()) throw rateLimited(until - Date.now(), 'requests for this token');
      this.blockedUntil.delete(key);
    }
    try {
      await this.local.consume(key);
    } catch (e) {
      if (e instanceof RateLimiterRes) throw rateLimited(e.msBeforeNext, 'requests for this token');
      throw e;
    }
    if (!this.shared) return;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.timer ??= setTimeout(() => void this.flush(), SYNC_MS).unref();
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    await Promise.all(
      batch.map(async ([key, points]) => {
        try {
          const res = await this.shared!.consume(key, points);
          // The shared window is full: the next request anywhere would pass the limit.
          if (res.remainingPoints === 0) this.blockedUntil.set(key, Date.now() + res.msBeforeNext);
        } catch (e) {
          if (e instanceof RateLimiterRes) this.blockedUntil.set(key, Date.now() + e.msBeforeNext);
          // The store being unreachable must not take the API down with it: local counts still hold.
          else console.warn(`[limits] could not share request counts: ${errorSummary(e)}`);
        }
      }),
    );
  }
}

type Limits = {
  token: TokenLimiter | null;
  authFailures: RateLimiterAbstract;
  signInAccount: RateLimiterAbstract;
  signInAddress: RateLimiterAbstract;
};

let limits: Promise<Limits> | undefined;

function getLimits(): Promise<Limits> {
  return (limits ??= (async () => {
    const env = getEnv();
    const perMinute = env.RATE_LIMIT_PER_MINUTE;
    const signIn = env.SIGN_IN_FAILURES_PER_15_MIN;
    return {
      token: perMinute > 0 ? new TokenLimiter(perMinute, (await getDbHandle()).kind === 'postgres' ? await limitStore(perMinute, 60, 'token') : null) : null,
      authFailures: await limitStore(env.AUTH_FAILURES_PER_MINUTE, 60, 'auth-fail'),
      signInAccount: await limitStore(signIn, 900, 'signin-account'),
      signInAddress: await limitStore(signIn * 5, 900, 'signin-address'),
    };
  })().catch((e: unknown) => {
    limits = undefined;
    throw e;
  }));
}

/** Tests that change the limits' variables start over with new limiters. */
export function resetLimitsForTests(): void {
  limits = undefined;
}

/** Counts one request of a token; 429 when it is over RATE_LIMIT_PER_MINUTE. */
export async function consumeTokenRequest(credential: string): Promise<void> {
  await (await getLimits()).token?.consume(credential);
}

/** Counts a failed authentication from an address: the 401 to answer, or 429 once it is over the limit. */
export async function failedAuthentication(address: string, error: AppError): Promise<AppError> {
  try {
    await (await getLimits()).authFailures.consume(address);
    return error;
  } catch (e) {
    if (e instanceof RateLimiterRes) return rateLimited(e.msBeforeNext, 'failed authentications from this address');
    throw e;
  }
}

/** Before checking a password: refuses an account or address that failed too often (429-like refusal). */
export async function checkSignInAllowed(email: string, address: string): Promise<number | null> {
  const { signInAccount, signInAddress } = await getLimits();
  const [account, from] = await Promise.all([signInAccount.get(email.toLowerCase()), signInAddress.get(address)]);
  const over = [account && account.consumedPoints >= getEnv().SIGN_IN_FAILURES_PER_15_MIN ? account.msBeforeNext : 0, from && from.consumedPoints >= getEnv().SIGN_IN_FAILURES_PER_15_MIN * 5 ? from.msBeforeNext : 0];
  const wait = Math.max(...over);
  return wait > 0 ? wait : null;
}

/** After a wrong password: counts it for the account and the address. */
export async function recordSignInFailure(email: string, address: string): Promise<void> {
  const { signInAccount, signInAddress } = await getLimits();
  await Promise.all([signInAccount.penalty(email.toLowerCase()), signInAddress.penalty(address)]);
}

/** After a successful sign-in: the account's failures are forgiven (the address's are not). */
export async function recordSignInSuccess(email: string): Promise<void> {
  await (await getLimits()).signInAccount.delete(email.toLowerCase());
}
