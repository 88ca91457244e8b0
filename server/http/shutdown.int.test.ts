import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpApiClient, newProject } from '@/server/testing/api';
import { startNextProcess } from '@/server/testing/next-process';
import { startReceiver } from '@/server/testing/receiver';
import { until } from '@/server/testing/until';

/** What a new TCP connection to `port` meets: 'connected' or the error's code. */
const connect = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });

// A second process on the same database: PostgreSQL only (PGlite is this process's alone).
describe.runIf(Boolean(process.env.DATABASE_URL))('stopping the server (SIGTERM, PostgreSQL)', () => {
  it('refuses new connections, answers the request in flight with Connection: close, then closes the database and exits 0', async () => {
    // The member's `before` webhook holds the request in the server, mid-operation, for 1.5 s.
    const receiver = await startReceiver(() => ({ delayMs: 1500 }));
    const server = await startNextProcess();
    try {
      const { api, apiKey } = await newProject();
      await api.post('/webhook', { display: 'Gate', url: `${receiver.url}/gate`, triggers: [{ event: 'member_create', strategy: 'before' }] });
      const inFlight = httpApiClient(server.url, apiKey).post('/member', { name: 'Sent before the stop' });
      await receiver.waitFor(1);
      server.child.kill('SIGTERM');
      await until('the server to begin stopping', () => server.output.includes('SIGTERM: answering the requests in flight') || undefined);
      expect(await connect(server.port)).toBe('ECONNREFUSED');
      const res = await inFlight;
      expect(res.status, server.output).toBe(201);
      expect(res.headers.get('connection')).toBe('close');
      // It was written before the database closed.
      expect((await api.get(`/member/${res.body.id}`)).body.name).toBe('Sent before the stop');
      expect(await server.exitWithin(20_000), server.output).toBe(0);
      expect(server.output).not.toMatch(/were cut|database is busy or unreachable/);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await receiver.close();
    }
  }, 90_000);

  it('waits for a request no longer than CAREBASE_SHUTDOWN_GRACE_SECONDS, then cuts it and says so', async () => {
    // Held for 10 s, five times the grace: the process must not wait for it.
    const receiver = await startReceiver(() => ({ delayMs: 10_000 }));
    const server = await startNextProcess({ CAREBASE_SHUTDOWN_GRACE_SECONDS: '2' });
    try {
      const { api, apiKey } = await newProject();
      await api.post('/webhook', { display: 'Slow gate', url: `${receiver.url}/slow`, triggers: [{ event: 'member_create', strategy: 'before' }] });
      const inFlight = httpApiClient(server.url, apiKey)
        .post('/member', { name: 'Cut' })
        .then(
          (r) => r.status,
          (e: Error) => e.message,
        );
      await receiver.waitFor(1);
      const stoppedAt = Date.now();
      server.child.kill('SIGTERM');
      expect(await server.exitWithin(8_000), server.output).toBe(0);
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1_900);
      expect(server.output).toContain('SIGTERM: 1 request(s) still unanswered after 2 s (CAREBASE_SHUTDOWN_GRACE_SECONDS) were cut');
      // The client learns its connection was closed, with no answer; nothing was written.
      expect(typeof (await inFlight)).toBe('string');
      expect((await api.get('/member')).body).toEqual([]);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await receiver.close();
    }
  }, 90_000);
});
