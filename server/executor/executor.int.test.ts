import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProject } from '@/server/testing/api';
import { startReceiver } from '@/server/testing/receiver';
import { startEmbeddedExecutor, stopExecutor } from '.';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await stopExecutor();
  await receiver.close();
});

describe('embedded executor', () => {
  it('delivers after the commit, within 2 s, at bounded concurrency', async () => {
    startEmbeddedExecutor();
    const { api } = await newProject();
    for (let i = 0; i < 3; i++) {
      await api.post('/webhook', { display: `w${i}`, url: `${receiver.url}/embedded/${i}`, triggers: [{ event: 'member_create' }] });
    }
    const before = receiver.received.length;
    const started = Date.now();
    for (let i = 0; i < 5; i++) await api.post('/member', { name: `m${i}` });
    await receiver.waitFor(before + 15, 5_000);
    expect(Date.now() - started).toBeLessThan(2_000 + 1_000);
    const ids = receiver.received.filter((r) => r.path.startsWith('/embedded/')).map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(15);
  });
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
      // At least once: only the attempts in flight at the kill (at most the concurrency) may repeat.
      expect(crashReceiver.received.length - rows.length).toBeLessThanOrEqual(8);
    } finally {
      await crashReceiver.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
