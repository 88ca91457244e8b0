/**
 * bench/careplans: through REST on PostgreSQL (`next start`): enrol members in a 10-action template, set
 * each care plan's reference date (8 activities created), then move some (8 moved); beside the ceiling,
 * a bare node:http + postgres.js server running the same statements in the same transactions
 * (bench/careplans-ceiling.ts). Prints, for both: throughput with 10 clients, latency with one client,
 * round trips per request (through bench/pg-proxy), and the app's latency at half of its own rate and at
 * half the ceiling's rate. The ceiling's 1-client pass runs twice: first with no app running (the
 * machine's floor), then beside the app, whose scheduler applies the transitions its enrolments make due.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { startCareplansCeiling } from './careplans-ceiling';
import { markCompactRow, watchMarkCompacts } from './gc-windows';
import { benchServerMemoryNote, benchCareplanDefinition, cpuByProcess, ensureBuild, freshBenchDatabase, openLoop, percentile, printTable, runAll, startBenchApp, stopProcess, waitForHttp, type Span } from './lib';
import { startPgProxy } from './pg-proxy';

const DB_NAME = 'carebase_bench_careplans';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3203;
const CEILING_PORT = 3223;
const API_KEY = 'cb_key_bench_careplans_0123456789abcdef';
const CAREPLANS = Number(process.env.BENCH_CAREPLANS ?? 5_000);
const MOVES = Math.min(1_000, CAREPLANS);
const CONCURRENCY = 10;
const POOL = 20;
/** A second, unloaded pass: one client, so the latency is the service's and not a queue's. */
const SERIAL = 300;
/** Requests of each kind in the round-trip count (through bench/pg-proxy, one client). */
const COUNTED = 20;
/** The half-load pass: this many seconds of each operation at half the ceiling's rate. */
const HALF_LOAD_SECONDS = 10;

type Call = (method: 'POST' | 'PATCH', path: string, body: unknown) => Promise<{ ms: number; json: Record<string, unknown> }>;
type Plan = { id: number; inputId: number; parameterId: number };
type Timing = { latencies: number[]; seconds: number; spans: Span[] };

