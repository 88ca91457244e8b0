/**
 * bench/webhooks: member_create operations each fanning out to 10 `after` webhooks on a local receiver
 * (a separate process), on PostgreSQL with the embedded executor. Measures deliveries per second for a
 * burst of 2,000 operations, and commit-to-delivery latency at a steady 200 operations per second (or half
 * of what this machine committed and drained in the burst, when that is less: see STEADY_OPS_PER_S);
 * beside the ceiling: a plain client posting the same signed bodies with undici and keep-alive, once with
 * `request` and once with `dispatch` and a bare handler (the executor's own way); the faster counts. Last,
 * fairness: with two executors (this process and bench/executor-child.ts) and 10,000 deliveries queued
 * for one webhook, the commit-to-delivery latency of another webhook's deliveries. And as deployed: the
 * same burst drained by the production server's own executor (`next start`), on its own thread and on
 * the server's event loop, with a member read's latency alone and during the drain. Beside the rates: CPU a
 * post or delivery by process, for the ceilings and the drains, with the rate that CPU allows with every
 * core busy (a run cannot pass it however its processes are scheduled), the whole machine's CPU over each
 * run (idle cores show a run not bound by the CPU),
 * and this process's event loop for the ceilings' client and the drain (busy, on a CPU, preempted).
 */
import { availableParallelism } from 'node:os';
import { performance as perf, type EventLoopUtilization } from 'node:perf_hooks';
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { BENCH_AUTH_SECRET, cores, cpuByProcess, dispatchPost, forkReady, ensureBuild, freshBenchDatabase, largestRssMb, machineCoresBusy, machineCpu, openLoop, type MachineCpu, percentile, printTable, startBenchApp, startReceiverProcess, stopProcess, threadReading, waitForAll, waitForHttp } from './lib';

const DB_NAME = 'carebase_bench_webhooks';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3301;
const APP_PORT = 3302;
const WEBHOOKS = 10;
const OPERATIONS = 2000;
// The steady run's rate, unless this machine cannot keep it: it is then half of the burst's own rates (the
// backlog's operations committed one at a time, the drain over 10 webhooks), so that the steady run times a
// delivery at half load, not a queue. The seventy-fifth pass committed the backlog at 202 operations a second
// with nothing else running, and its steady run at 200 measured a p99 of 1,998 ms: the producer's backlog.
const STEADY_OPS_PER_S = 200;
const CONCURRENCY = Number(process.env.BENCH_EXECUTOR_CONCURRENCY ?? 64);
const API_KEY = 'cb_key_bench_webhooks_0123456789abcdef';
const READS_PER_S = 100;
const MACHINE_CORES = availableParallelism();

