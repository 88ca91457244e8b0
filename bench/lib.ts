import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Server } from 'node:http';
import postgres from 'postgres';
import type { Dispatcher } from 'undici';
import autocannon from 'autocannon';

export type LoadResult = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Requests per second in the first and last tenth of the run, to see decay. */
  firstRps: number;
  lastRps: number;
  /** Closed-loop runs: the answers counted and the run's seconds. */
  total?: number;
  elapsed?: number;
  /** Paced runs: each timed request, from when it was due to its answer (for bench/gc-windows). */
  spans?: Span[];
  /**
   * In cores over the run: the whole machine's busy and idle time, this process's
   * (autocannon, the load generator), the serving process's (`serverPid`) and PostgreSQL's. A server near
   * one core while the machine has idle ones is bound by its one event loop.
   */
  machine?: { busy: number; idle: number; generator: number; server: number; postgres: number; loop?: LoopUse };
};

/**
 * The serving process's event loop over a run: its main thread's cores (CPU time over the run's time), and
 * how often a second the kernel took the CPU from it while it could still run (nonvoluntary context
 * switches). A loop below one core with the machine not all busy lost its CPU to other processes it could
 * have run beside.
 */
export type LoopUse = { cores: number; preemptedPerSecond: number };

/** A request as the paced sender saw it, on this process's `performance.now()` clock. */
export type Span = { due: number; done: number };

/**
 * `requests`: end a closed-loop run after that many answers, or at `seconds`, whichever comes first (a
 * warm-up sized by the requests a route's JIT needs rather than by time, which at a slow route's rate is
 * fewer requests).
 */
type LoadOptions = { base: string; path: () => string; token: string; connections: number; seconds: number; rate?: number; requests?: number; headers?: () => Record<string, string>; serverPid?: number };

/**
 * A warm-up's size: this many answers, or WARM_MAX_SECONDS if the route is slower than that. 120 s: at 60,
 * the fields route (200-300 req/s on slow machines) stopped after 12,000-14,000 answers and was still
 * speeding up through its measured minute (decision 0014, seventy-third pass).
 */
export const WARM_REQUESTS = Number(process.env.BENCH_WARM_REQUESTS ?? 20_000);
export const WARM_MAX_SECONDS = Number(process.env.BENCH_WARM_MAX_SECONDS ?? 120);

/**
 * Warms a route (JIT, prepared statements, connection pools) right before its measured phase, sized in
 * requests: a route's JIT settles after a number of calls, not seconds, and a time-sized warm-up gives a
 * slow route fewer of them (bench/records' fifty-sixth pass: warmed minutes before its phase, the actor
 * route still rose 469 to 513 req/s within it; warmed by count right before, it ran flat).
 */
export async function warmUp(opts: Omit<LoadOptions, 'seconds' | 'requests' | 'rate' | 'serverPid'>): Promise<LoadResult> {
  const w = await load('warm', { ...opts, seconds: WARM_MAX_SECONDS, requests: WARM_REQUESTS });
  console.log(`warm-up of ${opts.base}${opts.path().replace(/\?.*/, '')}: ${w.total} requests in ${w.elapsed} s`);
  return w;
}

/**
 * Drives `path()` (a fresh path per request): paced at `rate` (openLoop), or else with autocannon, its
 * responses bucketed per second. Either way with the cores the run used (LoadResult.machine).
 */
export async function load(name: string, opts: LoadOptions): Promise<LoadResult> {
  // This process by its own count: cpuByProcess would also count children in its process group.
  const [machine0, own0, cpu0] = [machineCpu(), process.cpuUsage(), cpuByProcess({ server: opts.serverPid })];
  const loopPid = opts.serverPid === undefined ? undefined : busiestInGroup(opts.serverPid);
  const loop0 = loopPid === undefined ? undefined : tryThreadReading(loopPid);
  const result = opts.rate ? await paced(name, { ...opts, rate: opts.rate }) : await saturate(name, opts);
  const [machine1, own, cpu1] = [machineCpu(), process.cpuUsage(own0), cpuByProcess({ server: opts.serverPid })];
  const loop1 = loop0 && tryThreadReading(loopPid!);
  const { busy, idle } = machineCoresBusy(machine0, machine1);
  const over = (machine1.at - machine0.at) / 1000;
  const [server, postgres] = (['server', 'postgres'] as const).map((k) => cores(cpu1[k]! - cpu0[k]!, over));
  const loop = loop0 && loop1 ? { cores: cores(loop1.seconds - loop0.seconds, over), preemptedPerSecond: (loop1.preempted - loop0.preempted) / over } : undefined;
  return { ...result, machine: { busy, idle, generator: cores((own.user + own.system) / 1e6, over), server: server!, postgres: postgres!, loop } };
}

