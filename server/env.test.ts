import { describe, expect, it } from 'vitest';
import { AFTER_TIMEOUT_MS } from '@/server/webhooks/send';
import { callTimeoutFor } from '@/server/jobs/attempt-delivery';
import { MIN_PRODUCTION_LEASE_MS, parseEnv } from './env';

const base = { NODE_ENV: 'production', AUTH_SECRET: 'a-production-secret-of-enough-length' };

describe('environment validation at boot (defect 9)', () => {
  it('stops on a range that opens every address in production, naming the variable', () => {
    for (const value of ['0.0.0.0/0', '::/0', '10.0.0.0/8,0.0.0.0/1']) {
      expect(() => parseEnv({ ...base, WEBHOOK_ALLOWED_CIDRS: value })).toThrow(/WEBHOOK_ALLOWED_CIDRS: .*opens \(nearly\) every address/);
    }
    expect(parseEnv({ ...base, WEBHOOK_ALLOWED_CIDRS: '10.20.0.0/16, fd00::/8' }).WEBHOOK_ALLOWED_CIDRS.map(([r, b]) => `${r.toString()}/${b}`)).toEqual(['10.20.0.0/16', 'fd00::/8']);
  });

  it('stops on a malformed range in any environment, naming the variable and the value', () => {
    for (const env of [base, { NODE_ENV: 'development' }]) {
      expect(() => parseEnv({ ...env, WEBHOOK_ALLOWED_CIDRS: '10.20.0.0/16,not-a-range' })).toThrow('WEBHOOK_ALLOWED_CIDRS: "not-a-range" is not an address range');
      expect(() => parseEnv({ ...env, WEBHOOK_ALLOWED_CIDRS: '10.0.0.1/33' })).toThrow('WEBHOOK_ALLOWED_CIDRS');
    }
  });

  it('needs AUTH_SECRET in production and reads the limits and time limits', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow('AUTH_SECRET: required in production');
    const env = parseEnv({ ...base, DB_STATEMENT_TIMEOUT_MS: '2500', RATE_LIMIT_PER_MINUTE: '0', CAREBASE_TRUST_PROXY: '1', CAREBASE_PUBLIC_URL: 'https://care.example.org' });
    expect(env).toMatchObject({ DB_STATEMENT_TIMEOUT_MS: 2500, RATE_LIMIT_PER_MINUTE: 0, CAREBASE_TRUST_PROXY: true, CAREBASE_PUBLIC_URL: 'https://care.example.org' });
    expect(() => parseEnv({ ...base, CAREBASE_PUBLIC_URL: 'ftp://x' })).toThrow('CAREBASE_PUBLIC_URL');
  });

  it('keeps the executor lease at 30 s or more in production, so a call may take the 15 s the contract gives it', () => {
    expect(() => parseEnv({ ...base, EXECUTOR_LEASE_MS: '20000' })).toThrow(/EXECUTOR_LEASE_MS: at least 30000 in production/);
    expect(parseEnv({ ...base, EXECUTOR_LEASE_MS: '30000' }).EXECUTOR_LEASE_MS).toBe(30_000);
    expect(parseEnv({ ...base }).EXECUTOR_LEASE_MS).toBe(60_000);
    // Tests and development may use a short lease (the crash tests take 2 s); calls are then cut at half of it.
    expect(parseEnv({ NODE_ENV: 'test', EXECUTOR_LEASE_MS: '2000' }).EXECUTOR_LEASE_MS).toBe(2_000);
    // The minimum is what leaves a call the contract's whole 15 s, and no more.
    expect(callTimeoutFor(MIN_PRODUCTION_LEASE_MS)).toBe(AFTER_TIMEOUT_MS);
    expect(callTimeoutFor(MIN_PRODUCTION_LEASE_MS - 2)).toBeLessThan(AFTER_TIMEOUT_MS);
    expect(callTimeoutFor(2_000)).toBe(1_000);
  });

  it('runs the executor on a thread of its own when asked, on PostgreSQL only', () => {
    const pg = { ...base, DATABASE_URL: 'postgres://carebase@db:5432/carebase' };
    expect(parseEnv(pg).EXECUTOR_THREAD).toBe(false);
    expect(parseEnv({ ...pg, EXECUTOR_THREAD: 'true' }).EXECUTOR_THREAD).toBe(true);
    expect(parseEnv({ ...pg, EXECUTOR_THREAD: '0' }).EXECUTOR_THREAD).toBe(false);
    expect(() => parseEnv({ ...base, EXECUTOR_THREAD: 'true' })).toThrow(/EXECUTOR_THREAD: needs DATABASE_URL/);
    expect(() => parseEnv({ ...pg, EXECUTOR_THREAD: 'yes' })).toThrow(/EXECUTOR_THREAD/);
    expect(parseEnv(pg).EXECUTOR_DB_POOL_MAX).toBe(10);
  });
});
