/**
 * bench/member: the member-facing reads on PostgreSQL (`next start`): `GET /activity` with member access
 * tokens (each request one of 200 members' tokens), and the member's own page `/me` (a signed session
 * cookie, as an identity-provider sign-in leaves it). Each at saturation (20 connections) and at half
 * that rate; beside them Next's floor in the same build (a route answering fixed JSON).
 */
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { ensureBuild, freshBenchDatabase, load, memberSessionCookie, printTable, startBenchApp, stopProcess, waitForHttp, warmUp, type LoadResult } from './lib';

const DB_NAME = 'carebase_bench_member';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3207;
const API_KEY = 'cb_key_bench_member_0123456789abcdef0';
const MEMBERS = 200;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function benchMember(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const memberIds = (await sql<{ id: number }[]>`insert into member (project_id, name, role) select ${projectId}, 'Member ' || g, 'patient' from generate_series(1, ${MEMBERS}) g returning id`).map((m) => m.id);
  await sql.end();

  await ensureBuild();
  const app = startBenchApp(PORT, DATABASE_URL, { DB_POOL_MAX: '20', CAREBASE_BENCH_ROUTES: '1' });
  const base = `http://127.0.0.1:${PORT}`;
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 10 });
  const call = async (method: 'POST' | 'GET', path: string, body?: unknown) => {
    const res = await request(`${base}/api/v1${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const rows: Record<string, string | number>[] = [];
  try {
    await waitForHttp(`${base}/api/v1/openapi.json`);
    // Every member in a 10-action care plan with its reference date set: 10 activities each, some due.
    const code = (await call('POST', '/observation-code', { slug: 'reference-date', display: 'Reference date', type: 'date' })) as { id: number };
    const actions = Array.from({ length: 10 }, (_, i) => ({
      key: `a${i}`,
      type: 'task',
      display: `Action ${i}`,
      inputKey: 'ref',
      start: { offset: i - 3, offsetUnit: 'd' },
      end: { offset: 30, offsetUnit: 'd' },
    }));
    const definition = (await call('POST', '/careplan-definition', { slug: 'bench', title: 'Bench', inputs: [{ key: 'ref', observationCodeId: code.id }], actions })) as { id: number };
    const tokens: string[] = [];
    const today = new Date().toISOString().slice(0, 10);
    for (const subjectId of memberIds) {
      const plan = (await call('POST', '/careplan', { definitionId: definition.id, subjectId })) as { id: number; parameters: { inputId: number }[] };
      await call('POST', '/careplan-parameter', { careplanId: plan.id, inputId: plan.parameters[0]!.inputId, observation: { value: today, observedAt: new Date().toISOString() } });
      tokens.push(((await call('POST', `/member/${subjectId}/token`)) as { token: string }).token);
    }
    // A member's session cookie as a sign-in through an identity provider leaves it (Auth.js JWT).
    const cookies = await Promise.all(memberIds.map(memberSessionCookie));
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const runs: { name: string; path: () => string; headers: () => Record<string, string> }[] = [
      { name: "Next's floor: fixed JSON", path: () => '/api/bench-floor/fixed', headers: () => ({}) },
      { name: 'GET /activity, member token', path: () => '/api/v1/activity', headers: () => ({ authorization: `Bearer ${pick(tokens)}` }) },
      { name: '/me page, member session', path: () => '/me', headers: () => ({ cookie: pick(cookies) }) },
    ];
    // Check that each answers 200 before loading it (a redirect to /login would measure the wrong page).
    for (const r of runs) {
      const res = await request(`${base}${r.path()}`, { headers: r.headers() });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${r.name}: ${res.statusCode} ${text.slice(0, 200)}`);
      if (r.path() === '/me' && !text.includes('Action 0')) throw new Error('/me does not show the care plan');
    }
    for (const r of runs) {
      await warmUp({ base, path: r.path, headers: r.headers, token: '', connections: 20 });
      const full: LoadResult = await load(r.name, { base, path: r.path, headers: r.headers, token: '', connections: 20, seconds: SECONDS });
      const half = await load(r.name, { base, path: r.path, headers: r.headers, token: '', connections: 20, seconds: SECONDS, rate: full.rps / 2 });
      rows.push({ route: r.name, 'req/s': Math.round(full.rps), 'p50 ms': full.p50, 'p99 ms': full.p99, 'half-load req/s': Math.round(half.rps), 'half p50 ms': half.p50, 'half p99 ms': half.p99, errors: full.errors + full.non2xx + half.errors + half.non2xx });
    }
  } finally {
    await agent.close();
    await stopProcess(app);
  }
  printTable(`bench/member: member-facing reads, ${MEMBERS} members with 10 activities each, PostgreSQL, 20 connections, ${SECONDS} s per run`, rows);
}
