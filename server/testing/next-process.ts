import { spawn } from 'node:child_process';
import { freePort } from './free-port';
import { until } from './until';

/**
 * `next start` on the production build in a process of its own, as a deployment runs it, on the test's
 * database (PostgreSQL only: PGlite belongs to the test process), answered once `/api/ready` says the
 * database is ok. `env` adds to or overrides the test's environment. By default there is no embedded
 * executor: it would claim other test files' deliveries in the shared database.
 */
export async function startNextProcess(env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn('node', ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      CAREBASE_AUTO_MIGRATE: 'false',
      NEXT_MANUAL_SIG_HANDLE: 'true',
      NEXT_TELEMETRY_DISABLED: '1',
      WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
      CAREBASE_EXECUTOR: 'inngest',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    /** Everything the process printed so far, stdout and stderr. */
    output: '',
    exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
    /** Its exit code, or 'still running' after `ms`. */
    exitWithin: (ms: number) => Promise.race([server.exited, new Promise<string>((r) => setTimeout(() => r('still running'), ms))]),
    /** SIGTERM, and SIGKILL if it has not exited 20 s later. */
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      if ((await server.exitWithin(20_000)) === 'still running') child.kill('SIGKILL');
    },
  };
  child.stdout.on('data', (c: Buffer) => (server.output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (server.output += c.toString()));
  await until(
    'the server to be ready',
    () =>
      fetch(`${server.url}/api/ready`)
        .then(async (r) => ((await r.json()) as { database?: string }).database === 'ok' || undefined)
        .catch(() => undefined),
    60_000,
  ).catch((e: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${e.message}\n${server.output}`);
  });
  return server;
}
