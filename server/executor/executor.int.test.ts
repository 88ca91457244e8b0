import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/server/env';
import { newProject } from '@/server/testing/api';
import { startReceiver } from '@/server/testing/receiver';
import { until } from '@/server/testing/until';
import { sql } from 'drizzle-orm';
import { getDbHandle } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { startEmbeddedExecutor, stopExecutor } from '.';
import { EmbeddedExecutor } from './embedded';

afterAll(async () => {
  await stopExecutor();
});

describe('embedded executor', () => {
  it('delivers each commit promptly, and never runs more deliveries at once than its concurrency', async () => {
    await stopExecutor();
    process.env.EXECUTOR_CONCURRENCY = '4';
    resetEnvForTests();
    startEmbeddedExecutor();
    // A receiver that holds each request 150 ms and counts how many it holds at the same time.
    let open = 0;
    let peak = 0;
    const arrivals: { name: string; id: string; at: number }[] = [];
    const server = http.createServer((req, res) => {
      open++;
      peak = Math.max(peak, open);
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        arrivals.push({ name: (JSON.parse(body) as { responseData: { name: string } }).responseData.name, id: String(req.headers['webhook-id']), at: Date.now() });
        setTimeout(() => {
          open--;
          res.end('{"ok":true}');
        }, 150);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { api } = await newProject();
      for (let i = 0; i < 3; i++) await api.post('/webhook', { display: `w${i}`, url: `${url}/embedded/${i}`, triggers: [{ event: 'member_create' }] });
      const committedAt = new Map<string, number>();
      for (let i = 0; i < 8; i++) {
        await api.post('/member', { name: `m${i}` });
        committedAt.set(`m${i}`, Date.now());
      }
      for (const deadline = Date.now() + 10_000; arrivals.length < 24 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      // Every delivery arrived once, 24 of them through 4 slots, and promptly: alone on a slow machine the
      // latest took 1,148 ms (900 of them the receiver's own queue: 24 / 4 × 150 ms), but under the whole CI
      // suite on two cores 2,156 and 2,913 ms. An executor that waited for its 1 s idle poll between rounds
      // instead of taking the next claim at once would need 6 rounds × (1 s + 150 ms): the bound is under that.
      expect(new Set(arrivals.map((a) => a.id)).size).toBe(24);
      for (const a of arrivals) expect(a.at - committedAt.get(a.name)!, `${a.name} was late`).toBeLessThan(5_000);
      expect(peak).toBeLessThanOrEqual(4);
      expect(peak).toBeGreaterThanOrEqual(2);
    } finally {
      server.closeAllConnections();
      server.close();
      await stopExecutor();
      delete process.env.EXECUTOR_CONCURRENCY;
      resetEnvForTests();
    }
  });
});

describe('statistics', () => {
  // PGlite has no autovacuum to stand in for: the job does nothing there.
  it.skipIf(!process.env.DATABASE_URL)('analyzes a table that changed within 10 s of the change, with no backlog to ask for it', async () => {
    // Statements planned while a table was empty scan it whole until its next ANALYZE: looking once a
    // minute, a fresh database's first minute read 31.6 million rows of deliveries by sequential scans.
    await stopExecutor();
    resetEnvForTests();
    const { db } = await getDbHandle();
    const table = `stats_cadence_${process.pid}`;
    await db.execute(sql.raw(`create table ${table} (id int primary key) with (autovacuum_enabled = false)`));
    try {
      startEmbeddedExecutor();
      // On one connection: a backend that reported less than a second ago holds its counts up to 10 s.
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`insert into ${table} select g from generate_series(1, 1000) g`));
        await tx.execute(sql`select pg_stat_force_next_flush()`);
      });
      const changedAt = Date.now();
      await until(`${table} analyzed`, async () => {
        const [row] = rowsOf<{ analyzed: boolean }>(await db.execute(sql`select last_analyze is not null as analyzed from pg_stat_user_tables where relname = ${table}`));
        return row?.analyzed;
      });
      // The look every 10 s, and a second for the statistics views and the ANALYZE itself.
      expect(Date.now() - changedAt).toBeLessThan(11_000);
    } finally {
      await stopExecutor();
      await db.execute(sql.raw(`drop table if exists ${table}`));
    }
  });
});

