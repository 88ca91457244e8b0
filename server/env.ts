import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * The only reader of process.env. Validated once, on first use (the server reads it at boot), so a bad
 * value stops the process at start with a message naming the variable.
 */
const DEV_SECRET = 'carebase-development-secret-do-not-use-in-production';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const flag = (fallback: 'true' | 'false') => z.preprocess(emptyToUndefined, z.enum(['true', 'false', '1', '0']).default(fallback).transform((v) => v === 'true' || v === '1'));

/** A range is "too wide" when it opens a large share of all addresses (0.0.0.0/0 opens all of them); the
 *  widest private ranges, 10.0.0.0/8 and fc00::/7, are still allowed. */
const MIN_PREFIX = { ipv4: 8, ipv6: 7 } as const;
export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const cidrList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('')
    .transform((value, ctx) => {
      const out: Cidr[] = [];
      for (const text of value.split(',').map((c) => c.trim()).filter(Boolean)) {
        try {
          out.push(ipaddr.parseCIDR(text));
        } catch {
          ctx.addIssue({ code: 'custom', message: `"${text}" is not an address range like 10.20.0.0/16 or fd00::/8` });
        }
      }
      return out;
    }),
);

/**
 * The shortest `EXECUTOR_LEASE_MS` production accepts: a delivery's call is cut at half its lease
 * (`callTimeoutFor`), and the contract gives a receiver 15 s.
 */
export const MIN_PRODUCTION_LEASE_MS = 30_000;

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
    // A PGlite data dir dump (dumpDataDir's tar) an in-memory database starts from instead of initdb.
    PGLITE_TEMPLATE: z.preprocess(emptyToUndefined, z.string().optional()),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
    ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().default('admin@carebase.local')),
    ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8).optional()),
    SEED_API_KEY: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
    SEED_DEMO: flag('true'),
    CAREBASE_AUTO_MIGRATE: flag('true'),
    CAREBASE_PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    CAREBASE_TRUST_PROXY: flag('false'),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(6_000),
    AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    SIGN_IN_FAILURES_PER_15_MIN: z.coerce.number().int().min(1).default(10),
    WEBHOOK_ALLOWED_CIDRS: cidrList,
    CAREBASE_BENCH_ROUTES: flag('false'),
    EXECUTOR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    // At most this many of the executor's slots go to one webhook, so one slow or busy receiver leaves
    // the rest for the others (and sees a bounded number of connections).
    EXECUTOR_CONCURRENCY_PER_WEBHOOK: z.coerce.number().int().min(1).max(256).default(8),
    EXECUTOR_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
    // The embedded executor on a thread of its own with its own pool (PostgreSQL only) instead of the
    // server's event loop: requests wait less behind a delivery backlog, for about 100 MB more memory
    // (decision 0014, thirtieth pass).
    EXECUTOR_THREAD: flag('false'),
    // The executor thread's own PostgreSQL pool (DB_POOL_MAX is the requests').
    EXECUTOR_DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    INNGEST_DEV: z.preprocess(emptyToUndefined, z.string().optional()),
    INNGEST_EVENT_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    INNGEST_SIGNING_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    CAREBASE_EXECUTOR: z.preprocess(emptyToUndefined, z.enum(['embedded', 'inngest']).default('embedded')),
    // How far V8 lets the heap grow past what survived the last full collection before the next one
    // (V8's --heap-growing-percent, set at boot; 0, the default, leaves V8's own factor). See server/heap.ts.
    CAREBASE_HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(1000).default(0),
    // On SIGTERM/SIGINT, how long the server waits for the requests it is serving before it closes the
    // database under them (Docker kills 10 s after its SIGTERM; Kubernetes 30 s by default).
    CAREBASE_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(8),
  })
  .superRefine((env, ctx) => {
    if (!env.DATABASE_URL && env.EXECUTOR_THREAD) {
      ctx.addIssue({
        code: 'custom',
        path: ['EXECUTOR_THREAD'],
        message: 'needs DATABASE_URL: the embedded database (PGlite) is one client, on the server\'s own thread',
      });
    }
    if (env.NODE_ENV !== 'production') return;
    // Tests use shorter leases to see a crash recovered; their calls are cut sooner.
    if (env.EXECUTOR_LEASE_MS < MIN_PRODUCTION_LEASE_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['EXECUTOR_LEASE_MS'],
        message: `at least ${MIN_PRODUCTION_LEASE_MS} in production: a delivery may take 15 s to answer, and its call is cut at half the lease`,
      });
    }
    for (const [range, bits] of env.WEBHOOK_ALLOWED_CIDRS) {
      if (bits < MIN_PREFIX[range.kind()]) {
        ctx.addIssue({
          code: 'custom',
          path: ['WEBHOOK_ALLOWED_CIDRS'],
          message: `${range.toString()}/${bits} opens (nearly) every address, cloud metadata included; name the private ranges your receivers use`,
        });
      }
    }
  })
  .transform((env) => ({
    ...env,
    isProduction: env.NODE_ENV === 'production',
    authSecret: env.AUTH_SECRET ?? DEV_SECRET,
  }));

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Validates an environment; throws an Error whose message names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  if (parsed.data.isProduction && !parsed.data.AUTH_SECRET && source.NEXT_PHASE !== 'phase-production-build') {
    throw new Error('Invalid environment:\n  AUTH_SECRET: required in production (32+ random characters)');
  }
  return parsed.data;
}

export function getEnv(): Env {
  return (cached ??= parseEnv(process.env));
}

/** For CLI and tests that set variables after import. */
export function resetEnvForTests(): void {
  cached = undefined;
}