export async function benchWebhooks(): Promise<void> {
  process.env.EXECUTOR_CONCURRENCY = String(CONCURRENCY);
  process.env.DB_POOL_MAX = '20';
  // The app server decrypts the webhooks' secrets this process stores: both run with the bench's secret.
  process.env.AUTH_SECRET = BENCH_AUTH_SECRET;

  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  const { getDb, closeDb } = await import('@/db/client');
  const { createContext } = await import('@/server/context');
  const { createWebhook } = await import('@/server/services/webhooks/webhooks');
  const { createMember, updateMember } = await import('@/server/services/members/members');
  const { startEmbeddedExecutor, stopExecutor } = await import('@/server/executor');
  const { signatureHeader } = await import('@/server/webhooks/signing');
  const db = await getDb();
  const ctx = createContext(db, projectId, { kind: 'system', role: 'admin' });
  // The member the app server's reads fetch, made before any webhook (its creation delivers nothing).
  const reader = await createMember(ctx, { name: 'reader' });
  const secrets: string[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const w = await createWebhook(ctx, { display: `w${i}`, url: `http://127.0.0.1:${PORT}/w${i}`, triggers: [{ event: 'member_create' }] });
    secrets.push(w.secret);
  }
  const receiver = await startReceiverProcess(PORT);
  const deliveriesTotal = OPERATIONS * WEBHOOKS;
  const rows: Record<string, string | number>[] = [];

  // Ceiling: the same number of signed bodies posted straight to the receiver, same concurrency. A warm-up
  // of 2,000 posts first: cold, the timed run varied from 5,400 to 10,600 posts/s between runs.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: CONCURRENCY });
  const body = JSON.stringify({ event: 'member_create', projectId, params: { name: 'x' }, responseData: { id: 1, name: 'x' } });
  const headersOf = (id: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader([secrets[0]!], id, ts, body) };
  };
  // Two plain clients: undici's `request` (an answer stream per call), and `dispatch` with a handler that
  // only waits for the end, as the executor's own send does (server/webhooks/http.ts). The drain is printed
  // against both: `request` is the ceiling, `dispatch` the stricter.
  const viaRequest = async (n: number) => {
    const res = await request(`http://127.0.0.1:${PORT}/w${n % WEBHOOKS}`, { method: 'POST', dispatcher: agent, headers: headersOf(String(n)), body });
    await res.body.dump();
  };
  const viaDispatch = (n: number) => dispatchPost(agent, new URL(`http://127.0.0.1:${PORT}/w${n % WEBHOOKS}`), headersOf(String(n)), body);
  const postAll = async (total: number, post: (n: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) await post(++next);
      }),
    );
  };
  const ceilings: { name: string; rate: number }[] = [];
  // This process is the ceilings' client, and then the executor: the runs' CPU rows share its column.
  const here = { executor: process.pid, receiver: receiver.pid };
  for (const [name, post] of [['request', viaRequest], ['dispatch', viaDispatch]] as const) {
    await postAll(2_000, post);
    const [start, l0] = [runStart(here), loopReading()];
    const c0 = performance.now();
    await postAll(deliveriesTotal, post);
    const rate = deliveriesTotal / ((performance.now() - c0) / 1000);
    runEnd(`ceiling: undici ${name} posts`, start, here, deliveriesTotal);
    loopRow(`ceiling: undici ${name} posts (the client)`, l0, deliveriesTotal);
    ceilings.push({ name, rate });
    rows.push({ run: `ceiling: undici ${name} posts`, deliveries: deliveriesTotal, 'deliveries/s': Math.round(rate), 'p50 ms': '-', 'p99 ms': '-' });
  }
  await agent.close();
  receiver.reset();

  // Warm the executor as the ceiling was (JIT, prepared statements, pools): 200 operations drained first.
  startEmbeddedExecutor();
  for (let i = 0; i < 200; i++) await createMember(ctx, { name: `warm ${i}` });
  await waitForAll(receiver, 200 * WEBHOOKS, 60_000);
  await stopExecutor();
  receiver.reset();

  // Backlog: the operations committed first, then the executor drains their deliveries.
  const b0 = Date.now();
  for (let i = 0; i < OPERATIONS; i++) await createMember(ctx, { name: `burst ${i}` });
  const backlogSeconds = (Date.now() - b0) / 1000;
  const committedPerS = OPERATIONS / backlogSeconds;
  console.log(`backlog: ${OPERATIONS} operations committed in ${backlogSeconds.toFixed(1)} s (${Math.round(committedPerS)}/s)`);
  const d0 = Date.now();
  const [drainStart, loopBefore] = [runStart(here), loopReading()];
  startEmbeddedExecutor();
  const burst = await waitForAll(receiver, deliveriesTotal, 120_000);
  loopRow('executor: drain (this process)', loopBefore, burst.length);
  runEnd('executor: drain (this process)', drainStart, here, burst.length);
  const burstSeconds = (Math.max(...burst.map((a) => a[1])) - d0) / 1000;
  const burstRate = Math.round(burst.length / burstSeconds);
  rows.push({
    run: `executor: drain ${deliveriesTotal} deliveries`,
    deliveries: burst.length,
    'deliveries/s': burstRate,
    'p50 ms': '-',
    'p99 ms': '-',
  });
  receiver.reset();

  // Steady: 2,000 operations at STEADY_OPS_PER_S or half the burst's rates; latency from the delivery row's
  // commit to its arrival.
  const drainedPerS = burstRate / WEBHOOKS;
  const steadyRate = Math.max(1, Math.min(STEADY_OPS_PER_S, Math.floor(committedPerS / 2), Math.floor(drainedPerS / 2)));
  if (steadyRate < STEADY_OPS_PER_S) {
    console.log(`steady: ${steadyRate} operations/s, half of the burst's (committed ${Math.round(committedPerS)}/s, drained ${Math.round(drainedPerS)}/s): ${STEADY_OPS_PER_S}/s would queue here`);
  }
  const sql = postgres(DATABASE_URL, { max: 2, onnotice: () => {} });
  const [last] = await sql<{ max: number }[]>`select coalesce(max(id), 0)::int as max from webhook_delivery`;
  const lastBurstId = last!.max;
  const s0 = Date.now();
  const interval = 1000 / steadyRate;
  for (let i = 0; i < OPERATIONS; i++) {
    const due = s0 + i * interval;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    void createMember(ctx, { name: `steady ${i}` });
  }
  const steady = await waitForAll(receiver, deliveriesTotal, 120_000);
  const created = new Map(
    (await sql<{ id: number; created_at: Date }[]>`select id::int, created_at from webhook_delivery where id > ${lastBurstId}`).map((r) => [String(r.id), r.created_at.getTime()]),
  );
  const latencies = steady.map(([id, at]) => at - (created.get(id) ?? at));
  const steadySeconds = (Math.max(...steady.map((a) => a[1])) - s0) / 1000;
  rows.push({
    run: `executor: steady ${steadyRate} ops/s`,
    deliveries: steady.length,
    'deliveries/s': Math.round(steady.length / steadySeconds),
    'p50 ms': percentile(latencies, 50),
    'p99 ms': percentile(latencies, 99),
  });

  // Fairness: two app instances' executors on one database; 10,000 deliveries queued for one webhook,
  // then 20 operations, 100 ms apart, whose deliveries go to another webhook: how long do they wait?
  await stopExecutor();
  receiver.reset();
  const busy = await createWebhook(ctx, { display: 'busy', url: `http://127.0.0.1:${PORT}/busy`, triggers: [{ event: 'member_delete' }] });
  const other = await createWebhook(ctx, { display: 'other', url: `http://127.0.0.1:${PORT}/other`, triggers: [{ event: 'member_update' }] });
  const BACKLOG = 10_000;
  await sql`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at)
    select ${projectId}, ${busy.id}, 'member_delete', ${body}, 'pending', now() from generate_series(1, ${BACKLOG})`;
  const child = await forkReady('bench/executor-child.ts');
  const f0 = Date.now();
  startEmbeddedExecutor();
  const member = await createMember(ctx, { name: 'fairness' });
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 100));
    await updateMember(ctx, member.id, { name: `fairness ${i}` });
  }
  const fair = await waitForAll(receiver, BACKLOG + 20 + WEBHOOKS, 120_000);
  const otherRows = new Map(
    (await sql<{ id: number; created_at: Date }[]>`select id::int, created_at from webhook_delivery where webhook_id = ${other.id}`).map((r) => [String(r.id), r.created_at.getTime()]),
  );
  const otherLatencies = fair.filter(([id]) => otherRows.has(id)).map(([id, at]) => at - otherRows.get(id)!);
  const fairSeconds = (Math.max(...fair.map((a) => a[1])) - f0) / 1000;
  rows.push({
    run: `fairness: another webhook during a ${BACKLOG} backlog (2 instances)`,
    deliveries: otherLatencies.length,
    'deliveries/s': Math.round(fair.length / fairSeconds),
    'p50 ms': percentile(otherLatencies, 50),
    'p99 ms': percentile(otherLatencies, 99),
  });
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  await stopExecutor();
  receiver.reset();

  // As deployed: the executor in the production server, where Next's request handling, its
  // AsyncLocalStorage (Node 20's promise hooks on every promise) and timers share the process; once on a
  // thread of its own (EXECUTOR_THREAD=true), once on the server's event loop (the default). Each
  // time the burst is committed here and held while the server starts and warms up on 2 x 200
  // operations of its own (found by its idle poll within a second); then it is let go. The
  // rate runs from the first arrival to the last: the executor finds the rows on its next poll, not at a
  // known time. Beside it, what a drain does to the server's requests: `GET /member/{id}` at 100/s, first
  // with nothing to deliver, then from the drain's first arrival to its last.
  await ensureBuild();
  const served: { where: string; rate: number; alone: number[]; during: number[]; rssIdle: number; rssAfter: number; readCpu: { server: number; postgres: number } }[] = [];
  for (const [where, thread] of [['on its own thread', 'true'], ["on the server's event loop", 'false']] as const) {
    for (let i = 0; i < OPERATIONS; i++) await createMember(ctx, { name: `served ${i}` });
    // Held by row locks in an open transaction, which the executor's claim (SKIP LOCKED) passes over.
    // Not by a lease: setting and lifting one wrote every row twice, and the drain then walked the dead
    // versions' index entries (PostgreSQL's CPU a delivery was twice this process's drain's).
    let lift = () => {};
    const lifted = new Promise<void>((resolve) => (lift = resolve));
    const holding = new Promise<void>((locked, failed) => {
      sql
        .begin(async (tx) => {
          await tx`select id from webhook_delivery where status = 'pending' for update`;
          locked();
          await lifted;
        })
        .catch(failed);
    });
    await holding;
    const app = startBenchApp(APP_PORT, DATABASE_URL, {
      CAREBASE_EXECUTOR: 'embedded',
      EXECUTOR_THREAD: thread,
      EXECUTOR_CONCURRENCY: String(CONCURRENCY),
      // The thread's pool as large as this process's, where the executor drained beside it.
      DB_POOL_MAX: '20',
      EXECUTOR_DB_POOL_MAX: '20',
      WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    });
    const readAgent = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
    const read = async () => {
      const res = await request(`http://127.0.0.1:${APP_PORT}/api/v1/member/${reader.id}`, { dispatcher: readAgent, headers: { authorization: `Bearer ${API_KEY}` } });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`GET /member/{id} answered ${res.statusCode}`);
    };
    try {
      await waitForHttp(`http://127.0.0.1:${APP_PORT}/api/v1/openapi.json`);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 200; i++) await createMember(ctx, { name: `served warm ${i}` });
        const warm = await waitForAll(receiver, 200 * WEBHOOKS, 60_000);
        if (warm.length < 200 * WEBHOOKS) throw new Error(`the app server delivered ${warm.length} of ${200 * WEBHOOKS} warm-up deliveries in 60 s`);
        receiver.reset();
      }
      const rssIdle = largestRssMb(app.pid);
      // 5 s of reads with nothing due; the first second (the client's connections) is not counted. The
      // server's CPU and PostgreSQL's meanwhile are what the reads (and the server's idle background work:
      // its pollers) cost each a second, taken off their shares of the drain below.
      const readsFrom = { cpu: cpuByProcess({ executor: app.pid }), at: performance.now() };
      const alone = await openLoop(Array.from({ length: 5 * READS_PER_S }), READS_PER_S, read, READS_PER_S);
      const readsTo = { cpu: cpuByProcess({ executor: app.pid }), at: performance.now() };
      const readCpuPerS = (name: string) => (readsTo.cpu[name]! - readsFrom.cpu[name]!) / ((readsTo.at - readsFrom.at) / 1000);
      const inServer = { executor: app.pid, receiver: receiver.pid };
      const start = runStart(inServer);
      lift();
      while ((await receiver.count()) === 0) await new Promise((r) => setTimeout(r, 10));
      // Reads through the drain: up to 10 s of them, stopped at its last arrival.
      let drained = false;
      const reading = openLoop(Array.from({ length: 10 * READS_PER_S }), READS_PER_S, () => (drained ? Promise.resolve(false) : read()));
      const arrivals = await waitForAll(receiver, deliveriesTotal, 120_000);
      drained = true;
      // From the letting go to the last arrival. The machine's view includes the reads and the bench process
      // sending them; the CPU a delivery leaves out what the reads cost the server and PostgreSQL over that time.
      const seconds = (performance.now() - start.machine.at) / 1000;
      runEnd(`executor in the app server, ${where}: drain`, start, inServer, arrivals.length, { executor: readCpuPerS('executor') * seconds, postgres: readCpuPerS('postgres') * seconds });
      const times = arrivals.map((a) => a[1]);
      // Arrival times are the receiver's Date.now(); the reads' are this process's performance.now().
      const lastArrival = Math.max(...times) - Date.now() + performance.now();
      const during = (await reading).spans.filter((span) => span.due <= lastArrival).map((span) => span.done - span.due);
      const rate = Math.round((arrivals.length - 1) / ((Math.max(...times) - Math.min(...times)) / 1000));
      served.push({ where, rate, alone: alone.latencies, during, rssIdle, rssAfter: largestRssMb(app.pid), readCpu: { server: readCpuPerS('executor'), postgres: readCpuPerS('postgres') } });
      rows.push({ run: `executor in the app server, ${where}: drain ${deliveriesTotal} deliveries`, deliveries: arrivals.length, 'deliveries/s': served.at(-1)!.rate, 'p50 ms': '-', 'p99 ms': '-' });
      receiver.reset();
    } finally {
      lift();
      await readAgent.close();
      await stopProcess(app);
    }
  }

  await sql.end();
  receiver.stop();
  await closeDb();

  printTable(`bench/webhooks: ${OPERATIONS} operations x ${WEBHOOKS} after webhooks, PostgreSQL, executor concurrency ${CONCURRENCY}`, rows);
  const drains = [{ where: '', drained: burstRate }, ...served.map((d) => ({ where: `, executor in the app server ${d.where}`, drained: d.rate }))];
  printTable('executor / ceiling', [
    ...drains.flatMap(({ where, drained }) =>
      ceilings.map(({ name, rate }) => ({ measure: `throughput against undici \`${name}\`${where}`, value: `${((drained / rate) * 100).toFixed(0)} %`, goal: '>= 50 %' })),
    ),
    { measure: `p99 commit-to-delivery at ${steadyRate} ops/s`, value: `${rows[3]!['p99 ms']} ms`, goal: '< 1000 ms' },
    { measure: "another webhook's p99 during a 10,000 backlog", value: `${rows[4]!['p99 ms']} ms`, goal: '< 1000 ms' },
  ]);
  const ms = (xs: number[], p: number) => percentile(xs, p).toFixed(1);
  printTable('the app server, by where its executor runs', [
    ...served.map(({ where, rate, rssIdle, rssAfter }) => ({ executor: where, 'deliveries/s': rate, 'RSS MB warmed up, idle': rssIdle, 'RSS MB after the drain': rssAfter })),
  ]);
  const requestCeiling = ceilings.find((c) => c.name === 'request')!.rate;
  printTable(
    `CPU a post or delivery, by process (the client's or the executor's: this process, or the app server; the server's drains less what its reads cost it and PostgreSQL), and the rate that CPU allows with all ${MACHINE_CORES} cores busy`,
    cpuRows.map((row) => {
      const bound = (MACHINE_CORES * 1e6) / Number(row['total µs']);
      return { ...row, [`/s with ${MACHINE_CORES} cores busy`]: Math.round(bound), 'that, of the `request` ceiling': `${Math.round((bound / requestCeiling) * 100)} %` };
    }),
  );
  printTable(`the machine during each run, cores of ${MACHINE_CORES} (/proc/stat), beside the CPU of the named processes (/proc/<pid>/stat: the client or executor, the receiver, PostgreSQL)`, machineRows);
  printTable("this process's event loop: the ceiling's client, and the executor draining (busy: not waiting in epoll; on a CPU: the main thread's CPU time)", loopRows);
  // The CPU columns: what the reads alone (with the server's idle pollers) cost a second, taken off the
  // server's and PostgreSQL's shares of its drain in the CPU table above.
  printTable(`GET /member/{id} at ${READS_PER_S}/s in the app server, alone and during the drain`, [
    ...served.flatMap(({ where, alone, during, readCpu }) => [
      { executor: where, reads: 'alone', n: alone.length, 'p50 ms': ms(alone, 50), 'p99 ms': ms(alone, 99), 'max ms': ms(alone, 100), 'server CPU ms/s': Math.round(readCpu.server * 1000), 'PostgreSQL CPU ms/s': Math.round(readCpu.postgres * 1000) },
      { executor: where, reads: 'during the drain', n: during.length, 'p50 ms': ms(during, 50), 'p99 ms': ms(during, 99), 'max ms': ms(during, 100), 'server CPU ms/s': '-', 'PostgreSQL CPU ms/s': '-' },
    ]),
  ]);
}

