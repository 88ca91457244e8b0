import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { resetEnvForTests } from '@/server/env';
import { workerStatus } from '@/server/events/work-notifier';
import { newProject } from '@/server/testing/api';
import { freePort } from '@/server/testing/free-port';
import { startNextProcess } from '@/server/testing/next-process';
import { startReceiver } from '@/server/testing/receiver';
import { until } from '@/server/testing/until';
import { executorThread, startExecutorThread, stopExecutorThread } from './thread';

/** Connections whose application_name marks them as a thread's pool (db/client.ts), for a process or any. */
async function threadConnections(pid?: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await (await getDb()).execute(sql`select count(*)::int as n from pg_stat_activity where application_name like ${`carebase-${pid ?? '%'}-thread-%`}`),
  );
  return row!.n;
}

const verify = (secret: string, r: { body: string; headers: Record<string, unknown> }) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

// The thread needs PostgreSQL: PGlite is one client, in the main thread (EXECUTOR_THREAD refuses it).
describe.runIf(Boolean(process.env.DATABASE_URL))('the executor on a thread of its own (PostgreSQL)', () => {
  afterAll(() => stopExecutorThread());

  it('starts with its own pool, is woken by commits made on the server thread, and signs what it sends', async () => {
    const receiver = await startReceiver();
    try {
      startExecutorThread();
      await until('the thread to start', () => executorThread());
      expect(workerStatus()).toContainEqual({ name: 'embedded', running: true });
      expect(await threadConnections(process.pid)).toBeGreaterThan(0);

      const { api } = await newProject();
      const hook = await api.post('/webhook', { display: 'thread', url: `${receiver.url}/thread`, triggers: [{ event: 'member_create' }] });
      // Commits a quarter of a second apart land anywhere in the thread's one-second idle poll: only a wake
      // from this thread's commit brings each in well under half of it.
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const committed = Date.now();
        await api.post('/member', { name: `m${i}` });
        await receiver.waitFor(i + 1);
        latencies.push(receiver.received[i]!.at - committed);
        await new Promise((r) => setTimeout(r, 230));
      }
      expect(latencies.sort((a, b) => a - b)[2], latencies.join(', ')).toBeLessThan(400);
      for (const r of receiver.received) expect(() => verify(hook.body.secret, r)).not.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('comes back when its thread ends, and when stopped hands back what it claimed and closes its pool', async () => {
    // Two slots and a receiver that holds each call: most of 12 deliveries are claimed and waiting.
    await stopExecutorThread();
    process.env.EXECUTOR_CONCURRENCY = '2';
    resetEnvForTests();
    const receiver = await startReceiver(() => ({ delayMs: 400 }));
    try {
      startExecutorThread();
      const first = await until('the thread to start', () => executorThread());
      await first.terminate();
      const second = await until('the thread to come back', () => executorThread());
      expect(second).not.toBe(first);

      const { api } = await newProject();
      await api.post('/webhook', { display: 'slow', url: `${receiver.url}/slow`, triggers: [{ event: 'member_create' }] });
      for (let i = 0; i < 12; i++) await api.post('/member', { name: `s${i}` });
      await receiver.waitFor(2);
      await stopExecutorThread();

      const db = await getDb();
      const rows = rowsOf<{ status: string; leased: boolean }>(
        await db.execute(sql`select d.status, coalesce(d.lease_until > now(), false) as leased from webhook_delivery d join webhook w on w.id = d.webhook_id where w.url = ${`${receiver.url}/slow`}`),
      );
      // What was sent finished; the rest is pending with no lease, for any instance to take at once.
      expect(rows.filter((r) => r.status === 'delivered').length).toBe(receiver.received.length);
      expect(rows.filter((r) => r.status === 'pending' && r.leased)).toEqual([]);
      expect(rows.filter((r) => r.status === 'pending').length).toBe(12 - receiver.received.length);
      expect(workerStatus().filter((w) => w.name === 'embedded')).toEqual([]);
      await until('the thread\'s connections to close', async () => (await threadConnections(process.pid)) === 0 || undefined, 5_000);
    } finally {
      delete process.env.EXECUTOR_CONCURRENCY;
      resetEnvForTests();
      await receiver.close();
    }
  }, 60_000);

  it('does not report running while its database cannot be reached, and starts once it can', async () => {
    await stopExecutorThread();
    const url = process.env.DATABASE_URL!;
    // A port nothing listens on: connecting is refused at once.
    const closed = await freePort();
    process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${closed}/test`;
    resetEnvForTests();
    const logged = vi.spyOn(console, 'error');
    try {
      // The thread copies the environment when it starts: the first try meets the closed port and ends.
      startExecutorThread();
      // Loading the thread took over 15 s once, on Node 24 with the machine's two cores oversubscribed.
      await until('the first try to end', () => logged.mock.calls.some(([m]) => String(m).includes('executor thread exited')) || undefined, 45_000);
      expect(executorThread()).toBeUndefined();
      expect(workerStatus()).toContainEqual({ name: 'embedded', running: false });
    } finally {
      logged.mockRestore();
      process.env.DATABASE_URL = url;
      resetEnvForTests();
    }
    // The next try (1 s after that exit) finds the database. On a loaded machine the thread can take many
    // seconds to load and connect; whatever happens, it is stopped here, so a late start cannot hold
    // connections open into the next test (which waits for every thread connection to close).
    try {
      await until('the thread to start', () => executorThread(), 30_000);
      expect(workerStatus()).toContainEqual({ name: 'embedded', running: true });
    } finally {
      await stopExecutorThread();
    }
  }, 90_000);

  it('runs on its thread in the production build (next start), from the build, and ends with the server on SIGTERM', async () => {
    const receiver = await startReceiver();
    const threadsFile = path.join(os.tmpdir(), `carebase-worker-threads-${process.pid}-${Date.now()}.jsonl`);
    let server: Awaited<ReturnType<typeof startNextProcess>> | undefined;
    try {
      server = await startNextProcess({
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.resolve('server/testing/worker-threads-probe.cjs')}`,
        WORKER_THREADS_FILE: threadsFile,
        EXECUTOR_THREAD: 'true',
        CAREBASE_EXECUTOR: 'embedded',
      });
      const { url } = server;
      const ready = await until(
        'the server to report its executor running',
        () =>
          fetch(`${url}/api/ready`)
            .then(async (r) => ((await r.json()) as { executor?: string }).executor === 'running' || undefined)
            .catch(() => undefined),
        60_000,
      ).catch((e: Error) => new Error(`${e.message}\n${server!.output}`));
      expect(ready, server.output).toBe(true);
      // `next start` may serve from a process of its own: any thread's pool will do (this file's is stopped).
      expect(await threadConnections()).toBeGreaterThan(0);
      // One worker thread, the build's own chunk: from the sources it would be an eval worker loading tsx (a
      // dev dependency), with tsx's module-hooks thread as a second.
      const workers = fs.readFileSync(threadsFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { workerData: string[] });
      expect(workers, JSON.stringify(workers)).toHaveLength(1);
      expect(workers[0]!.workerData).toContain('__turbopack_globals__');

      const { api } = await newProject();
      const hook = await api.post('/webhook', { display: 'served', url: `${receiver.url}/served`, triggers: [{ event: 'member_create' }] });
      await api.post('/member', { name: 'served' });
      await receiver.waitFor(1, 10_000);
      expect(() => verify(hook.body.secret, receiver.received[0]!)).not.toThrow();

      server.child.kill('SIGTERM');
      expect(await server.exitWithin(20_000), server.output).toBe(0);
      await until('the thread\'s connections to close', async () => (await threadConnections()) === 0 || undefined, 5_000);
    } finally {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      fs.rmSync(threadsFile, { force: true });
      await receiver.close();
    }
  }, 90_000);
});
