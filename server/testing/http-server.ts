import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootServer } from '@/server/boot';

/**
 * The production build served over real HTTP on 127.0.0.1, inside the test process: Next's own request
 * handling (bodies as streams, headers, 405s, Connection handling) with the test's database, so tests can
 * set up rows directly and then talk to the server as a client would. Background work stays off unless
 * asked for (on a shared PostgreSQL it would take other test files' deliveries).
 */
export async function startHttpServer(opts: { background?: boolean } = {}) {
  await bootServer({ seed: false, background: opts.background ?? false, signals: false });
  const next = (await import('next')).default;
  const app = next({ dev: false, dir: process.cwd(), quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