/** The busiest process in `leader`'s group (the server behind `npx next start`): the one whose loop serves. */
function busiestInGroup(leader: number): number | undefined {
  let busiest: number | undefined;
  let most = -1;
  for (const p of processes()) if ((p.group === leader || p.pid === leader) && p.seconds > most) [busiest, most] = [p.pid, p.seconds];
  return busiest;
}

/** threadReading, or undefined when the process has ended since. */
function tryThreadReading(pid: number): ThreadReading | undefined {
  try {
    return threadReading(pid);
  } catch {
    return undefined;
  }
}

/**
 * A process's main thread (its thread id is the process's) from /proc: CPU seconds so far, and its context
 * switches: by its own wait (epoll with nothing ready), or taken off the CPU for another task while it
 * could still run (preempted).
 */
export type ThreadReading = { seconds: number; waits: number; preempted: number };
export function threadReading(pid: number): ThreadReading {
  const status = fs.readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  const switches = (name: string) => Number(new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return {
    seconds: parseStat(fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')).seconds,
    waits: switches('voluntary_ctxt_switches'),
    preempted: switches('nonvoluntary_ctxt_switches'),
  };
}

/** autocannon at full speed on `opts.connections`. */
async function saturate(name: string, opts: LoadOptions): Promise<LoadResult> {
  const perSecond = new Map<number, number>();
  const start = Date.now();
  let finish!: (r: autocannon.Result) => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finish = resolve), (fail = reject)));
  const instance = autocannon(
    {
    url: opts.base,
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.requests ? { maxOverallRequests: opts.requests } : {}),
    headers: opts.headers ? {} : { authorization: `Bearer ${opts.token}` },
    // Per-request headers (a different member's token or cookie each time) when asked for.
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: opts.path(), ...(opts.headers ? { headers: { ...req.headers, ...opts.headers() } } : {}) }) }],
    },
    (err, result) => (err ? fail(err) : finish(result)),
  );
  instance.on('response', () => {
    const s = Math.floor((Date.now() - start) / 1000);
    perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
  });
  const result = await done;
  const secs = [...perSecond.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  const full = secs.slice(1, opts.seconds); // drop the partial first and last seconds
  const tenth = Math.max(1, Math.floor(full.length / 10));
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    firstRps: avg(full.slice(0, tenth)),
    lastRps: avg(full.slice(-tenth)),
    total: result.requests.total,
    elapsed: result.duration,
  };
}

/**
 * Open loop: `fn` for each item, one every 1/perSecond seconds whatever the answers, each timed from when
 * it was due, so a slow answer delays no one's clock (no coordinated omission). The first `uncounted`
 * items (a client opening its connections) and those whose `fn` answers false are not timed.
 */
export async function openLoop<T>(items: T[], perSecond: number, fn: (item: T) => Promise<unknown>, uncounted = 0): Promise<{ latencies: number[]; seconds: number; spans: Span[] }> {
  const spans: Span[] = [];
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < items.length; i++) {
    const due = t0 + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      fn(items[i]!).then((counted) => {
        if (i >= uncounted && counted !== false) spans.push({ due, done: performance.now() });
      }),
    );
  }
  await Promise.all(pending);
  return { latencies: spans.map((s) => s.done - s.due), seconds: (performance.now() - t0) / 1000, spans };
}

/**
 * GETs at a given rate (`load` with `rate`), through `openLoop`. autocannon's -R is no use for this: each
 * connection sends its share of a second back to back at the start of the second, then waits, so "half
 * load" meant bursts at full speed; and it pads the latency histogram for a 1 ms expected interval, which
 * multiplied every slow answer.
 */
