import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { getDb, getDbHandle } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { runHousekeeping } from '@/server/jobs/housekeeping';
import { resetEnvForTests } from '@/server/env';
import { AppError } from '@/server/errors';
import { apiClient, newProject } from '@/server/testing/api';
import { until } from '@/server/testing/until';
import { checkSignInAllowed, limitStore, recordSignInFailure, recordSignInSuccess, resetLimitsForTests, TokenLimiter } from './rate-limits';

/** CONTRACT 1 limits, with small numbers: per token, per address for failed authentication, and sign-in. */
const saved = { ...process.env };
beforeAll(() => {
  process.env.RATE_LIMIT_PER_MINUTE = '5';
  process.env.AUTH_FAILURES_PER_MINUTE = '3';
  process.env.SIGN_IN_FAILURES_PER_15_MIN = '2';
  resetEnvForTests();
  resetLimitsForTests();
});
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
  resetLimitsForTests();
});

const from = (address: string, token: string | undefined) => {
  const api = apiClient(token);
  return { get: (path: string) => api.call('GET', path, { headers: { 'x-forwarded-for': address } }) };
};

describe('rate limits (CONTRACT 1)', () => {
  it('refuses a token over its limit per minute with 429 and Retry-After; other tokens go on', async () => {
    const { apiKey } = await newProject();
    const other = await newProject();
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.1', apiKey).get('/member')).status).toBe(200);
    const refused = await from('198.51.100.1', apiKey).get('/member');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await from('198.51.100.1', other.apiKey).get('/member')).status).toBe(200);
  });

  it('limits missing and wrong tokens per client address; a good token from that address still works', async () => {
    const { apiKey } = await newProject();
    const address = '198.51.100.20';
    expect((await from(address, undefined).get('/member')).status).toBe(401);
    expect((await from(address, 'cb_key_wrongwrongwrongwrongwrong').get('/member')).status).toBe(401);
    expect((await from(address, 'not a token at all').get('/member')).status).toBe(401);
    const refused = await from(address, 'cb_key_wrongwrongwrongwrongwrong').get('/member');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another address is not affected, and a valid token is not a failed authentication.
    expect((await from('198.51.100.21', 'cb_key_wrongwrongwrongwrongwrong').get('/member')).status).toBe(401);
    expect((await from(address, apiKey).get('/member')).status).toBe(200);
  });

  it('shares a token count between instances through the store: together they stop at the limit', async () => {
    const shared = await limitStore(10, 60, `shared-test-${Date.now()}`);
    const a = new TokenLimiter(10, shared);
    const b = new TokenLimiter(10, shared);
    for (let i = 0; i < 6; i++) await a.consume('key:1');
    for (let i = 0; i < 6; i++) await b.consume('key:1');
    // Each instance alone is under 10. Once both have shared their counts (every 250 ms) the total is 12:
    // the instance that pushed it over refuses at once, the other after its next sync (the bound of the
    // design: one sync interval's requests per instance past the limit). Waiting for the sync, not for a
    // fixed time: under load the store's answer can take longer than an interval (CI once, on PostgreSQL).
    await until('one instance to hear the shared count', () => a.isRefusing('key:1') || b.isRefusing('key:1'), 10_000);
    const [first, second] = await Promise.allSettled([a.consume('key:1'), b.consume('key:1')]);
    expect([first.status, second.status].filter((s) => s === 'rejected').length).toBeGreaterThanOrEqual(1);
    await until('both instances to hear the shared count', () => a.isRefusing('key:1') && b.isRefusing('key:1'), 10_000);
    await expect(a.consume('key:1')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(b.consume('key:1')).rejects.toBeInstanceOf(AppError);
    // On PostgreSQL the store is the shared `rate_limit` table; on PGlite (one process) memory.
    expect((await getDbHandle()).kind === 'postgres').toBe(shared.constructor.name === 'RateLimiterDrizzle');
  });

  it('limits admin sign-in failures per account and per address; success forgives the account', async () => {
    const email = `limited-${Date.now()}@example.org`;
    expect(await checkSignInAllowed(email, '198.51.100.30')).toBeNull();
    await recordSignInFailure(email, '198.51.100.30');
    await recordSignInFailure(email, '198.51.100.31');
    // Two failures for the account (from any address): refused, for up to 15 minutes.
    const wait = await checkSignInAllowed(email, '198.51.100.32');
    expect(wait).toBeGreaterThan(14 * 60_000);
    expect(wait).toBeLessThanOrEqual(15 * 60_000);
    await recordSignInSuccess(email);
    expect(await checkSignInAllowed(email, '198.51.100.32')).toBeNull();
    // Per address: five times the account limit, across accounts.
    for (let i = 0; i < 10; i++) await recordSignInFailure(`someone-${i}-${Date.now()}@example.org`, '198.51.100.40');
    expect(await checkSignInAllowed(`fresh-${Date.now()}@example.org`, '198.51.100.40')).toBeGreaterThan(0);
  });

  it('housekeeping deletes shared counters whose window ended over an hour ago, and keeps the rest', async () => {
    const db = await getDb();
    const now = new Date();
    const tag = `housekeeping-${Date.now()}`;
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    await db.insert(rateLimits).values([
      { key: `${tag}:old`, points: 3, expire: at(-61) },
      { key: `${tag}:recent`, points: 3, expire: at(-59) },
      { key: `${tag}:live`, points: 1, expire: at(1) },
    ]);
    const done = await runHousekeeping(db, now);
    expect(done.rateLimits).toBeGreaterThanOrEqual(1);
    const left = await db.select({ key: rateLimits.key }).from(rateLimits).where(inArray(rateLimits.key, [`${tag}:old`, `${tag}:recent`, `${tag}:live`]));
    expect(left.map((r) => r.key).sort()).toEqual([`${tag}:live`, `${tag}:recent`]);
  });
});
