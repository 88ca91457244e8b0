import { defineConfig } from '@playwright/test';

// E2E_PORT: .ci/run picks another when something already listens on 3100 (with CI=true Playwright will not reuse it).
const PORT = Number(process.env.E2E_PORT || 3100);
export const E2E = {
  // next-auth builds OpenID Connect callback URLs from Next's own request URL, which says localhost.
  baseURL: `http://localhost:${PORT}`,
  adminEmail: 'admin@e2e.test',
  adminPassword: 'e2e-admin-password',
  coordinatorEmail: 'coordinator@e2e.test',
  coordinatorPassword: 'e2e-coordinator-password',
  apiKey: 'cb_key_e2e_0123456789abcdefghijklmnop',
};

const serverEnv = {
  PGLITE_DIR: '.data-e2e',
  AUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e',
  ADMIN_EMAIL: E2E.adminEmail,
  ADMIN_PASSWORD: E2E.adminPassword,
  SEED_API_KEY: E2E.apiKey,
  SEED_DEMO: 'false',
  NEXT_TELEMETRY_DISABLED: '1',
  // The browser tests' webhook receivers listen on loopback, which production refuses by default.
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
};

/**
 * Browser tests run against a production build on its own PGlite dir, seeded by the CLI before the
 * server starts (the CLI refuses a dir that a running server holds). Debian's Chromium, no downloads.
 */
export default defineConfig({
  testDir: 'e2e',
  // One browser: the server is the bottleneck on two cores (two workers were no faster), and several
  // tests read project-wide lists that another test running at the same time would change.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: E2E.baseURL,
    screenshot: 'only-on-failure',
    // Traces cost every test their recording; CI keeps the failure screenshot and error context.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1360, height: 900 } } }],
  webServer: {
    command: [
      'rm -rf .data-e2e',
      'npx tsx scripts/ensure-build.ts',
      'npx tsx server/cli/carebase.ts seed',
      `npx tsx server/cli/carebase.ts user create --email ${E2E.coordinatorEmail} --password ${E2E.coordinatorPassword} --role coordinator --project 1`,
      // A keep-alive longer than any pause in a test: with Node's 5 s, a request sent on a connection the
      // server was closing met ECONNRESET (a loaded CI run, POST /api/v1/identity-provider).
      `NEXT_MANUAL_SIG_HANDLE=true npx next start -H 127.0.0.1 -p ${PORT} --keepAliveTimeout 65000`,
    ].join(' && '),
    url: `${E2E.baseURL}/login`,
    timeout: 400_000,
    reuseExistingServer: !process.env.CI,
    env: serverEnv,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
