/**
 * bench/profile: a CPU profile of the production server under load (`--cpu-prof`), summarised as the
 * functions with the most self time and the share of time per origin (Next, React, drizzle, zod,
 * postgres.js, our code). Runs against bench/records' database (run `npm run bench records` first):
 * BENCH_PROFILE_ROUTE=actor (GET /record/<type>?actorId=, default) or fields; enrol against
 * bench/careplans' database; me (the member page, signed session cookies) against bench/member's; drain profiles the embedded executor in this process (node:inspector) while
 * it drains BENCH_DRAIN_N (20,000) deliveries to BENCH_DRAIN_WEBHOOKS (10) webhooks on bench/webhooks'
 * receiver.
 */
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { cpuByProcess, ensureBuild, freshBenchDatabase, load, memberSessionCookie, printTable, runAll, startBenchApp, startReceiverProcess, stopProcess, waitForAll, waitForHttp, warmUp } from './lib';

const ROUTE = process.env.BENCH_PROFILE_ROUTE ?? 'actor';
const WRITES = ROUTE === 'enrol';
const MEMBER = ROUTE === 'me';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${WRITES ? 'carebase_bench_careplans' : MEMBER ? 'carebase_bench_member' : 'carebase_bench'}`;
const PORT = 3206;
const API_KEY = WRITES ? 'cb_key_bench_careplans_0123456789abcdef' : 'cb_key_bench_records_0123456789abcdef';
const DIR = path.resolve('bench/results/profile');

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
/** A moment on V8's profile clock: both it and `process.hrtime` read CLOCK_MONOTONIC, in any process here. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
/** The part of a profile to summarise, in monotonic microseconds. */
type Window = { from: number; to: number };

function origin(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  // Turbopack names a chunk of one package after it (node_modules_postgres_src_index_….js).
  const bundled = /\/\.next\/server\/chunks\/.*?node_modules_([a-z0-9-]+)_/.exec(url);
  if (bundled) return `${bundled[1]} (bundled)`;
  if (url.includes('/.next/server/')) return 'ours (the app bundle)';
  if (url.startsWith('node:') || url === '') return 'node / V8 internals';
  return url.replace(/^file:\/\//, '').replace(process.cwd(), '.');
}

export async function benchProfile(): Promise<void> {
  if (ROUTE === 'drain') return profileDrain();
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const [first] = await sql<{ id: number }[]>`select min(id)::int as id from member`.catch(() => [{ id: 0 }]);
  const [definition] = WRITES ? await sql<{ id: number }[]>`select id from careplan_definition limit 1` : [];
  const subjects = WRITES ? (await sql<{ id: number }[]>`select id from member order by id limit 3000`).map((m) => m.id) : [];
  await sql.end();
  if (!first?.id || (WRITES && !definition)) throw new Error(`bench/profile needs ${WRITES ? 'bench/careplans' : 'bench/records'}’ database: run that bench first`);
  await ensureBuild();
  fs.rmSync(DIR, { recursive: true, force: true });
  fs.mkdirSync(DIR, { recursive: true });
  const app = startBenchApp(PORT, DATABASE_URL, { DB_POOL_MAX: '20' }, ['--cpu-prof', `--cpu-prof-dir=${DIR}`]);
  // `--cpu-prof` samples the server's whole life: the summary keeps the measured run only, not its startup
  // (module compilation was 2 % of an enrolment profile's self time) or the warm-up.
  const measured: Window = { from: 0, to: Infinity };
  const route = ROUTE;
  const rand = (n: number) => Math.floor(Math.random() * n);
  const types = ['profile', 'preferences', 'consent'];
  const cookies = MEMBER ? await Promise.all(Array.from({ length: 200 }, (_, i) => memberSessionCookie(first.id + i))) : [];
  const headers = MEMBER ? () => ({ cookie: cookies[rand(cookies.length)]! }) : undefined;
  const pathOf = MEMBER ? () => '/me' : route === 'fields' ? () => `/api/v1/record?limit=100&fields=${encodeURIComponent(JSON.stringify({ bucket: rand(100) }))}` : () => `/api/v1/record/${types[rand(3)]}?actorId=${first.id + rand(1000)}`;
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    if (WRITES) {
      const agent = new Agent({ keepAliveTimeout: 30_000, connections: 10 });
      const enrol = async (subjectId: number) => {
        const t0 = performance.now();
        const res = await request(`http://127.0.0.1:${PORT}/api/v1/careplan`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ definitionId: definition!.id, subjectId }),
        });
        await res.body.dump();
        return performance.now() - t0;
      };
      await runAll(subjects.slice(0, 300), enrol, 10);
      measured.from = monotonicUs();
      const r = await runAll(subjects, enrol, 10);
      measured.to = monotonicUs();
      console.log(`profiled enrol: ${Math.round(r.latencies.length / r.seconds)} req/s under the profiler`);
      await agent.close();
    } else {
      await warmUp({ base: `http://127.0.0.1:${PORT}`, path: pathOf, headers, token: API_KEY, connections: 20 });
      measured.from = monotonicUs();
      const r = await load(route, { base: `http://127.0.0.1:${PORT}`, path: pathOf, headers, token: API_KEY, connections: 20, seconds: 20 });
      measured.to = monotonicUs();
      console.log(`profiled ${route}: ${Math.round(r.rps)} req/s under the profiler`);
    }
  } finally {
    await stopProcess(app);
  }
  // The server process writes the biggest profile (npx and the CLI wrapper hardly run).
  const files = fs.readdirSync(DIR).map((f) => path.join(DIR, f));
  const biggest = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  if (!biggest) throw new Error('no profile was written');
  summariseProfile(JSON.parse(fs.readFileSync(biggest, 'utf8')) as Profile, `${route} route`, measured);
  console.log(`profile: ${biggest}`);
}

