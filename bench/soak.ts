/**
 * bench/soak: the app under steady mixed load for SOAK_MINUTES (default 60) on PostgreSQL: member record
 * reads, care plan enrolments with their reference date set, the activity transitions those plans cause
 * (minutes after enrolment), and webhook deliveries of all of it to a local receiver. The server's RSS and
 * heap are sampled each minute (bench/memory-probe.cjs); at the end: start, peak and end values, the RSS
 * slope after the first 10 minutes, errors, and whether every delivery arrived and every transition was
 * applied once.
 */
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { startPgProxy, type PgProxy } from './pg-proxy';
import { benchServerMemoryNote, ensureBuild, freshBenchDatabase, printTable, startBenchApp, startReceiverProcess, stopProcess, waitForHttp } from './lib';

const DB_NAME = 'carebase_bench_soak';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3205;
const RECEIVER_PORT = 3305;
const API_KEY = 'cb_key_bench_soak_0123456789abcdefgh';
const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
/**
 * Rates this 2-core machine sustains with all four kinds of work at once: a quarter of each ceiling
 * together (900 reads/s and 150 enrolments/s) is more than the app serves of any one alone, and a soak at
 * saturation measures its queues instead of its memory. 300 reads/s with 25 enrolments and 25 date sets
 * a second kept the server's event loop near 100 % (its webhook deliveries fell behind); these rates
 * leave it headroom.
 */
const READS_PER_S = Number(process.env.SOAK_READS_PER_S ?? 150);
const ENROLMENTS_PER_S = Number(process.env.SOAK_ENROLMENTS_PER_S ?? 15);
const MEMBERS = 1000;
const TYPES = ['profile', 'preferences', 'consent'];
const PROBE_FILE = path.resolve('bench/results/soak-memory.jsonl');
/** SOAK_STATEMENTS=1: the app's connections go through bench/pg-proxy, which notes every statement prepared. */
const COUNT_STATEMENTS = process.env.SOAK_STATEMENTS === '1';
/** The census so far, rewritten each minute (readable while the soak runs). */
const STATEMENTS_FILE = path.resolve('bench/results/soak-statements.json');
/**
 * SOAK_FULL_GC=1: the server runs a full collection before each minute's sample and the soak also prints
 * RSS and heap just after it, a leak measure that does not depend on where V8's sawtooth stood (RSS
 * sampled each minute swung by 200 MB in the twenty-fourth pass's soak). The default soak leaves it off:
 * it costs more than its own collection a minute. In the sixty-ninth pass the server ran 16-20
 * mark-compacts a minute with it, before any heap snapshot (about 2 in the default hours), and the reads'
 * p99 was 241 ms against 91-129: read only its memory figures.
 */
const FULL_GC = process.env.SOAK_FULL_GC === '1';
/**
 * SOAK_EXPLAIN_SAMPLE=0.02: PostgreSQL's auto_explain writes the plan of that share of the app's statements
 * to its log (with the statement's text), to find which statement a sequential scan in the table below
 * comes from: `grep -B30 'Seq Scan on webhook_delivery' /var/log/postgresql/postgresql-15-main.log`.
 */
const EXPLAIN_SAMPLE = Number(process.env.SOAK_EXPLAIN_SAMPLE ?? 0);

/**
 * Statements grouped by shape: parameters and repeated value rows or lists folded, so that an insert of
 * 3 rows and one of 7 fall in one family. Many texts in one family means each variant is prepared anew.
 */
function statementFamilies(prepared: Map<string, number>): { family: string; texts: number; parses: number }[] {
  const families = new Map<string, { texts: number; parses: number }>();
  for (const [text, parses] of prepared) {
    const family = text
      .replace(/\$\d+/g, '$')
      .replace(/\$(, \$)+/g, '$…')
      .replace(/\([^()]*\)(, \([^()]*\))+/g, '(…)…')
      .slice(0, 110);
    const f = families.get(family) ?? { texts: 0, parses: 0 };
    f.texts++;
    f.parses += parses;
    families.set(family, f);
  }
  return [...families].map(([family, f]) => ({ family, ...f })).sort((a, b) => b.texts - a.texts);
}