/**
 * What the whole machine did over a run (cores busy by kind, idle, stolen), and how much of the busy time
 * the named processes account for: a drain that leaves cores idle is held by something other than CPU.
 */
const machineRows: Record<string, string | number>[] = [];
function machineRow(run: string, m0: MachineCpu, m1: MachineCpu, p0: Record<string, number>, p1: Record<string, number>): void {
  const b = machineCoresBusy(m0, m1);
  const seconds = (m1.at - m0.at) / 1000;
  const named = cores(Object.keys(p1).reduce((sum, k) => sum + p1[k]! - (p0[k] ?? 0), 0), seconds);
  machineRows.push({ run, 'busy cores': b.busy, user: b.user, system: b.system, 'irq + softirq': b.irq, steal: b.steal, idle: b.idle, 'named processes': named, 'the rest': cores(b.busy - named, 1) });
}

/**
 * This process's event loop over a run: how much of the time it was busy, and how much of that its
 * thread was on a CPU (the rest it waited for a core). A loop busy all the time bounds the run; one that
 * is on a CPU for less than it is busy shares the cores with the processes it talks to.
 */
const loopRows: Record<string, string | number>[] = [];
type LoopReading = { at: number; elu: EventLoopUtilization; cpu: number; waits: number; preempted: number };
function loopReading(): LoopReading {
  const { seconds, waits, preempted } = threadReading(process.pid);
  return { at: performance.now(), elu: perf.eventLoopUtilization(), cpu: seconds, waits, preempted };
}
function loopRow(run: string, before: LoopReading, deliveries: number): void {
  const after = loopReading();
  const seconds = (after.at - before.at) / 1000;
  const busy = perf.eventLoopUtilization(after.elu, before.elu).utilization;
  const onCpu = (after.cpu - before.cpu) / seconds;
  loopRows.push({
    run,
    'loop busy': busy.toFixed(2),
    'main thread on a CPU': onCpu.toFixed(2),
    'busy µs a delivery': Math.round((busy * seconds * 1e6) / deliveries),
    'on-CPU µs a delivery': Math.round(((after.cpu - before.cpu) * 1e6) / deliveries),
    // Off the CPU by its own wait (epoll with nothing ready), or taken off it for another task.
    'waits a second': Math.round((after.waits - before.waits) / seconds),
    'preempted a second': Math.round((after.preempted - before.preempted) / seconds),
  });
}

