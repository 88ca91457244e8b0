import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseRestartingError, ResilientPglite } from './pglite-client';

/** Real PGlite instances on a data dir of their own: the trap is the real one (jsonb nested 2,000 deep). */
describe('the embedded database repairs itself (defect 1)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carebase-pglite-'));
  const open = async () => {
    const pg = new PGlite(dir);
    await pg.waitReady;
    return pg;
  };
  let client: ResilientPglite;
  afterAll(async () => {
    await client?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replaces an instance that trapped, keeping committed data, and answers "restarting" to the failing call', async () => {
    let migrations = 0;
    client = new ResilientPglite(await open(), open, async () => {
      migrations++;
      await client.exec('create table if not exists t (id int primary key)');
    });
    await client.exec('create table t (id int primary key); insert into t values (1), (2)');
    const nested = '['.repeat(2000) + ']'.repeat(2000);
    await expect(client.query('select $1::jsonb', [nested])).rejects.toBeInstanceOf(DatabaseRestartingError);
    // The next call waits for the new instance (with migrations applied) instead of failing.
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from t');
    expect(rows).toEqual([{ n: 2 }]);
    expect(client.reopened).toBe(1);
    expect(migrations).toBe(1);
    await client.query('insert into t values (3)');
    expect((await client.query<{ n: number }>('select count(*)::int as n from t')).rows).toEqual([{ n: 3 }]);
  }, 60_000); // two databases started on a data dir: 20.6 s in a CI run on two busy cores

  it('rolls back a shared session left in an aborted transaction, so the next statement succeeds', async () => {
    await expect(client.exec('begin; insert into t values (10); select 1/0;')).rejects.toThrow('division by zero');
    // Outside our transactions, the session would now refuse everything with 25P02; it is repaired.
    expect((await client.query<{ n: number }>('select count(*)::int as n from t')).rows).toEqual([{ n: 3 }]);
    // The half-done write went with the rollback.
    expect((await client.query<{ n: number }>('select count(*)::int as n from t where id = 10')).rows).toEqual([{ n: 0 }]);
  });

  it('keeps a transaction that trapped atomic: nothing of it stays, and the database serves again', () => {
    // In a child process: inside a Vitest worker this trap can spin instead of throwing.
    const out = execFileSync('npx', ['tsx', 'server/testing/pglite-trap-child.ts'], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ error: 'restarting', rows: [1], reopened: 1 });
    // The child's own limit, not the suite's 20 s: starting tsx and PGlite twice took 25 s on a loaded 2-core CI run.
  }, 60_000);
});
