import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { OWN_DATABASE_FILES, ownDatabaseUrl, testFileName } from './server/testing/own-databases.ts';

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

const TEST_DIRS = ['server', 'db', 'app', 'inngest', 'scripts', 'bench'];
const PG_URL = process.env.DATABASE_URL;
// The chaos test terminates backends and times requests (two cores: another file's CPU would be its latency): last, alone.
const ALONE_FILES = ['server/executor/chaos.int.test.ts'];

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
          include: TEST_DIRS.map((dir) => `${dir}/**/*.int.test.ts`),
          exclude: [...OWN_DATABASE_FILES, ...ALONE_FILES],
          sequence: { groupOrder: 0 },
        },
      },
      // The tests that need no database (not *.int.test.ts) skip the setup that opens and migrates one:
      // it was most of their time (2-3 s a file of a 0.1-0.5 s test, on an idle machine).
      {
        extends: true,
        test: {
          ...shared,
          setupFiles: [],
          name: 'unit',
          include: TEST_DIRS.map((dir) => `${dir}/**/*.test.ts`),
          exclude: TEST_DIRS.map((dir) => `${dir}/**/*.int.test.ts`),
          sequence: { groupOrder: 0 },
        },
      },
      // On PostgreSQL each of these files runs on a database of its own (server/testing/own-databases.ts).
      ...OWN_DATABASE_FILES.map((file) => ({
        extends: true as const,
        test: {
          ...shared,
          env: { ...shared.env, ...(PG_URL ? { DATABASE_URL: ownDatabaseUrl(PG_URL, file) } : {}) },
          name: testFileName(file),
          include: [file],
          sequence: { groupOrder: 0 },
        },
      })),
      ...ALONE_FILES.map((file, i) => ({
        extends: true as const,
        test: { ...shared, name: testFileName(file), include: [file], sequence: { groupOrder: i + 1 } },
      })),
    ],
  },
});