async function paced(
  name: string,
  opts: { base: string; path: () => string; token: string; seconds: number; rate: number; headers?: () => Record<string, string> },
): Promise<LoadResult> {
  const { Agent, request } = await import('undici');
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 256 });
  let non2xx = 0;
  let errors = 0;
  const total = Math.round(opts.rate * opts.seconds);
  const get = () =>
    request(`${opts.base}${opts.path()}`, { dispatcher: agent, headers: opts.headers ? opts.headers() : { authorization: `Bearer ${opts.token}` } })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
        return true;
      })
      .catch(() => {
        errors++;
        return false;
      });
  // The first second opens the client's connections; it is not counted.
  const { latencies, seconds, spans } = await openLoop(Array.from({ length: total }), opts.rate, get, opts.rate);
  await agent.close();
  const rps = total / seconds;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { name, rps, p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), non2xx, errors, firstRps: rps, lastRps: rps, spans };
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  const cols = Object.keys(rows[0] ?? {});
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]!).length)));
  const line = (vals: string[]) => `| ${vals.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${title}\n${line(cols)}\n| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(cols.map((c) => cell(r[c]!))));
}

export function startProcess(cmd: string, args: string[], env: Record<string, string>): ChildProcess {
  // Its own process group, so stopping it stops what npx started too.
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(`[${cmd}] ${d.toString()}`));
  return child;
}

export async function waitForHttp(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  signalGroup('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) signalGroup('SIGKILL');
}

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh PostgreSQL database for one benchmark, migrated, with a project and its API key; the process
 * then points DATABASE_URL at it. Answers the URL and the project id.
 */
export async function freshBenchDatabase(name: string, apiKey?: string): Promise<{ url: string; projectId: number }> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:5432/${name}`;
  process.env.DATABASE_URL = url;
  const { migrateDb, getDb } = await import('@/db/client');
  const { createProject } = await import('@/server/services/projects/projects');
  await migrateDb();
  const db = await getDb();
  const { projectId } = await db.transaction((tx) => createProject(tx, { name: `Bench ${name}`, apiKey }));
  return { url, projectId };
}

/** `next start` needs a production build of the current sources: made when missing or older than them. */
export async function ensureBuild(): Promise<void> {
  const { ensureBuild: ensureFreshBuild } = await import('../scripts/ensure-build');
  ensureFreshBuild();
}

/** The p-th percentile of latencies (nearest rank). */
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

/** The AUTH_SECRET every bench server runs with (so a bench can sign a session cookie for it). */
export const BENCH_AUTH_SECRET = 'bench-secret-bench-secret-bench-secret';

/** The session cookie a member's sign-in through an identity provider leaves (an Auth.js JWT, `sub` member:<id>). */
export async function memberSessionCookie(memberId: number): Promise<string> {
  const { encode } = await import('next-auth/jwt');
  return `authjs.session-token=${await encode({ token: { sub: `member:${memberId}` }, secret: BENCH_AUTH_SECRET, salt: 'authjs.session-token' })}`;
}

/**
 * BENCH_NODE_FLAGS: flags for every bench server's node, which NODE_OPTIONS refuses (V8's heap flags among
 * them). The heap-growing factor needs none: the server takes CAREBASE_HEAP_GROWING_PERCENT from the
 * environment, which bench servers inherit.
 */
export const BENCH_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** The bench server's memory settings as given, for a table's title ('' when none: V8's own). */
export function benchServerMemoryNote(): string {
  const heap = process.env.CAREBASE_HEAP_GROWING_PERCENT;
  const parts = [...BENCH_NODE_FLAGS, ...(heap ? [`CAREBASE_HEAP_GROWING_PERCENT=${heap}`] : [])];
  return parts.length > 0 ? `; server ${parts.join(' ')}` : '';
}

/** `next start` of the current build against a bench database, as every REST bench runs it. */
export function startBenchApp(port: number, databaseUrl: string, env: Record<string, string> = {}, extraNodeArgs: string[] = []): ChildProcess {
  const nodeArgs = [...BENCH_NODE_FLAGS, ...extraNodeArgs];
  // With node flags (bench/profile's --cpu-prof, which NODE_OPTIONS refuses) node runs Next's CLI itself.
  const [cmd, args] = nodeArgs.length > 0 ? ['node', [...nodeArgs, 'node_modules/next/dist/bin/next']] : ['npx', ['next']];
  return startProcess(cmd, [...args, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: BENCH_AUTH_SECRET,
    CAREBASE_AUTO_MIGRATE: 'false',
    NEXT_MANUAL_SIG_HANDLE: 'true',
    NEXT_TELEMETRY_DISABLED: '1',
    // One token sends the whole load: the per-token limit (CONTRACT 7) would measure itself.
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
}

/** Runs `fn` over `items` with `clients` at a time; answers each call's latency and the wall time. */
export async function runAll<T>(items: T[], fn: (item: T) => Promise<number>, clients: number): Promise<{ latencies: number[]; seconds: number; spans: Span[] }> {
  const latencies: number[] = [];
  const spans: Span[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) {
        // One measure: the span is the call's own latency, ending now.
        const ms = await fn(items[next++]!);
        const done = performance.now();
        latencies.push(ms);
        spans.push({ due: done - ms, done });
      }
    }),
  );
  return { latencies, seconds: (performance.now() - t0) / 1000, spans };
}

