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
  },
};

// Executors claim every due delivery in the database they see; on a shared PostgreSQL they would take
// other files' deliveries, so their tests run after everything else.
const EXECUTOR_TESTS = ['server/executor/**/*.test.ts'];

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
          exclude: EXECUTOR_TESTS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { ...shared, name: 'executor', include: EXECUTOR_TESTS, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
