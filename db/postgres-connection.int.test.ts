import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * postgres.js as patched (patches/postgres+3.4.9.patch) when the server ends its connections under load:
 * every query settles, with its own answer or an error, and the pool is whole again afterwards. 3.4.9
 * left queries pending for good when a socket closed with an error after the pool had handed the
 * connection more queries (between the socket's 'error' and 'close' events), and kept that connection
 * starting up forever, one slot fewer in the pool. In the app such a query holds a database slot for good:
 * `statement_timeout` cannot end a query the server never received. PostgreSQL only (PGlite has no
 * connections to end).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.runIf(onPostgres)('postgres.js when backends are terminated', () => {
  const application = `carebase-pgjs-${process.pid}`;
  let admin: postgres.Sql;
  let sql: postgres.Sql;

  beforeAll(() => {
    admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    // The app's settings that matter here: its pool size and its short reconnect backoff (db/client.ts).
    sql = postgres(process.env.DATABASE_URL!, {
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
    let stop = false;
    let answers = 0;
    const wrong: string[] = [];
    const errors = new Map<string, number>();
    const pending = new Map<number, number>();
    // More workers than connections, so the pool pipelines queries behind each other on one connection.
    const workers = Array.from({ length: 16 }, async (_, worker) => {
      for (let n = 0; !stop; n++) {
        const value = worker * 1_000_000 + n;
        pending.set(worker, Date.now());
        try {
          const rows = await sql.unsafe<{ v: number }[]>('select $1::int as v', [value], { prepare: true });
          answers++;
          if (rows.length !== 1 || rows[0]?.v !== value) wrong.push(`worker ${worker} asked ${value}, got ${JSON.stringify(rows)}`);
        } catch (e) {
          const code = (e as { code?: string }).code ?? String(e);
          errors.set(code, (errors.get(code) ?? 0) + 1);
        }
        pending.delete(worker);
      }
    });

    // Terminations land at random points of connecting, starting up and answering.
    let terminated = 0;
    for (let round = 0; round < 200; round++) {
      terminated += (await admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${application}`).length;
      await new Promise((r) => setTimeout(r, Math.random() * 8));
    }
    stop = true;

    // A query on a working connection takes milliseconds; a reconnect at most the 1 s backoff. Ten seconds
    // for every worker to come back is generous; one that has not is waiting on a query that never settles.
    const settled = await Promise.race([
      Promise.all(workers).then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 10_000)),
    ]);
    const stuck = [...pending.values()].filter((since) => Date.now() - since > 5_000).length;
    expect({ settled, stuck, wrong }).toEqual({ settled: true, stuck: 0, wrong: [] });
    // The terminations met working connections (how many depends on the machine's load: 480 to 1,500
    // answers and 120 to 180 terminations here, alone or beside the chaos test).
    expect(terminated).toBeGreaterThan(20);
    expect(answers).toBeGreaterThan(100);
    // Each error is one of ending a connection's, never another kind.
    expect([...errors.keys()].filter((code) => !['57P01', 'CONNECTION_CLOSED', 'ECONNRESET', 'EPIPE'].includes(code))).toEqual([]);

    // Twenty queries that each hold a connection for 100 ms at once: all ten connections serve them.
    const pids = await Promise.all(Array.from({ length: 20 }, () => sql`select pg_backend_pid() as pid, pg_sleep(0.1)`.then(([row]) => row?.pid as number)));
    expect(new Set(pids).size).toBe(10);
  }, 60_000);
});
