/**
 * For db/pglite-client.test.ts: a WebAssembly trap inside a transaction, on a data dir of its own, in a
 * plain Node process (inside a Vitest worker this particular trap can spin instead of throwing). Prints
 * what the resilient client saw as JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DatabaseRestartingError, ResilientPglite } from '@/db/pglite-client';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carebase-pglite-tx-'));
const open = async () => {
  const pg = new PGlite(dir);
  await pg.waitReady;
  return pg;
};
const client: ResilientPglite = new ResilientPglite(await open(), open, async () => {});
await client.exec('create table t (id int primary key); insert into t values (1)');
let error = '';
try {
  await client.transaction(async (tx) => {
    await tx.query('insert into t values (20)');
    await tx.query('select $1::jsonb', ['['.repeat(2000) + ']'.repeat(2000)]);
  });
} catch (e) {
  error = e instanceof DatabaseRestartingError ? 'restarting' : String(e);
}
const rows = (await client.query<{ id: number }>('select id from t order by id')).rows.map((r) => r.id);
console.log(JSON.stringify({ error, rows, reopened: client.reopened }));
await client.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
