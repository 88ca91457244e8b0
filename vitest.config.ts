import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'],
    // next-auth imports `next/server` without an extension; let Vite resolve it.
    server: { deps: { inline: ['next-auth', '@auth/core'] } },
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    globalSetup: ['server/testing/global-setup.ts'],
    setupFiles: ['server/testing/setup.ts'],
    env: {
      NODE_ENV: 'test',
      PGLITE_DIR: 'memory://',
      AUTH_SECRET: 'test-secret-test-secret-test-secret',
      SEED_DEMO: 'false',
    },
  },
});
