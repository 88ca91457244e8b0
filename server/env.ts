import { z } from 'zod';

/**
 * The only reader of process.env. Validated once, on first use, so a bad value stops the process at boot
 * with a message naming the variable.
 */
const DEV_SECRET = 'carebase-development-secret-do-not-use-in-production';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    PGLITE_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
    AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
    ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().default('admin@carebase.local')),
    ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8).optional()),
    SEED_API_KEY: z.preprocess(emptyToUndefined, z.string().min(16).optional()),
    SEED_DEMO: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
    CAREBASE_AUTO_MIGRATE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
    WEBHOOK_ALLOWED_CIDRS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('')
        .transform((v) => v.split(',').map((c) => c.trim()).filter(Boolean)),
    ),
    EXECUTOR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    EXECUTOR_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
    INNGEST_DEV: z.preprocess(emptyToUndefined, z.string().optional()),
    INNGEST_EVENT_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    INNGEST_SIGNING_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
    CAREBASE_EXECUTOR: z.preprocess(emptyToUndefined, z.enum(['embedded', 'inngest']).default('embedded')),
  })
  .transform((env) => ({
    ...env,
    isProduction: env.NODE_ENV === 'production',
    authSecret: env.AUTH_SECRET ?? DEV_SECRET,
  }));

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  if (parsed.data.isProduction && !parsed.data.AUTH_SECRET && process.env.NEXT_PHASE !== 'phase-production-build') {
    throw new Error('Invalid environment:\n  AUTH_SECRET: required in production (32+ random characters)');
  }
  cached = parsed.data;
  return cached;
}

/** For CLI and tests that set variables after import. */
export function resetEnvForTests(): void {
  cached = undefined;
}