/** Self time by origin, with node internals charged to their caller, and the top functions. */
export function summariseProfile(profile: Profile, what: string, window: Window = { from: 0, to: Infinity }): void {
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= window.from && at <= window.to) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const seconds = (us: number) => (us / 1e6).toFixed(1);
  const kept = Math.min(window.to, profile.endTime) - Math.max(window.from, profile.startTime);
  if (kept <= 0) throw new Error('the measured window is outside the profile: is the profile clock monotonic here?');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fns = new Map<string, number>();
  const origins = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const name = `${f.functionName || '(anonymous)'} ${origin(f.url)}:${f.lineNumber + 1}`;
    fns.set(name, (fns.get(name) ?? 0) + us);
    origins.set(origin(f.url), (origins.get(origin(f.url)) ?? 0) + us);
  }
  // Time in node and V8 internals (socket writes, JSON, GC-free builtins) charged to the nearest caller
  // that is not internal: whose work it was.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const charged = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    let at: number | undefined = id;
    while (at !== undefined && origin(byId.get(at)!.callFrame.url) === 'node / V8 internals') at = parent.get(at);
    const o = at === undefined ? (f.functionName === '(garbage collector)' ? 'garbage collector' : 'node / V8 internals') : origin(byId.get(at)!.callFrame.url);
    charged.set(o, (charged.get(o) ?? 0) + us);
  }
  const busy = [...fns.values()].reduce((a, b) => a + b, 0);
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1)} %`;
  printTable(`bench/profile: ${what}, self time by origin (busy ${((busy / total) * 100).toFixed(0)} % of the ${seconds(kept)} s measured, of a ${seconds(profile.endTime - profile.startTime)} s profile)`, [...origins.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([o, us]) => ({ origin: o, 'self time': pct(us) })));
  printTable('self time with internals charged to their nearest caller', [...charged.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([o, us]) => ({ origin: o, time: pct(us) })));
  printTable('top functions by self time', [...fns.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([f, us]) => ({ function: f.slice(0, 110), 'self time': pct(us) })));
}

/** The executor's drain, profiled in this process: only the drain window is sampled. */
async function profileDrain(): Promise<void> {
  const { Session } = await import('node:inspector/promises');
  process.env.EXECUTOR_CONCURRENCY = process.env.BENCH_EXECUTOR_CONCURRENCY ?? '64';
  process.env.DB_POOL_MAX = '20';
  const DELIVERIES = Number(process.env.BENCH_DRAIN_N ?? 20_000);
  const { url, projectId } = await freshBenchDatabase('carebase_bench_drain');
  const { getDb, closeDb } = await import('@/db/client');
  const { createContext } = await import('@/server/context');
  const { createWebhook } = await import('@/server/services/webhooks/webhooks');
  const { startEmbeddedExecutor, stopExecutor } = await import('@/server/executor');
  const ctx = createContext(await getDb(), projectId, { kind: 'system', role: 'admin' });
  const receiver = await startReceiverProcess(3301);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const WEBHOOKS = Number(process.env.BENCH_DRAIN_WEBHOOKS ?? 10);
  for (let i = 0; i < WEBHOOKS; i++) {
    const w = await createWebhook(ctx, { display: `w${i}`, url: `http://127.0.0.1:3301/w${i}`, triggers: [{ event: 'member_create' }] });
    await sql`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at)
      select ${projectId}, ${w.id}, 'member_create', ${JSON.stringify({ event: 'member_create', projectId, params: { name: 'x' }, responseData: { id: 1, name: 'x' } })}, 'pending', now()
      from generate_series(1, ${Math.ceil(DELIVERIES / WEBHOOKS)})`;
  }
  await sql`analyze webhook_delivery`;
  // BENCH_DRAIN_PROFILER=0: the per-process CPU alone, without the profiler's own cost in this process.
  const profiling = process.env.BENCH_DRAIN_PROFILER !== '0';
  const session = new Session();
  if (profiling) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
  }
  const commits = async () => (await sql<{ n: number }[]>`select xact_commit::int as n from pg_stat_database where datname = current_database()`)[0]!.n;
  const commits0 = await commits();
  const cpu0 = cpuByProcess({ 'executor (this process)': process.pid, receiver: receiver.pid });
  const t0 = Date.now();
  startEmbeddedExecutor();
  const arrivals = await waitForAll(receiver, DELIVERIES, 120_000);
  const seconds = (Date.now() - t0) / 1000;
  const cpu1 = cpuByProcess({ 'executor (this process)': process.pid, receiver: receiver.pid });
  // Statements outside a transaction commit one each: what the drain asked of the database.
  const statements = (await commits()) - commits0 - 1;
  const profile = profiling ? (await session.post('Profiler.stop')).profile : undefined;
  if (profiling) session.disconnect();
  await stopExecutor();
  const [left] = await sql<{ n: number }[]>`select count(*)::int as n from webhook_delivery where status <> 'delivered'`;
  await sql.end();
  receiver.stop();
  await closeDb();
  console.log(`drained ${arrivals.length} deliveries in ${seconds.toFixed(1)} s (${Math.round(arrivals.length / seconds)}/s${profiling ? ' under the profiler' : ', not profiled'}), ${left!.n} not marked delivered; ${statements} statements (transactions), ${(arrivals.length / statements).toFixed(1)} deliveries each`);
  printTable('CPU during the drain, per process (from /proc)', Object.keys(cpu1).map((k) => {
    const used = cpu1[k]! - (cpu0[k] ?? 0);
    return { process: k, 'CPU s': used.toFixed(2), 'cores busy': (used / seconds).toFixed(2), 'µs per delivery': Math.round((used / arrivals.length) * 1e6) };
  }));
  if (!profile) return;
  summariseProfile(profile as unknown as Profile, 'executor drain');
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(path.join(DIR, 'drain.cpuprofile'), JSON.stringify(profile));
  console.log(`profile: ${path.join(DIR, 'drain.cpuprofile')}`);
}

