import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = {
  // next-auth imports `next/server` without an extension; let Vite resolve it.
  server: { deps: { inline: ['next-auth', '@auth/core'] } },
  testTimeout: 20_000,
  hookTimeout: 60_000,
  setupFiles: ['server/testing/setup.ts'],
  env: {
    NODE_ENV: 'test' as const,
    PGLITE_DIR: 'memory://',
    AUTH_SECRET: 'test-secret-test-secret-test-secret',
    SEED_DEMO: 'false',
    // Tests send thousands of requests from one address and token; the limits' own tests set them low.
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAILURES_PER_MINUTE: '1000000',
  },
};

// Executors claim every due delivery in the database they see; on a shared PostgreSQL they would take
// other files' deliveries. So each file that runs one goes after everything else, one at a time: the
// delivery executor (in process, then on its thread), the transition scheduler, and last the chaos test, which also measures how long
// requests wait (two cores: another file's CPU would be its latency).
const EXECUTOR_FILES = ['server/executor/executor.int.test.ts', 'server/executor/thread.int.test.ts', 'server/executor/scheduler.int.test.ts', 'server/executor/chaos.int.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['server/testing/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'main',
          include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'app/**/*.test.ts', 'inngest/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: EXECUTOR_FILES,
          sequence: { groupOrder: 0 },
        },
      },
      ...EXECUTOR_FILES.map((file, i) => ({
        extends: true as const,
        test: { ...shared, name: file.split('/').at(-1)!.replace('.int.test.ts', ''), include: [file], sequence: { groupOrder: i + 1 } },
      })),
    ],
  },
});