describe('fairness across webhooks', () => {
  it("delivers another webhook's event within 1 s while one webhook's slow receiver has a backlog, and holds that receiver to its share of slots", async () => {
    await stopExecutor();
    process.env.EXECUTOR_CONCURRENCY = '4';
    process.env.EXECUTOR_CONCURRENCY_PER_WEBHOOK = '2';
    resetEnvForTests();
    // The busy webhook's receiver answers after 300 ms; the other answers at once.
    let open = 0;
    let peak = 0;
    const slow = http.createServer((req, res) => {
      open++;
      peak = Math.max(peak, open);
      req.resume();
      req.on('end', () => setTimeout(() => (open--, res.end('{}')), 300));
    });
    let otherArrived = 0;
    const fast = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => ((otherArrived = Date.now()), res.end('{}')));
    });
    await Promise.all([slow, fast].map((srv) => new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))));
    const urlOf = (srv: http.Server) => `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    try {
      const { api } = await newProject();
      await api.post('/webhook', { display: 'busy', url: `${urlOf(slow)}/busy`, triggers: [{ event: 'member_create' }] });
      await api.post('/webhook', { display: 'other', url: `${urlOf(fast)}/other`, triggers: [{ event: 'member_update' }] });
      // 30 deliveries for the busy webhook: 4.5 s of work at 2 at a time (2.3 s even with all 4 slots).
      const members: { id: number }[] = [];
      for (let i = 0; i < 30; i++) members.push((await api.post('/member', { name: `busy ${i}` })).body as { id: number });
      startEmbeddedExecutor();
      await new Promise((r) => setTimeout(r, 300));
      await api.patch(`/member/${members[0]!.id}`, { name: 'changed' });
      const committedAt = Date.now();
      for (const deadline = Date.now() + 10_000; !otherArrived && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 10));
      expect(otherArrived, 'the other webhook got its delivery').toBeGreaterThan(0);
      expect(otherArrived - committedAt).toBeLessThan(1_000);
      expect(peak).toBeLessThanOrEqual(2);
      expect(peak).toBe(2);
    } finally {
      await stopExecutor();
      for (const srv of [slow, fast]) {
        srv.closeAllConnections();
        srv.close();
      }
      delete process.env.EXECUTOR_CONCURRENCY;
      delete process.env.EXECUTOR_CONCURRENCY_PER_WEBHOOK;
      resetEnvForTests();
    }
  });
});

describe('claiming ahead', () => {
  /** A project with one webhook to `url` and `n` member_create deliveries pending for it. */
  async function pendingFor(url: string, n: number) {
    const { api, db } = await newProject();
    const webhook = (await api.post('/webhook', { display: 'ahead', url, triggers: [{ event: 'member_create' }] })).body as { id: number };
    for (let i = 0; i < n; i++) await api.post('/member', { name: `ahead ${i}` });
    const count = async (where: string) =>
      rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from webhook_delivery where webhook_id = ${webhook.id} and ${sql.raw(where)}`))[0]!.n;
    const attempts = async () =>
      rowsOf<{ error: string | null; durationMs: number }>(
        await db.execute(sql`select a.error, a.duration_ms as "durationMs" from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id where d.webhook_id = ${webhook.id} order by a.id`),
      );
    return { count, attempts };
  }

  it('hands back what it claimed ahead when it stops, so another instance starts on it at once', async () => {
    await stopExecutor();
    const receiver = await startReceiver(() => ({ delayMs: 300 }));
    const a = new EmbeddedExecutor({ concurrency: 2, perWebhook: 2, leaseMs: 60_000 });
    let b: EmbeddedExecutor | undefined;
    try {
      const { count } = await pendingFor(`${receiver.url}/ahead`, 6);
      a.start();
      await receiver.waitFor(2);
      await a.stop();
      // Two were sent; what it had claimed beyond them carries no lease any more.
      expect(await count(`status = 'delivered'`)).toBe(2);
      expect(await count(`status = 'pending' and lease_until is not null`)).toBe(0);
      b = new EmbeddedExecutor({ concurrency: 2, perWebhook: 2, leaseMs: 60_000 });
      b.start();
      await receiver.waitFor(6, 5_000);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(6);
    } finally {
      await a.stop();
      await b?.stop();
      await receiver.close();
    }
  });

  it('hands back a delivery that waited a quarter of its lease in the queue, so waiting does not push a call past its lease', async () => {
    await stopExecutor();
    // Each call takes 1.2 s of a 2 s lease: a delivery queued behind one would end its call 2.4 s after the
    // claim, after its lease, and the other instance would have sent it again by then. Started within a
    // quarter of the lease, a call ends by 1.7 s: 300 ms to write its outcome. (At 700 ms of a 1 s lease
    // that margin was 50 ms, and a loaded CI machine once wrote an outcome later than that.)
    // By default a call is cut at half its lease (the test below); these calls are set to run longer, so
    // only the hand-back keeps a queued one from outlasting its lease.
    const receiver = await startReceiver(() => ({ delayMs: 1_200 }));
    const options = { concurrency: 1, perWebhook: 1, leaseMs: 2_000, callTimeoutMs: 15_000 };
    const instances = [new EmbeddedExecutor(options), new EmbeddedExecutor(options)];
    try {
      const { count } = await pendingFor(`${receiver.url}/lease`, 4);
      for (const e of instances) e.start();
      for (const deadline = Date.now() + 15_000; (await count(`status = 'delivered'`)) < 4 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(await count(`status = 'delivered'`)).toBe(4);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(ids, 'each delivery was sent once').toHaveLength(4);
      expect(new Set(ids).size).toBe(4);
    } finally {
      await Promise.all(instances.map((e) => e.stop()));
      await receiver.close();
    }
  }, 30_000);
  it('cuts a call at half a short lease, so another instance does not send the delivery again while it runs', async () => {
    await stopExecutor();
    // The receiver answers after 4 s; the lease is 2 s. Uncut, the call would still be out when the lease
    // ran out, and the idle instance would claim the row and send it a second time.
    const receiver = await startReceiver(() => ({ delayMs: 4_000 }));
    const options = { concurrency: 1, perWebhook: 1, leaseMs: 2_000 };
    const instances = [new EmbeddedExecutor(options), new EmbeddedExecutor(options)];
    try {
      const { count, attempts } = await pendingFor(`${receiver.url}/cut`, 1);
      const startedAt = Date.now();
      for (const e of instances) e.start();
      for (const deadline = Date.now() + 10_000; (await attempts()).length < 1 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      const [attempt] = await attempts();
      expect(attempt?.error).toBe('timed out after 1 s');
      expect(attempt?.durationMs).toBeLessThan(1_500);
      // The row waits for its retry (5 s ± 20 %), unleased: no instance may take it before then.
      expect(await count(`status = 'pending' and attempt_count = 1 and lease_until is null and next_attempt_at > now() + interval '2 seconds'`)).toBe(1);
      // Past the lease the first claim set, and past the idle instance's next poll: still one request.
      while (Date.now() < startedAt + 2_000 + 1_500) await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toHaveLength(1);
      expect(await attempts()).toHaveLength(1);
    } finally {
      await Promise.all(instances.map((e) => e.stop()));
      await receiver.close();
    }
  }, 30_000);
});

