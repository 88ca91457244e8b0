/**
 * bench/promotion: what one request leaves to V8's full collections. The production server runs with
 * `--trace-gc`; one client sends each route's requests one after another, and the collections inside
 * each run's window give: memory allocated per request, memory that scavenges did not free and that waited
 * in the old generation for a mark-compact (per request), and the pauses. Routes: Next's floor (a route
 * handler answering fixed JSON), `GET /member/{id}` and an enrolment (`POST /careplan`). Decision 0014,
 * fifteenth pass: on Node 20 the web `Request` of every app-router request keeps its objects alive across
 * scavenges, so they are promoted whatever the young generation's size.
 */
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { parseGcLine, type GcEvent } from './gc-windows';
import { benchCareplanDefinition, ensureBuild, freshBenchDatabase, printTable, startBenchApp, stopProcess, waitForHttp } from './lib';

const DB_NAME = 'carebase_bench_promotion';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3209;
const API_KEY = 'cb_key_bench_promotion_0123456789abcd';
const N = Number(process.env.BENCH_PROMOTION_N ?? 4_000);
const WARMUP = 500;

export async function benchPromotion(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const members = (await sql<{ id: number }[]>`insert into member (project_id, name) select ${projectId}, 'Member ' || g from generate_series(1, ${N + WARMUP}) g returning id`).map((m) => m.id);
  await sql.end();

  await ensureBuild();
  const spawnedAt = Date.now();
  const app = startBenchApp(PORT, DATABASE_URL, { DB_POOL_MAX: '20', CAREBASE_BENCH_ROUTES: '1' }, ['--trace-gc']);
  // The lines are parsed once the server has exited, and placed in each route's window by V8's own time.
  let output = '';
  app.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await request(`http://127.0.0.1:${PORT}${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return text;
  };
  const windows: { route: string; from: number; to: number; seconds: number }[] = [];
  const measure = async (route: string, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < WARMUP; i++) await fn(i);
    const from = Date.now() - spawnedAt;
    for (let i = 0; i < N; i++) await fn(WARMUP + i);
    const to = Date.now() - spawnedAt;
    windows.push({ route, from, to, seconds: (to - from) / 1000 });
  };
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    const code = JSON.parse(await call('POST', '/api/v1/observation-code', { slug: 'reference-date', display: 'Reference date', type: 'date' })) as { id: number };
    const definition = JSON.parse(await call('POST', '/api/v1/careplan-definition', benchCareplanDefinition(code.id))) as { id: number };
    await measure("Next's floor: fixed JSON", () => call('GET', '/api/bench-floor/fixed'));
    await measure('GET /member/{id}', (i) => call('GET', `/api/v1/member/${members[i % 100]!}`));
    await measure('POST /careplan (enrol)', (i) => call('POST', '/api/v1/careplan', { definitionId: definition.id, subjectId: members[i]! }));
  } finally {
    await agent.close();
    await stopProcess(app);
  }

  const events = output.split('\n').map(parseGcLine).filter((e): e is GcEvent => e !== undefined);
  const rows = windows.map((w) => {
    let allocated = 0;
    let retained = 0;
    let scavenges = 0;
    let pauses = 0;
    let compacts = 0;
    for (let i = 1; i < events.length; i++) {
      const e = events[i]!;
      if (e.ms < w.from || e.ms > w.to) continue;
      const prev = events[i - 1]!;
      allocated += Math.max(0, e.before - prev.after);
      if (e.kind === 'scavenge') {
        scavenges++;
        pauses += e.pause;
        // Net, not only the rises: what survives a scavenge while still in use is freed by the next one.
        retained += e.after - prev.after;
      } else compacts++;
    }
    return {
      route: w.route,
      requests: N,
      'req/s': Math.round(N / w.seconds),
      'KB allocated per request': Math.round((allocated * 1000) / N),
      'KB left for a full collection per request': Math.round((retained * 1000) / N * 10) / 10,
      scavenges,
      'scavenge pause ms, mean': scavenges ? Math.round((pauses / scavenges) * 100) / 100 : 0,
      'scavenge ms per request': Math.round((pauses / N) * 1000) / 1000,
      'mark-compacts': compacts,
    };
  });
  printTable(`bench/promotion: one client, ${N} requests per route after ${WARMUP} to warm up, next start --trace-gc, PostgreSQL`, rows);
}
