import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '@/server/testing/api';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carebase-cli-'));
/** The CLI on the run's database: PostgreSQL when DATABASE_URL is set, else a PGlite dir of its own. */
const spawnCli = (databaseUrl: string, args: string[]) =>
  // node with tsx's loader, not npx: npx's own start-up was a few seconds of each run on a loaded machine.
  spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/carebase.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DIR: dir, SEED_DEMO: 'false' },
    timeout: 60_000,
  });
const run = (...args: string[]) => spawnCli(process.env.DATABASE_URL ?? '', args);
/** The CLI on a PGlite dir, whatever the run's database. */
const runOnPglite = (...args: string[]) => spawnCli('', args);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('carebase CLI', () => {
  it('creates projects with an exact API key, and users', async () => {
    const project = run('project', 'create', '--name', 'CLI project', '--api-key', 'cb_key_cli_0123456789abcdef');
    expect(project.status, project.stderr).toBe(0);
    const out = JSON.parse(project.stdout.trim().split('\n').at(-1)!) as { projectId: number; apiKey: string };
    expect(out).toEqual({ projectId: expect.any(Number), apiKey: 'cb_key_cli_0123456789abcdef' });
    // On PostgreSQL the CLI wrote to the database this test serves from: the key it made opens the API.
    if (process.env.DATABASE_URL) expect((await apiClient(out.apiKey).call('GET', '/member')).status).toBe(200);
    const user = run('user', 'create', '--email', 'c@cli.test', '--password', 'password-1', '--role', 'coordinator', '--project', String(out.projectId));
    expect(user.status, user.stderr).toBe(0);
    const bad = run('user', 'create', '--email', 'c@cli.test', '--password', 'password-1', '--role', 'owner', '--project', String(out.projectId));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--role');
    expect(run('frobnicate').stderr).toContain('Unknown command');
  }, 180_000); // four CLI processes, each starting tsx and its database: 73-114 s on PGlite in CI runs on two busy cores

  it('refuses a PGlite dir that a running process holds', async () => {
    const holder = spawn('sleep', ['30']);
    try {
      fs.writeFileSync(path.join(dir, 'carebase.lock'), String(holder.pid));
      const res = runOnPglite('migrate');
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`is held by process ${holder.pid}`);
    } finally {
      holder.kill();
    }
    await new Promise((r) => holder.once('exit', r));
    expect(runOnPglite('migrate').status).toBe(0);
  }, 120_000);
});