function caller(port: number, connections: number): { call: Call; close: () => Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections });
  const call: Call = async (method, path, body) => {
    const t0 = performance.now();
    const res = await request(`http://127.0.0.1:${port}/api/v1${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return { ms: performance.now() - t0, json };
  };
  return { call, close: () => agent.close() };
}

/** The three operations, for one subject / plan each. */
function operations(call: Call, definitionId: number) {
  return {
    enrol: async (subjectId: number, plans: Plan[]) => {
      const r = await call('POST', '/careplan', { definitionId, subjectId });
      const body = r.json as { id: number; parameters: { id: number; input_id?: number; inputId?: number }[] };
      const p = body.parameters[0]!;
      plans.push({ id: body.id, inputId: p.inputId ?? p.input_id!, parameterId: p.id });
      return r.ms;
    },
    set: async (p: Plan) => (await call('POST', '/careplan-parameter', { careplanId: p.id, inputId: p.inputId, observation: { value: '2027-03-15', observedAt: '2026-11-22T10:00:00Z' } })).ms,
    move: async (p: Plan) => (await call('PATCH', `/careplan-parameter/${p.parameterId}`, { observation: { value: '2027-04-30', observedAt: '2026-11-23T10:00:00Z' } })).ms,
  };
}

type Cpu = Record<string, number>;
type Measured = Timing & { cpu: Cpu };

/** Enrol, set and move, `clients` at a time; each with the CPU seconds its processes used (`groups`). */
async function pass(call: Call, definitionId: number, subjects: number[], moves: number, clients: number, groups: Record<string, number | undefined> = {}) {
  const op = operations(call, definitionId);
  const plans: Plan[] = [];
  const measured = async <T>(items: T[], fn: (item: T) => Promise<number>): Promise<Measured> => {
    const before = cpuByProcess(groups);
    const timing = await runAll(items, fn, clients);
    const after = cpuByProcess(groups);
    return { ...timing, cpu: Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - before[k]!])) };
  };
  const enrol = await measured(subjects, (s) => op.enrol(s, plans));
  const set = await measured(plans, op.set);
  const move = await measured(plans.slice(0, moves), op.move);
  return { enrol, set, move };
}

/**
 * CPU milliseconds per request: the server's, PostgreSQL's and the machine's in all. The app's server
 * applies the transitions its enrolments make due, and during the ceiling's run it applies the ceiling's
 * too: "ceiling server + transitions" adds what the app's process spent during the ceiling's run, so the
 * two servers are compared for the same work (decision 0014's log, sixtieth pass).
 */
function cpuRow(operation: string, app: Measured, ceiling: Measured) {
  const per = (t: Measured, k: string) => ((t.cpu[k] ?? 0) * 1000) / t.latencies.length;
  // The ceiling serves in this process: its share is this process's CPU less the client's (the app pass's).
  const client = per(app, 'bench');
  const ceilingServer = per(ceiling, 'bench') - client;
  const beside = per(ceiling, 'app');
  const f = (x: number) => x.toFixed(2);
  return {
    operation,
    'app server': f(per(app, 'app')),
    'ceiling server': f(ceilingServer),
    'ceiling server + transitions': f(ceilingServer + beside),
    'postgres (app)': f(per(app, 'postgres')),
    'postgres (ceiling)': f(per(ceiling, 'postgres')),
    'client': f(client),
    'all (app)': f(per(app, 'app') + per(app, 'postgres') + client),
    'all (ceiling)': f(ceilingServer + beside + per(ceiling, 'postgres') + client),
  };
}

const rate = (t: Timing) => t.latencies.length / t.seconds;
const row = (name: string, t: Timing) => ({
  operation: name,
  requests: t.latencies.length,
  'req/s': Math.round(rate(t)),
  'p50 ms': Math.round(percentile(t.latencies, 50) * 10) / 10,
  'p99 ms': Math.round(percentile(t.latencies, 99) * 10) / 10,
});

export async function benchCareplans(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const halfLoadMax = 3_000;
  const halfOwnMax = 2_000;
  const total = 2 * CAREPLANS + 3 * SERIAL + 2 * COUNTED + halfLoadMax + halfOwnMax;
  const ids = (await sql<{ id: number }[]>`insert into member (project_id, name) select ${projectId}, 'Member ' || g from generate_series(1, ${total}) g returning id`).map((m) => m.id);
  await sql.end();
  let used = 0;
  const take = (n: number) => ids.slice(used, (used += n));

  await ensureBuild();
  const ceiling = await startCareplansCeiling(DATABASE_URL, CEILING_PORT, POOL);
  const ceilingClient = caller(CEILING_PORT, CONCURRENCY);
  const appClient = caller(PORT, CONCURRENCY);
  let app: ChildProcess | undefined;
  try {
    // The template, through the app's REST; then the ceiling, warmed, serves one client with no app
    // running: the machine's floor for the 1-client goal. Beside the app (the pass below), the app's
    // scheduler also applies a transition for each of the ceiling's enrolments (their first activity starts
    // at once), on the same two cores (decision 0014's log, fifty-eighth pass).
    const setup = startBenchApp(PORT, DATABASE_URL, { DB_POOL_MAX: String(POOL) });
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    const code = (await appClient.call('POST', '/observation-code', { slug: 'reference-date', display: 'Reference date', type: 'date' })).json as { id: number };
    const definition = (await appClient.call('POST', '/careplan-definition', benchCareplanDefinition(code.id))).json as { id: number };
    await stopProcess(setup);
    await pass(ceilingClient.call, definition.id, take(200), 200, CONCURRENCY);
    const ceilingAlone = await pass(ceilingClient.call, definition.id, take(SERIAL), SERIAL, 1);

    // --trace-gc: the half-load runs are split by the server's mark-compacts (bench/gc-windows).
    app = startBenchApp(PORT, DATABASE_URL, { DB_POOL_MAX: String(POOL) }, ['--trace-gc']);
    const collections = watchMarkCompacts(app);
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);

    // Warm the app (JIT, prepared statements, pools), then measure.
    await pass(appClient.call, definition.id, take(200), 200, CONCURRENCY);
    const appLoaded = await pass(appClient.call, definition.id, take(CAREPLANS - 200), MOVES, CONCURRENCY, { app: app.pid, bench: process.pid });
    // The app's process is read during the ceiling's run too: its scheduler applies the transitions the
    // ceiling's enrolments make due, work the app's own run pays for in its server's CPU.
    const ceilingLoaded = await pass(ceilingClient.call, definition.id, take(CAREPLANS - 200), MOVES, CONCURRENCY, { bench: process.pid, app: app.pid });
    const appSerial = await pass(appClient.call, definition.id, take(SERIAL), SERIAL, 1);
    const ceilingSerial = await pass(ceilingClient.call, definition.id, take(SERIAL), SERIAL, 1);

    // The app at half of its own rate for each operation (the load it is sized for), then at half of
    // each operation's ceiling rate.
    const op = operations(appClient.call, definition.id);
    const halfOf = (loaded: typeof appLoaded) => ({ enrol: rate(loaded.enrol) / 2, set: rate(loaded.set) / 2, move: rate(loaded.move) / 2 });
    const own = halfOf(appLoaded);
    const ownPlans: Plan[] = [];
    const ownEnrol = await openLoop(take(Math.min(halfOwnMax, Math.round(own.enrol * HALF_LOAD_SECONDS))), own.enrol, (s) => op.enrol(s, ownPlans));
    const ownSet = await openLoop(ownPlans.slice(0, Math.round(own.set * HALF_LOAD_SECONDS)), own.set, op.set);
    const ownMove = await openLoop(ownPlans.slice(0, Math.min(ownSet.latencies.length, Math.round(own.move * HALF_LOAD_SECONDS))), own.move, op.move);
    const half = halfOf(ceilingLoaded);
    const n = Math.min(halfLoadMax, Math.round(half.enrol * HALF_LOAD_SECONDS));
    const plans: Plan[] = [];
    const halfEnrol = await openLoop(take(n), half.enrol, (s) => op.enrol(s, plans));
    const halfSet = await openLoop(plans.slice(0, Math.round(half.set * HALF_LOAD_SECONDS)), half.set, op.set);
    const halfMove = await openLoop(plans.slice(0, Math.min(halfSet.latencies.length, Math.round(half.move * HALF_LOAD_SECONDS))), half.move, op.move);

    const trips = {
      app: await countRoundTrips('app', definition.id, take(COUNTED), (url, port) => { const child = startBenchApp(port, url); return { close: () => stopProcess(child) }; }, PORT + 10),
      ceiling: await countRoundTrips('ceiling', definition.id, take(COUNTED), (url, port) => startCareplansCeiling(url, port, 1), CEILING_PORT + 10),
    };

    printTable(`bench/careplans: 10-action template, REST on PostgreSQL, pool ${POOL}; app (next start) and ceiling (node:http + postgres.js, same statements)${benchServerMemoryNote()}`, [
      row(`app     enrol (2 activities), ${CONCURRENCY} clients`, appLoaded.enrol),
      row(`ceiling enrol, ${CONCURRENCY} clients`, ceilingLoaded.enrol),
      row(`app     set date (8 activities created), ${CONCURRENCY} clients`, appLoaded.set),
      row(`ceiling set date, ${CONCURRENCY} clients`, ceilingLoaded.set),
      row(`app     move date (8 activities moved), ${CONCURRENCY} clients`, appLoaded.move),
      row(`ceiling move date, ${CONCURRENCY} clients`, ceilingLoaded.move),
      row('app     enrol, 1 client', appSerial.enrol),
      row('ceiling enrol, 1 client', ceilingSerial.enrol),
      row('ceiling enrol, 1 client, no app running', ceilingAlone.enrol),
      row('app     set date, 1 client', appSerial.set),
      row('ceiling set date, 1 client', ceilingSerial.set),
      row('ceiling set date, 1 client, no app running', ceilingAlone.set),
      row('app     move date, 1 client', appSerial.move),
      row('ceiling move date, 1 client', ceilingSerial.move),
      row('ceiling move date, 1 client, no app running', ceilingAlone.move),
      row(`app     enrol at half its own rate (${Math.round(own.enrol)}/s)`, ownEnrol),
      row(`app     set date at half its own rate (${Math.round(own.set)}/s)`, ownSet),
      row(`app     move date at half its own rate (${Math.round(own.move)}/s)`, ownMove),
      row(`app     enrol at half the ceiling (${Math.round(half.enrol)}/s)`, halfEnrol),
      row(`app     set date at half the ceiling (${Math.round(half.set)}/s)`, halfSet),
      row(`app     move date at half the ceiling (${Math.round(half.move)}/s)`, halfMove),
    ]);
    const ratio = (a: Timing, c: Timing) => (rate(a) / rate(c)).toFixed(2);
    const p99 = (t: Timing) => Math.round(percentile(t.latencies, 99) * 10) / 10;
    printTable('app / ceiling (goals: >= 0.5 of ceiling, 1-client p99 < 15 ms, p99 < 50 ms at half the ceiling rate)', [
      { operation: 'enrol', 'throughput ratio': ratio(appLoaded.enrol, ceilingLoaded.enrol), '1-client p99 ms': p99(appSerial.enrol), 'ceiling 1-client p99 ms, alone / beside the app': `${p99(ceilingAlone.enrol)} / ${p99(ceilingSerial.enrol)}`, 'half-load p99 ms': p99(halfEnrol), 'p99 ms at half its own rate': p99(ownEnrol), 'round trips app / ceiling': `${trips.app.enrol} / ${trips.ceiling.enrol}` },
      { operation: 'set date', 'throughput ratio': ratio(appLoaded.set, ceilingLoaded.set), '1-client p99 ms': p99(appSerial.set), 'ceiling 1-client p99 ms, alone / beside the app': `${p99(ceilingAlone.set)} / ${p99(ceilingSerial.set)}`, 'half-load p99 ms': p99(halfSet), 'p99 ms at half its own rate': p99(ownSet), 'round trips app / ceiling': `${trips.app.set} / ${trips.ceiling.set}` },
      { operation: 'move date', 'throughput ratio': ratio(appLoaded.move, ceilingLoaded.move), '1-client p99 ms': p99(appSerial.move), 'ceiling 1-client p99 ms, alone / beside the app': `${p99(ceilingAlone.move)} / ${p99(ceilingSerial.move)}`, 'half-load p99 ms': p99(halfMove), 'p99 ms at half its own rate': p99(ownMove), 'round trips app / ceiling': `${trips.app.move} / ${trips.ceiling.move}` },
    ]);
    printTable(
      "the half-load runs and the server's old-generation collections (requests that overlapped a mark-compact, from its marking to its sweeping)",
      [
        markCompactRow('enrol at half its own rate', ownEnrol.spans, collections.windows()),
        markCompactRow('set date at half its own rate', ownSet.spans, collections.windows()),
        markCompactRow('move date at half its own rate', ownMove.spans, collections.windows()),
        markCompactRow('enrol at half the ceiling', halfEnrol.spans, collections.windows()),
        markCompactRow('set date at half the ceiling', halfSet.spans, collections.windows()),
        markCompactRow('move date at half the ceiling', halfMove.spans, collections.windows()),
      ],
    );
    printTable("the 1-client runs and the server's old-generation collections (the goal's 15 ms as slow)", [
      markCompactRow('enrol, 1 client', appSerial.enrol.spans, collections.windows(), 15),
      markCompactRow('set date, 1 client', appSerial.set.spans, collections.windows(), 15),
      markCompactRow('move date, 1 client', appSerial.move.spans, collections.windows(), 15),
    ]);
    printTable(`CPU ms per request at ${CONCURRENCY} clients (Linux /proc; 2 cores = 2,000 ms per second): where the app's extra cost is`, [
      cpuRow('enrol', appLoaded.enrol, ceilingLoaded.enrol),
      cpuRow('set date', appLoaded.set, ceilingLoaded.set),
      cpuRow('move date', appLoaded.move, ceilingLoaded.move),
    ]);
  } finally {
    await appClient.close();
    await ceilingClient.close();
    if (app) await stopProcess(app);
    await ceiling.close();
  }
}