describe('crash safety', () => {
  it('loses no delivery when the server process is killed mid fan-out', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carebase-crash-'));
    const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR: dir, EXECUTOR_CONCURRENCY: '8', EXECUTOR_LEASE_MS: '2000', NODE_ENV: 'test' };
    const crashReceiver = await startReceiver(() => ({ delayMs: 40 }));
    const webhooks = 10;
    const members = 20;
    try {
      const producer = spawn(process.execPath, ['--import', 'tsx', 'server/testing/crash-child.ts', 'produce', crashReceiver.url, String(webhooks), String(members)], { env });
      let out = '';
      producer.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await crashReceiver.waitFor(30, 60_000);
      producer.kill('SIGKILL');
      await new Promise((r) => producer.once('exit', r));
      const sentBeforeCrash = crashReceiver.received.length;
      expect(sentBeforeCrash).toBeLessThan(webhooks * members);
      const { projectId } = JSON.parse(out.trim().split('\n')[0]!) as { projectId: number };

      const drainer = spawn(process.execPath, ['--import', 'tsx', 'server/testing/crash-child.ts', 'drain', String(projectId)], { env });
      let drained = '';
      drainer.stdout.on('data', (d: Buffer) => (drained += d.toString()));
      let drainErr = '';
      drainer.stderr.on('data', (d: Buffer) => (drainErr += d.toString()));
      const code = await new Promise((r) => drainer.once('exit', r));
      expect(code, drainErr).toBe(0);
      const rows = JSON.parse(drained.trim().split('\n').at(-1)!) as { id: number; status: string }[];
      expect(rows).toHaveLength(webhooks * members);
      expect(rows.every((r) => r.status === 'delivered')).toBe(true);
      const receivedIds = new Set(crashReceiver.received.map((r) => Number(r.headers['webhook-id'])));
      for (const r of rows) expect(receivedIds.has(r.id), `delivery ${r.id} never arrived`).toBe(true);
      // At least once: only the attempts whose outcome was not yet written at the kill may repeat: those
      // in flight (at most the concurrency, 8) and those answered whose outcome waited in the batch (the
      // executor stops claiming at 4 x the concurrency of them). Seen: 0-9.
      expect(crashReceiver.received.length - rows.length).toBeLessThanOrEqual(5 * 8);
    } finally {
      await crashReceiver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
