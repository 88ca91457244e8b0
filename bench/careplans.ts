/**
 * bench/careplans: through REST on PostgreSQL (`next start`): enrol 10,000 members in a 10-action
 * template, set each care plan's reference date, then move 1,000 of them. Prints p50/p99 latency of each.
 */
import postgres from 'postgres';
import { Agent, request } from 'undici';
import fs from 'node:fs';
import { ensureBuild, freshBenchDatabase, percentile, printTable, runAll, startBenchApp, stopProcess, waitForHttp } from './lib';
import { startPgProxy } from './pg-proxy';

const DB_NAME = 'carebase_bench_careplans';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3203;
const API_KEY = 'cb_key_bench_careplans_0123456789abcdef';
const CAREPLANS = Number(process.env.BENCH_CAREPLANS ?? 10_000);
const MOVES = Math.min(1_000, CAREPLANS);
const CONCURRENCY = 10;
/** A second, unloaded pass: one client, so the latency is the service's and not a queue's. */
const SERIAL = 500;
/** Requests of each kind in the round-trip count (through bench/pg-proxy, one client). */
const COUNTED = 20;


export async function benchCareplans(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const members = await sql<{ id: number }[]>`
    insert into member (project_id, name) select ${projectId}, 'Member ' || g from generate_series(1, ${CAREPLANS + SERIAL + COUNTED}) g returning id`;
  await sql.end();

  await ensureBuild();
  const app = startBenchApp(PORT, DATABASE_URL);
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: CONCURRENCY });
  const call = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const t0 = performance.now();
    const res = await request(`http://127.0.0.1:${PORT}/api/v1${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return { ms: performance.now() - t0, json };
  };

  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    const code = (await call('POST', '/observation-code', { slug: 'reference-date', display: 'Reference date', type: 'date' })).json as { id: number };
    const actions = Array.from({ length: 10 }, (_, i) => ({
      key: `a${i}`,
      type: 'task',
      display: `Action ${i}`,
      ...(i >= 2 ? { inputKey: 'ref' } : {}),
      start: { offset: i * 3, offsetUnit: i % 2 ? 'd' : 'wk' },
      end: { offset: 2, offsetUnit: 'd' },
      reminders: [{ offset: 1, offsetUnit: 'h' }],
    }));
    const definition = (await call('POST', '/careplan-definition', { slug: 'bench', title: 'Bench', inputs: [{ key: 'ref', observationCodeId: code.id }], actions })).json as { id: number };

    const pass = async (subjects: { id: number }[], moves: number, clients: number) => {
      const plans: { id: number; inputId: number; parameterId: number }[] = [];
      const enrol = await runAll(
        subjects,
        async (m) => {
          const r = await call('POST', '/careplan', { definitionId: definition.id, subjectId: m.id });
          const body = r.json as { id: number; parameters: { id: number; inputId: number }[] };
          plans.push({ id: body.id, inputId: body.parameters[0]!.inputId, parameterId: body.parameters[0]!.id });
          return r.ms;
        },
        clients,
      );
      const set = await runAll(
        plans,
        async (p) => (await call('POST', '/careplan-parameter', { careplanId: p.id, inputId: p.inputId, observation: { value: '2027-03-15', observedAt: '2026-11-22T10:00:00Z' } })).ms,
        clients,
      );
      const move = await runAll(
        plans.slice(0, moves),
        async (p) => (await call('PATCH', `/careplan-parameter/${p.parameterId}`, { observation: { value: '2027-04-30', observedAt: '2026-11-23T10:00:00Z' } })).ms,
        clients,
      );
      return { enrol, set, move };
    };
    const loaded = await pass(members.slice(0, CAREPLANS), MOVES, CONCURRENCY);
    const serial = await pass(members.slice(CAREPLANS, CAREPLANS + SERIAL), SERIAL, 1);
    const trips = await countRoundTrips(definition.id, members.slice(CAREPLANS + SERIAL));
    const row = (name: string, r: { latencies: number[]; seconds: number }) => ({
      operation: name,
      requests: r.latencies.length,
      'req/s': Math.round(r.latencies.length / r.seconds),
      'p50 ms': Math.round(percentile(r.latencies, 50) * 10) / 10,
      'p99 ms': Math.round(percentile(r.latencies, 99) * 10) / 10,
    });
    printTable(`bench/careplans: 10-action template, REST on PostgreSQL (goal: p99 < 50 ms)`, [
      row(`enrol (2 activities), ${CONCURRENCY} clients`, loaded.enrol),
      row(`set date (8 activities created), ${CONCURRENCY} clients`, loaded.set),
      row(`move date (8 activities moved), ${CONCURRENCY} clients`, loaded.move),
      row('enrol, 1 client', serial.enrol),
      row('set date, 1 client', serial.set),
      row('move date, 1 client', serial.move),
    ]);
    printTable('round trips to PostgreSQL per request (bench/pg-proxy; statements in bench/results/careplans-statements.txt)', trips);
  } finally {
    await agent.close();
    await stopProcess(app);
  }
}

/**
 * A second app, its database connections through bench/pg-proxy, serves COUNTED requests of each kind
 * one at a time: round trips per request (ReadyForQuery messages) and the statements of the last one.
 */
async function countRoundTrips(definitionId: number, subjects: { id: number }[]): Promise<Record<string, string | number>[]> {
  const proxy = await startPgProxy();
  const port = PORT + 10;
  const app = startBenchApp(port, DATABASE_URL.replace(':5432/', `:${proxy.port}/`));
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
  const call = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const res = await request(`http://127.0.0.1:${port}/api/v1${path}`, { method, dispatcher: agent, headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const rows: Record<string, string | number>[] = [];
  const log: string[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/v1/openapi.json`);
    const plans: { id: number; inputId: number; parameterId: number }[] = [];
    const measure = async (name: string, run: (i: number) => Promise<void>) => {
      const counts: number[] = [];
      for (let i = 0; i < subjects.length; i++) {
        proxy.reset();
        await run(i);
        counts.push(proxy.roundTrips());
      }
      log.push(`== ${name}: ${proxy.roundTrips()} round trips\n${proxy.statements().join('\n')}\n`);
      // The first requests prepare statements and warm caches; count the steady state.
      const steady = counts.slice(Math.floor(counts.length / 2));
      rows.push({ request: name, 'round trips (steady)': Math.round((steady.reduce((a, b) => a + b, 0) / steady.length) * 10) / 10, 'first request': counts[0]! });
    };
    await measure('enrol', async (i) => {
      const body = (await call('POST', '/careplan', { definitionId, subjectId: subjects[i]!.id })) as { id: number; parameters: { id: number; inputId: number }[] };
      plans.push({ id: body.id, inputId: body.parameters[0]!.inputId, parameterId: body.parameters[0]!.id });
    });
    await measure('set date', async (i) => {
      const p = plans[i]!;
      await call('POST', '/careplan-parameter', { careplanId: p.id, inputId: p.inputId, observation: { value: '2027-03-15', observedAt: '2026-11-22T10:00:00Z' } });
    });
    await measure('move date', async (i) => {
      await call('PATCH', `/careplan-parameter/${plans[i]!.parameterId}`, { observation: { value: '2027-04-30', observedAt: '2026-11-23T10:00:00Z' } });
    });
    fs.mkdirSync('bench/results', { recursive: true });
    fs.writeFileSync('bench/results/careplans-statements.txt', log.join('\n'));
  } finally {
    await agent.close();
    await stopProcess(app);
    await proxy.close();
  }
  return rows;
}