export type Receiver = { pid: number | undefined; count: () => Promise<number>; report: () => Promise<[string, number][]>; reset: () => void; stop: () => void };

/**
 * A bench helper in a process of its own (TypeScript through tsx), once it has said it is ready: its first
 * message. Rejects if it exits first.
 */
export async function forkReady(module: string, args: string[] = []): Promise<ChildProcess> {
  const child = fork(module, args, { execArgv: module.endsWith('.ts') ? ['--import', 'tsx'] : [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${module} exited with ${code} before it was ready`)));
  });
  return child;
}

/** bench/webhook-receiver.mjs in its own process on `port`: answers 200 and notes when each delivery arrived. */
export async function startReceiverProcess(port: number): Promise<Receiver> {
  const child = await forkReady('bench/webhook-receiver.mjs', [String(port)]);
  return {
    pid: child.pid,
    count: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { count: number }).count));
        child.send('count');
      }),
    report: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { arrivals: [string, number][] }).arrivals));
        child.send('report');
      }),
    reset: () => child.send('reset'),
    stop: () => child.kill(),
  };
}

export async function waitForAll(receiver: Receiver, count: number, timeoutMs: number): Promise<[string, number][]> {
  const until = Date.now() + timeoutMs;
  // Poll the count (a number over IPC), and fetch the arrivals once: sending the growing list every
  // 100 ms cost this process, which runs the executor, a tenth of its CPU.
  while ((await receiver.count()) < count && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return receiver.report();
}

/**
 * bench/records' ceiling server (bench/ceiling-child.ts) in a process of its own, not on the event loop of
 * the bench's load generator. In the same process it served as much (3,333 against 3,345 req/s for the
 * actor route), but the CPU of the two could not be told apart.
 */
export async function startCeilingProcess(databaseUrl: string, port: number, poolMax: number): Promise<{ pid: number | undefined; close: () => Promise<void> }> {
  const child = await forkReady('bench/ceiling-child.ts', [databaseUrl, String(port), String(poolMax)]);
  return {
    pid: child.pid,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.send('stop');
      await exited;
    },
  };
}

/** A ceiling's postgres.js pool, set up as the app's (db/client.ts: JIT off). */
export function ceilingPool(databaseUrl: string, max: number, prepare = true): postgres.Sql {
  return postgres(databaseUrl, { max, onnotice: () => {}, prepare, connection: { jit: 'off' } });
}

/** Starts a ceiling's server on 127.0.0.1; `close` stops it and ends its pool. */
export function listenCeiling(server: Server, port: number, sql: postgres.Sql): Promise<{ close: () => Promise<void> }> {
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: async () => {
          await new Promise((r) => server.close(r));
          await sql.end({ timeout: 5 });
        },
      }),
    ),
  );
}

/**
 * CPU seconds used so far (Linux /proc, user + system) by each named process group (a process started
 * by startProcess leads its own group: `next start` and the server npx runs under it) and by all
 * PostgreSQL processes together. Two readings' difference over a pass's requests is its CPU per request.
 */
export function cpuByProcess(groups: Record<string, number | undefined>): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries([...Object.keys(groups), 'postgres'].map((k) => [k, 0]));
  for (const { pid, comm, group, seconds } of processes()) {
    for (const [name, leader] of Object.entries(groups)) if (leader !== undefined && (group === leader || pid === leader)) out[name]! += seconds;
    if (comm === 'postgres') out.postgres! += seconds;
  }
  return out;
}

/** Clock ticks a second in /proc's CPU times (Linux's USER_HZ). */
const USER_HZ = 100;

/**
 * The whole machine's CPU time so far (Linux /proc/stat, all cores), in seconds by kind, with the time it
 * was read. Per-process readings (cpuByProcess) leave out what no process is charged for (interrupts, and
 * the kernel's network work done outside a process, such as ksoftirqd's) and cannot show idle cores.
 */
export type MachineCpu = { at: number; user: number; system: number; irq: number; steal: number; idle: number };
export function machineCpu(): MachineCpu {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number) as number[];
  return { at: performance.now(), user: (user! + nice!) / USER_HZ, system: system! / USER_HZ, irq: (irq! + softirq!) / USER_HZ, steal: (steal ?? 0) / USER_HZ, idle: (idle! + iowait!) / USER_HZ };
}

/** Cores busy, on average, between two readings, by kind ("busy" being all but idle and stolen time). */
export function machineCoresBusy(before: MachineCpu, after: MachineCpu): { busy: number; user: number; system: number; irq: number; steal: number; idle: number } {
  const seconds = (after.at - before.at) / 1000;
  const of = (k: Exclude<keyof MachineCpu, 'at'>) => cores(after[k] - before[k], seconds);
  const [user, system, irq] = [of('user'), of('system'), of('irq')];
  return { busy: cores(user + system + irq, 1), user, system, irq, steal: of('steal'), idle: of('idle') };
}

/** `cpuSeconds` used over `seconds` as cores busy on average, to two places. */
export function cores(cpuSeconds: number, seconds: number): number {
  return Math.round((cpuSeconds / seconds) * 100) / 100;
}

/**
 * A `/proc/.../stat` line: the command name, the fields after it, and the CPU seconds (user + system) the
 * process, or the thread of a `/proc/<pid>/task/<tid>/stat`, has used.
 */
export function parseStat(stat: string): { comm: string; fields: string[]; seconds: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields, seconds: (Number(fields[11]) + Number(fields[12])) / USER_HZ };
}

/** Every process in /proc with its command name, process group and CPU seconds. */
function* processes(): Generator<{ pid: number; comm: string; group: number; seconds: number }> {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended since the listing
    }
    const { comm, fields, seconds } = parseStat(stat);
    yield { pid: Number(pid), comm, group: Number(fields[2]), seconds };
  }
}

/** The resident set of the largest process in a process group (the server under `npx next start`), in MB. */
export function largestRssMb(leader: number | undefined): number {
  let largest = 0;
  for (const { pid, group } of processes()) {
    if (group !== leader && pid !== leader) continue;
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      largest = Math.max(largest, kb / 1024);
    } catch {
      continue; // ended since the listing
    }
  }
  return Math.round(largest);
}

/**
 * The care plan template bench/careplans and bench/service-cpu enrol members in: ten actions with a
 * reminder each, two on the plan's start and eight on the reference date input `ref`.
 */
export function benchCareplanDefinition(observationCodeId: number) {
  const actions = Array.from({ length: 10 }, (_, i) => ({
    key: `a${i}`,
    type: 'task',
    display: `Action ${i}`,
    ...(i >= 2 ? { inputKey: 'ref' } : {}),
    start: { offset: i * 3, offsetUnit: i % 2 ? 'd' : 'wk' },
    end: { offset: 2, offsetUnit: 'd' },
    reminders: [{ offset: 1, offsetUnit: 'h' }],
  }));
  return { slug: 'bench', title: 'Bench', inputs: [{ key: 'ref', observationCodeId }], actions };
}

/**
 * One POST through undici's `dispatch` with a bare handler that waits for the end of the answer: the
 * cheapest plain undici client, and the way the executor posts (server/webhooks/http.ts). The handler must
 * have `onRequestStart`: without it undici 7 expects the older callbacks and `onResponseEnd` never comes.
 */
export function dispatchPost(dispatcher: Dispatcher, url: URL, headers: Record<string, string>, body: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    dispatcher.dispatch(
      { origin: url.origin, path: url.pathname, method: 'POST', headers, body },
      { onRequestStart: () => {}, onResponseEnd: () => resolve(), onResponseError: (_c, e) => reject(e) },
    );
  });
}