type Server = { close: () => Promise<void> };

/**
 * A second server (the app or the ceiling), its database connections through bench/pg-proxy, serves
 * COUNTED requests of each kind one at a time: round trips per request (each Query, Sync or Flush the
 * client waits on; steady state: the second half) and the statements of the last one, in
 * bench/results/careplans-statements-<name>.txt.
 */
async function countRoundTrips(
  name: string,
  definitionId: number,
  subjects: number[],
  start: (url: string, port: number) => Server | Promise<Server>,
  port: number,
): Promise<{ enrol: number; set: number; move: number }> {
  const proxy = await startPgProxy();
  const server = await start(DATABASE_URL.replace(':5432/', `:${proxy.port}/`), port);
  const client = caller(port, 1);
  const log: string[] = [];
  try {
    if (name === 'app') await waitForHttp(`http://127.0.0.1:${port}/api/v1/openapi.json`);
    const op = operations(client.call, definitionId);
    const plans: Plan[] = [];
    const measure = async (what: string, run: (i: number) => Promise<unknown>) => {
      const counts: number[] = [];
      for (let i = 0; i < subjects.length; i++) {
        proxy.reset();
        await run(i);
        counts.push(proxy.roundTrips());
      }
      log.push(`== ${what}: ${proxy.roundTrips()} round trips\n${proxy.statements().join('\n')}\n`);
      // The fewest in the second half: background work only adds to a window. The app's scheduler applies
      // the transitions these enrolments made due at once, looking every 20-250 ms while they keep coming,
      // and its statements land in many requests' windows (a mean of 13.8 for enrolments, the fewest 10).
      return Math.min(...counts.slice(Math.floor(counts.length / 2)));
    };
    const enrol = await measure('enrol', (i) => op.enrol(subjects[i]!, plans));
    const set = await measure('set date', (i) => op.set(plans[i]!));
    const move = await measure('move date', (i) => op.move(plans[i]!));
    fs.mkdirSync('bench/results', { recursive: true });
    fs.writeFileSync(`bench/results/careplans-statements-${name}.txt`, log.join('\n'));
    return { enrol, set, move };
  } finally {
    await client.close();
    await server.close();
    await proxy.close();
  }
}