/**
 * CPU a post or delivery by process, for the ceilings, the bench process's drain and the server's: what
 * the run's rate could be with every core busy, the bound no scheduling of these processes can pass.
 */
const cpuRows: Record<string, string | number>[] = [];
type RunStart = { machine: MachineCpu; cpu: Record<string, number> };
function runStart(processes: Record<string, number | undefined>): RunStart {
  return { machine: machineCpu(), cpu: cpuByProcess(processes) };
}
/**
 * A run's machine row and its CPU a delivery, from one reading at its end; `less` is CPU seconds taken off
 * the named processes' shares of the delivery (the app server's reads beside its drain: the server's and
 * PostgreSQL's).
 */
function runEnd(run: string, start: RunStart, processes: Record<string, number | undefined>, deliveries: number, less: Record<string, number> = {}): void {
  const cpu = cpuByProcess(processes);
  machineRow(run, start.machine, machineCpu(), start.cpu, cpu);
  for (const [name, seconds] of Object.entries(less)) cpu[name]! -= seconds;
  cpuRows.push({ run, ...cpuSpent(start.cpu, cpu, deliveries) });
}

/** CPU microseconds a delivery between two readings of cpuByProcess, by process. */
function cpuSpent(before: Record<string, number>, after: Record<string, number>, deliveries: number): Record<string, number> {
  const us = (name: string) => Math.round(((after[name]! - before[name]!) / deliveries) * 1e6);
  return { 'client or executor µs': us('executor'), 'PostgreSQL µs': us('postgres'), 'receiver µs': us('receiver'), 'total µs': us('executor') + us('postgres') + us('receiver') };
}
