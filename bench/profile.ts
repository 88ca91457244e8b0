/**
 * bench/profile: a CPU profile of the production server under load (`--cpu-prof`), summarised as the
 * functions with the most self time and the share of time per origin (Next, React, drizzle, zod,
 * postgres.js, our code). Runs against bench/records' database (run `npm run bench records` first):
 * BENCH_PROFILE_ROUTE=actor (GET /record/<type>?actorId=, default) or fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { ensureBuild, load, printTable, runAll, startBenchApp, stopProcess, waitForHttp } from './lib';

const ROUTE = process.env.BENCH_PROFILE_ROUTE ?? 'actor';
const WRITES = ROUTE === 'enrol';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${WRITES ? 'carebase_bench_careplans' : 'carebase_bench'}`;
const PORT = 3206;
const API_KEY = WRITES ? 'cb_key_bench_careplans_0123456789abcdef' : 'cb_key_bench_records_0123456789abcdef';
const DIR = path.resolve('bench/results/profile');

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

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
  const route = ROUTE;
  const rand = (n: number) => Math.floor(Math.random() * n);
  const types = ['profile', 'preferences', 'consent'];
  const pathOf = route === 'fields' ? () => `/api/v1/record?limit=100&fields=${encodeURIComponent(JSON.stringify({ bucket: rand(100) }))}` : () => `/api/v1/record/${types[rand(3)]}?actorId=${first.id + rand(1000)}`;
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
      const r = await runAll(subjects, enrol, 10);
      console.log(`profiled enrol: ${Math.round(r.latencies.length / r.seconds)} req/s under the profiler`);
      await agent.close();
    } else {
      await load('warm', { base: `http://127.0.0.1:${PORT}`, path: pathOf, token: API_KEY, connections: 20, seconds: 5 });
      const r = await load(route, { base: `http://127.0.0.1:${PORT}`, path: pathOf, token: API_KEY, connections: 20, seconds: 20 });
      console.log(`profiled ${route}: ${Math.round(r.rps)} req/s under the profiler`);
    }
  } finally {
    await stopProcess(app);
  }
  // The server process writes the biggest profile (npx and the CLI wrapper hardly run).
  const files = fs.readdirSync(DIR).map((f) => path.join(DIR, f));
  const biggest = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  if (!biggest) throw new Error('no profile was written');
  const profile = JSON.parse(fs.readFileSync(biggest, 'utf8')) as Profile;
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
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
  printTable(`bench/profile: ${route} route, self time by origin (busy ${((busy / total) * 100).toFixed(0)} % of the profile)`, [...origins.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([o, us]) => ({ origin: o, 'self time': pct(us) })));
  printTable('self time with internals charged to their nearest caller', [...charged.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([o, us]) => ({ origin: o, time: pct(us) })));
  printTable('top functions by self time', [...fns.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([f, us]) => ({ function: f.slice(0, 110), 'self time': pct(us) })));
  console.log(`profile: ${biggest}`);
}
