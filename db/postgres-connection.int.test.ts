import net from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresClient, postgresTarget } from '@/db/postgres-url';

/**
 * postgres.js as patched (patches/postgres+3.4.9.patch) when its connections end under load: every query
 * settles, with its own answer or an error, and the pool is whole again afterwards. 3.4.9 did not settle
 * the queries the pool handed a connection between its socket's 'error' and 'close' events. One queued
 * behind another waited for good, and so did the connection (one slot fewer in the pool); in the app such
 * a query holds a database slot for good, since `statement_timeout` cannot end a query the server never
 * received. One that became the connection's current query was answered by the next connection's start-up
 * with no rows: for the API key lookup, a 401 for a valid key. PostgreSQL only (PGlite has no connections).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * `count` workers asking `pool` for their own numbers in a loop (prepared, as the app's statements are)
 * until `finish` is called. `finish` waits up to `settleMs` for them to come back and answers whether they
 * did, how many are still inside a query, how many answers came, the first answers that were not the
 * asker's own number, and the error codes met.
 */
function startWorkers(pool: postgres.Sql, count: number) {
  let stop = false;
  let answers = 0;
  const wrong: string[] = [];
  const errors = new Set<string>();
  const pending = new Set<number>();
  const workers = Array.from({ length: count }, async (_, worker) => {
    for (let n = 0; !stop; n++) {
      const value = worker * 1_000_000 + n;
      pending.add(worker);
      try {
        const rows = await pool.unsafe<{ v: number }[]>('select $1::int as v', [value], { prepare: true });
        answers++;
        if (rows.length !== 1 || rows[0]?.v !== value) wrong.push(`asked ${value}, got ${JSON.stringify(rows)}`);
      } catch (e) {
        errors.add((e as { code?: string }).code ?? String(e));
      }
      pending.delete(worker);
    }
  });
  return {
    async finish(settleMs: number) {
      stop = true;
      const settled = await Promise.race([Promise.all(workers).then(() => true), new Promise<false>((r) => setTimeout(() => r(false), settleMs))]);
      return { settled, stuck: pending.size, answers, wrong: wrong.slice(0, 5), errors: [...errors] };
    },
  };
}

describe.runIf(onPostgres)('postgres.js when backends are terminated', () => {
  const application = `carebase-pgjs-${process.pid}`;
  let admin: postgres.Sql;
  let sql: postgres.Sql;

  beforeAll(() => {
    admin = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    // The app's settings that matter here: its pool size and its short reconnect backoff (db/client.ts).
    sql = postgresClient(process.env.DATABASE_URL!, {
      max: 10,
      onnotice: () => {},
      connection: { application_name: application },
      backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2),
    });
  });

  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await admin?.end({ timeout: 5 });
  });

  it('settles every query while its connections are ended every few milliseconds, and the whole pool serves again after', async () => {
    // More workers than connections, so the pool pipelines queries behind each other on one connection.
    const workers = startWorkers(sql, 16);

    // Terminations land at random points of connecting, starting up and answering.
    let terminated = 0;
    for (let round = 0; round < 200; round++) {
      terminated += (await admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${application}`).length;
      await new Promise((r) => setTimeout(r, Math.random() * 8));
    }

    // A query on a working connection takes milliseconds; a reconnect at most the 1 s backoff. Ten seconds
    // for every worker to come back is generous; one that has not is waiting on a query that never settles.
    const { settled, stuck, answers, wrong, errors } = await workers.finish(10_000);
    expect({ settled, stuck, wrong }).toEqual({ settled: true, stuck: 0, wrong: [] });
    // The terminations met working connections (how many depends on the machine's load: 480 to 1,500
    // answers and 120 to 180 terminations here, alone or beside the chaos test; 40 answers in CI on a slow
    // machine, under the whole suite).
    expect(terminated).toBeGreaterThan(20);
    expect(answers).toBeGreaterThan(20);
    // Each error is one of ending a connection's, never another kind.
    expect(errors.filter((code) => !['57P01', 'CONNECTION_CLOSED', 'ECONNRESET', 'EPIPE'].includes(code))).toEqual([]);

    // Twenty queries that each hold a connection for 100 ms at once: all ten connections serve them.
    const pids = await Promise.all(Array.from({ length: 20 }, () => sql`select pg_backend_pid() as pid, pg_sleep(0.1)`.then(([row]) => row?.pid as number)));
    expect(new Set(pids).size).toBe(10);
  }, 60_000);

  it('never answers a query with no rows or another query\'s rows when idle connections are reset', async () => {
    // A TCP proxy on 127.0.0.1 in front of PostgreSQL that can reset every connection through it at once:
    // an idle client socket then sees ECONNRESET, which pg_terminate_backend (a clean close) rarely gives.
    // Upstream over PostgreSQL's Unix socket when the URL names one.
    const target = postgresTarget(process.env.DATABASE_URL!);
    const upstream = new URL(target.url);
    const pairs = new Set<{ client: net.Socket; server: net.Socket }>();
    const proxy = net.createServer((client) => {
      const server = target.path ? net.connect(target.path) : net.connect(Number(upstream.port || 5432), upstream.hostname);
      const pair = { client, server };
      pairs.add(pair);
      client.pipe(server).pipe(client);
      const done = () => (pairs.delete(pair), client.destroy(), server.destroy());
      for (const socket of [client, server]) socket.on('error', done).on('close', done);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const through = new URL(upstream);
    through.hostname = '127.0.0.1';
    through.port = String((proxy.address() as net.AddressInfo).port);
    const pool = postgres(through.toString(), { max: 10, onnotice: () => {}, backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) });
    try {
      // Fewer workers than connections, so that most connections are idle when they are reset.
      const workers = startWorkers(pool, 4);
      // Rounds until at least 30 connections were reset (four were enough on most machines; on a slow one
      // four reset only 24, as some queries of a round shared a connection still open).
      let resets = 0;
      for (let round = 0; round < 12 && resets < 30; round++) {
        // Every connection open (each of ten queries holds one for 20 ms), then all reset at once.
        await Promise.all(Array.from({ length: 10 }, () => pool`select pg_sleep(0.02)`.catch(() => {})));
        for (const { client, server } of [...pairs]) {
          resets++;
          client.resetAndDestroy();
          server.destroy();
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const { settled, stuck, answers, wrong, errors } = await workers.finish(5_000);
      // 3.4.9 + the earlier patch failed this in each of three runs: answers with no rows, 3 or 4 workers stuck.
      expect({ settled, stuck, wrong }).toEqual({ settled: true, stuck: 0, wrong: [] });
      expect(resets).toBeGreaterThanOrEqual(30);
      expect(answers).toBeGreaterThan(100);
      expect(errors.filter((code) => !['ECONNRESET', 'CONNECTION_CLOSED', 'EPIPE'].includes(code))).toEqual([]);
    } finally {
      await pool.end({ timeout: 5 });
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      await new Promise((r) => proxy.close(r));
    }
  }, 60_000);
});