type Sample = { pid: number; threadId?: number; cmd: string; t: number; rss: number; heapUsed: number; heapUsedMin: number; rssMin: number; heapTotal: number; loopDelayP99Ms: number; majorGcs: number; majorGcMs: number; rssAfterGc?: number; heapAfterGc?: number };

/** Least-squares slope of y over t, in y-units per 10 minutes. */
function slopePer10Min(points: { t: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
  return (num / den) * 600_000;
}

/** The lowest `rssMin` in each `minutes` consecutive samples (one a minute), at the window's middle. */
function rssFloors(samples: { t: number; rssMin: number }[], minutes: number): { t: number; y: number }[] {
  const floors: { t: number; y: number }[] = [];
  for (let i = 0; i + minutes <= samples.length; i += minutes) {
    const w = samples.slice(i, i + minutes);
    floors.push({ t: (w[0]!.t + w.at(-1)!.t) / 2, y: Math.min(...w.map((s) => s.rssMin)) });
  }
  return floors;
}

export async function benchSoak(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  const sql = postgres(DATABASE_URL, { max: 2, onnotice: () => {} });
  for (const type of TYPES) await sql`insert into record_type (project_id, type, permissions) values (${projectId}, ${type}, ${sql.json({ user: { read: true } })})`;
  const [first] = await sql<{ id: number }[]>`
    insert into member (project_id, role, name) select ${projectId}, 'user', 'Member ' || g from generate_series(1, ${MEMBERS}) g returning id`;
  const firstMember = first!.id;
  await sql`insert into record (project_id, type, member_id, fields)
    select ${projectId}, (${sql.array(TYPES)}::text[])[1 + (g % 3)], ${firstMember} + (g % ${MEMBERS}), jsonb_build_object('n', g) from generate_series(1, 30000) g`;
  await sql`vacuum analyze`;
  // If something stalls (the twenty-third pass's soak had five 503s in one minute, cause not found), the
  // server log says how its database slots stood ([db-gate]) and PostgreSQL's log the statements that
  // took half a second or more and the lock waits over deadlock_timeout. New sessions only: set before
  // the app connects.
  await sql.unsafe(`alter database ${DB_NAME} set log_min_duration_statement = 500`);
  await sql.unsafe(`alter database ${DB_NAME} set log_lock_waits = on`);
  if (EXPLAIN_SAMPLE > 0) {
    await sql.unsafe(`alter database ${DB_NAME} set session_preload_libraries = 'auto_explain'`);
    await sql.unsafe(`alter database ${DB_NAME} set auto_explain.log_min_duration = 0`);
    await sql.unsafe(`alter database ${DB_NAME} set auto_explain.sample_rate = ${EXPLAIN_SAMPLE}`);
  }

  fs.mkdirSync(path.dirname(PROBE_FILE), { recursive: true });
  fs.rmSync(PROBE_FILE, { force: true });
  await ensureBuild();
  const receiver = await startReceiverProcess(RECEIVER_PORT);
  const proxy: PgProxy | undefined = COUNT_STATEMENTS ? await startPgProxy() : undefined;
  const app = startBenchApp(PORT, proxy ? DATABASE_URL.replace(':5432/', `:${proxy.port}/`) : DATABASE_URL, {
    // kill -USR2 <server pid> writes a heap snapshot to bench/results (after a full collection: what is held).
    NODE_OPTIONS: `--require ${path.resolve('bench/memory-probe.cjs')} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${path.dirname(PROBE_FILE)}`,
    MEMORY_PROBE_FILE: PROBE_FILE,
    ...(FULL_GC ? { MEMORY_PROBE_FULL_GC: '1' } : {}),
    WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    DB_POOL_MAX: '20',
  });
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 20 });
  let writeErrors = 0;
  const call = async (method: 'POST' | 'PATCH', p: string, body: unknown) => {
    const res = await request(`http://127.0.0.1:${PORT}/api/v1${p}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode >= 300) throw new Error(`${method} ${p}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    await call('POST', '/webhook', {
      display: 'soak',
      url: `http://127.0.0.1:${RECEIVER_PORT}/soak`,
      triggers: ['careplan_create', 'careplan_update', 'activity_create', 'activity_transition_scheduled', 'activity_transition_expired'].map((event) => ({ event })),
    });
    const code = (await call('POST', '/observation-code', { slug: 'surgery', display: 'Surgery', type: 'date' })) as { id: number };
    // Two actions move on their own within minutes of enrolment; four wait for the reference date.
    const actions = [
      { key: 'a0', type: 'task', display: 'Soon', start: { offset: 1, offsetUnit: 'min' }, end: { offset: 3, offsetUnit: 'min' } },
      { key: 'a1', type: 'task', display: 'Later', start: { offset: 2, offsetUnit: 'min' }, end: { offset: 5, offsetUnit: 'min' } },
      ...[0, 1, 2, 3].map((i) => ({ key: `r${i}`, type: 'task', display: `Around surgery ${i}`, inputKey: 'surgery', start: { offset: i - 2, offsetUnit: 'wk' }, end: { offset: 3, offsetUnit: 'd' } })),
    ];
    const definition = (await call('POST', '/careplan-definition', { slug: 'soak', title: 'Soak', inputs: [{ key: 'surgery', observationCodeId: code.id }], actions })) as { id: number };

    const durationS = MINUTES * 60;
    const t0 = Date.now();
    const minute = () => ((Date.now() - t0) / 60_000).toFixed(2);
    /** What the database was doing when the first write failed: a stall shows as sessions waiting on something. */
    let activityShown = false;
    const showActivity = async () => {
      if (activityShown) return;
      activityShown = true;
      const rows = await sql<Record<string, unknown>[]>`
        select pid, backend_type, state, wait_event_type, wait_event,
               round(extract(epoch from now() - xact_start) * 1000)::int as xact_ms,
               round(extract(epoch from now() - query_start) * 1000)::int as query_ms,
               left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
        from pg_stat_activity where pid <> pg_backend_pid() and (state is distinct from 'idle' or backend_type <> 'client backend')
        order by xact_start nulls last`;
      printTable(`pg_stat_activity at minute ${minute()}, when the first write failed`, rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v ?? '')]))));
    };
    const rand = (n: number) => Math.floor(Math.random() * n);
    const readFailures: string[] = [];
    const reads = new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `http://127.0.0.1:${PORT}`,
          connections: 20,
          overallRate: READS_PER_S,
          duration: durationS,
          headers: { authorization: `Bearer ${API_KEY}` },
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/v1/record/${TYPES[rand(3)]}?actorId=${firstMember + rand(MEMBERS)}` }) }],
        },
        (err, result) => (err ? reject(err) : resolve(result)),
      );
      instance.on('response', (_client: unknown, statusCode: number) => {
        if (statusCode >= 300 && readFailures.length < 20) readFailures.push(`minute ${minute()}: ${statusCode}`);
      });
    });
    let enrolled = 0;
    let lastWrite = Date.now();
    const inFlight = new Set<Promise<void>>();
    const interval = 1000 / ENROLMENTS_PER_S;
    for (let i = 0; Date.now() - t0 < durationS * 1000; i++) {
      const wait = t0 + i * interval - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (inFlight.size >= 20) await Promise.race(inFlight); // the app fell behind: do not pile up requests
      const task = (async () => {
        try {
          const plan = (await call('POST', '/careplan', { definitionId: definition.id, subjectId: firstMember + (i % MEMBERS) })) as { id: number; parameters: { inputId: number }[] };
          await call('POST', '/careplan-parameter', { careplanId: plan.id, inputId: plan.parameters[0]!.inputId, observation: { value: '2027-03-15', observedAt: new Date().toISOString() } });
          enrolled++;
          lastWrite = Date.now();
        } catch (e) {
          if (writeErrors++ < 5) console.error(`soak: minute ${minute()}: ${String(e)}`);
          void showActivity().catch((err: unknown) => console.error(`soak: pg_stat_activity: ${String(err)}`));
        }
      })();
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      if (i > 0 && i % (ENROLMENTS_PER_S * 60) === 0) {
        const line = `soak: minute ${Math.round((Date.now() - t0) / 60_000)} of ${MINUTES}, ${enrolled} care plans, ${inFlight.size} writes in flight${proxy ? `, ${proxy.prepared().size} statement texts prepared` : ''}`;
        // When the sequential scans of webhook_delivery (table at the end) happen: steadily, or in bursts.
        void sql<{ seq_scan: number; seq_tup_read: number; n_live_tup: number }[]>`
          select seq_scan::int, seq_tup_read::float8 as seq_tup_read, n_live_tup::int from pg_stat_user_tables where relname = 'webhook_delivery'`
          .then(([d]) => console.log(`${line}; webhook_delivery: ${d?.n_live_tup} rows, ${d?.seq_scan} seq scans reading ${d?.seq_tup_read} rows so far`))
          .catch(() => console.log(line));
        if (proxy) fs.writeFileSync(STATEMENTS_FILE, JSON.stringify(statementFamilies(proxy.prepared()), null, 1));
      }
    }
    await Promise.all(inFlight);
    const readResult = await reads;
    // Sequential scans of the big tables show a plan that does not follow their growth. Counted when the
    // load ends: the settling loop below counts undelivered and due rows with scans of its own (about
    // 50 million rows of webhook_delivery read in one run), which are the bench's, not the app's.
    const scans = await sql<{ relname: string; seq_scan: number; seq_tup_read: number; idx_scan: number; n_live_tup: number; analyzes: number }[]>`
      select relname, seq_scan::int, seq_tup_read::float8 as seq_tup_read, coalesce(idx_scan, 0)::int as idx_scan, n_live_tup::int,
             (analyze_count + autoanalyze_count)::int as analyzes
      from pg_stat_user_tables where n_live_tup > 1000 order by seq_tup_read desc limit 8`;

    // Let the last plans' timed transitions and their deliveries finish: a1 ends 7 minutes after enrolment
    // (starts at 2 min, ends 5 min after its start). Waiting only 5.5 minutes left the last 1.5 minutes'
    // a1 expiries not yet due, counted as missing.
    const settleUntil = Date.now() + 10 * 60_000;
    let pending = { due: -1, undelivered: -1 };
    while (Date.now() < settleUntil) {
      const [row] = await sql<{ due: number; undelivered: number }[]>`
        select (select count(*)::int from activity
                  where (status = 'proposed' and activate_at < now() - interval '5 seconds')
                     or (status in ('proposed', 'scheduled') and end_at < now() - interval '5 seconds')) as due,
               (select count(*)::int from webhook_delivery where status <> 'delivered') as undelivered`;
      pending = row!;
      if (pending.due === 0 && pending.undelivered === 0 && Date.now() > lastWrite + 7.5 * 60_000) break;
      await new Promise((r) => setTimeout(r, 5_000));
    }
    const [counts] = await sql<{ deliveries: number; transitions: number; twice: number }[]>`
      select (select count(*)::int from webhook_delivery) as deliveries,
             (select count(*)::int from event where name like 'activity_transition_%') as transitions,
             (select count(*)::int from (select name, params->>'id' from event where name like 'activity_transition_%' group by 1, 2 having count(*) > 1) t) as twice`;
    const arrivals = await receiver.report();
    const uniqueArrivals = new Set(arrivals.map((a) => a[0])).size;

    const samples = fs
      .readFileSync(PROBE_FILE, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Sample);
    // The server is the process whose main thread has the largest heap (npx and the CLI wrapper hold
    // little); with EXECUTOR_THREAD=true, its executor is the worker thread with the largest heap in it.
    const byThread = new Map<string, Sample[]>();
    for (const s of samples) {
      const key = `${s.pid}/${s.threadId ?? 0}`;
      byThread.set(key, [...(byThread.get(key) ?? []), s]);
    }
    const threads = [...byThread.values()];
    const largestHeap = (of: Sample[][]) => of.sort((a, b) => Math.max(...b.map((s) => s.heapUsed)) - Math.max(...a.map((s) => s.heapUsed)))[0];
    const server = largestHeap(threads.filter((t) => !t[0]!.threadId))!;
    const executorThread = largestHeap(threads.filter((t) => t[0]!.pid === server[0]!.pid && t[0]!.threadId));
    const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
    // Slopes are taken while the load runs (minute 10 to its end), not over the settling afterwards.
    const duringLoad = (of: Sample[]) => of.filter((s) => s.t - t0 >= 10 * 60_000 && s.t - t0 <= durationS * 1000);
    const after10 = duringLoad(server);
    const floors = rssFloors(after10, 5);
    /** "first / peak / last" in MB of one measure over `of` (NaN where a sample lacks it). */
    const firstPeakLast = (of: Sample[], bytes: (s: Sample) => number | undefined) => {
      const at = (s: Sample | undefined) => (s && bytes(s)) ?? NaN;
      return `${mb(at(of[0]))} / ${mb(Math.max(...of.map(at)))} / ${mb(at(of.at(-1)))}`;
    };
    const rounded = (points: { t: number; y: number }[]) => (Math.round(slopePer10Min(points) * 100) / 100).toString();
    const slope = (bytes: (s: Sample) => number, of = after10) => rounded(of.map((s) => ({ t: s.t, y: bytes(s) / 1048576 })));
    /** A thread's event-loop delay p99: "median minute / worst minute". */
    const loopDelay = (of: Sample[]) => `${of.map((s) => s.loopDelayP99Ms).sort((a, b) => a - b)[of.length >> 1]} / ${Math.max(...of.map((s) => s.loopDelayP99Ms))}`;
    printTable(`bench/soak: ${MINUTES} min on PostgreSQL; ${READS_PER_S} record reads/s, ${ENROLMENTS_PER_S} enrolments + ${ENROLMENTS_PER_S} date sets/s, timed transitions, webhook deliveries${benchServerMemoryNote()}`, [
      { measure: 'server RSS MB (first sample / peak / last, after settling)', value: firstPeakLast(server, (s) => s.rss) },
      { measure: 'server heap used MB (start / peak / end)', value: firstPeakLast(server, (s) => s.heapUsed) },
      { measure: 'RSS slope, minute 10 to the end of the load, MB per 10 min', value: slope((s) => s.rss) },
      { measure: 'heap slope, minute 10 to the end of the load, MB per 10 min', value: slope((s) => s.heapUsed) },
      {
        measure: 'server heap after collection MB (lowest each minute: first / peak / last during the load)',
        value: firstPeakLast(after10, (s) => s.heapUsedMin),
      },
      { measure: 'heap after collection slope, minute 10 to the end of the load, MB per 10 min', value: slope((s) => s.heapUsedMin) },
      // The RSS sampled once a minute lands anywhere on the collector's sawtooth (it swung by 150 MB from one
      // minute to the next in the thirteenth pass's soak), so a line through it takes its sign from where
      // the last samples fell. The floor depends on it less: RSS read each second, the lowest of each five
      // minutes. But a window shows the floor only if a major collection fell in it; they came every three
      // to nine minutes in the nineteenth pass's soak, whose floor slope was +4.1 with the heap after
      // collection flat. A leak moves the heap after collection (above) first.
      {
        measure: 'server RSS floor MB (lowest in each 5 min of the load: first / peak / last)',
        value: `${mb(floors[0]?.y ?? NaN)} / ${mb(Math.max(...floors.map((f) => f.y)))} / ${mb(floors.at(-1)?.y ?? NaN)}`,
      },
      { measure: 'RSS floor slope, minute 10 to the end of the load, MB per 10 min', value: rounded(floors.map((f) => ({ t: f.t, y: f.y / 1048576 }))) },
      ...(FULL_GC
        ? [
            { measure: 'server RSS just after a full collection MB (first / peak / last during the load)', value: firstPeakLast(after10, (s) => s.rssAfterGc) },
            { measure: 'RSS just after a full collection: slope, minute 10 to the end of the load, MB per 10 min', value: slope((s) => s.rssAfterGc ?? NaN) },
            { measure: 'server heap just after a full collection MB (first / peak / last during the load)', value: firstPeakLast(after10, (s) => s.heapAfterGc) },
            { measure: 'heap just after a full collection: slope, minute 10 to the end of the load, MB per 10 min', value: slope((s) => s.heapAfterGc ?? NaN) },
          ]
        : []),
      { measure: 'server heap total MB (first / peak / last)', value: firstPeakLast(server, (s) => s.heapTotal) },
      // The figures above are the main thread's heap; the executor's thread has a heap of its own.
      ...(executorThread
        ? [
            { measure: 'executor thread heap after collection MB (lowest each minute: first / peak / last during the load)', value: firstPeakLast(duringLoad(executorThread), (s) => s.heapUsedMin) },
            { measure: 'executor thread heap after collection slope, minute 10 to the end of the load, MB per 10 min', value: slope((s) => s.heapUsedMin, duringLoad(executorThread)) },
            { measure: 'executor thread event loop delay p99 ms (median minute / worst minute)', value: loopDelay(executorThread) },
          ]
        : []),
      {
        measure: 'mark-compacts, minute 10 to the end of the load: count, total pause ms, worst minute ms',
        value: `${after10.reduce((a, s) => a + s.majorGcs, 0)}, ${Math.round(after10.reduce((a, s) => a + s.majorGcMs, 0))}, ${Math.max(...after10.map((s) => s.majorGcMs))}`,
      },
      { measure: 'event loop delay p99 ms (median minute / worst minute)', value: loopDelay(server) },
      { measure: 'samples (one a minute)', value: String(server.length) },
      { measure: 'record reads (req/s, p50 / p99 ms)', value: `${readResult.requests.total} (${Math.round(readResult.requests.average)}/s, ${readResult.latency.p50} / ${readResult.latency.p99})` },
      { measure: 'read errors, non-2xx', value: `${readResult.errors + readResult.timeouts}, ${readResult.non2xx}` },
      { measure: 'care plans enrolled and dated; write errors', value: `${enrolled}; ${writeErrors}` },
      // Each plan's two timed actions go proposed -> scheduled -> expired: four transitions.
      { measure: 'transitions applied / expected (4 a plan); applied twice', value: `${counts!.transitions} / ${4 * enrolled}; ${counts!.twice}` },
      { measure: 'transitions still due after settling', value: String(pending.due) },
      { measure: 'deliveries: rows / arrived (unique) / not delivered', value: `${counts!.deliveries} / ${uniqueArrivals} / ${pending.undelivered}` },
    ]);
    console.log(`memory samples: ${PROBE_FILE}`);
    if (readFailures.length) console.log(`reads not answered 2xx (first 20): ${readFailures.join('; ')}`);
    const [setting] = await sql<{ autovacuum: string }[]>`show autovacuum`;
    printTable(`tables over 1,000 rows when the load ended: scans during the load (autovacuum ${setting!.autovacuum})`, scans.map((r) => ({ table: r.relname, rows: r.n_live_tup, 'seq scans': r.seq_scan, 'rows seq-read': r.seq_tup_read, 'index scans': r.idx_scan, analyzes: r.analyzes })));
    if (proxy) {
      const prepared = proxy.prepared();
      const parses = [...prepared.values()].reduce((a, n) => a + n, 0);
      printTable(`prepared statements: ${prepared.size} texts, ${parses} parses over all connections; families by number of texts`, statementFamilies(prepared).slice(0, 20));
    }
  } finally {
    await agent.close();
    await stopProcess(app);
    receiver.stop();
    await proxy?.close();
    await sql.end();
  }
}
