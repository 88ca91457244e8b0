/**
 * bench/scheduler: the embedded scheduler on PostgreSQL, no webhooks.
 * 1. Spread: 100,000 activities whose activateAt falls evenly over 60 s; lateness is the time from an
 *    activity's due time to the commit of its transition.
 * 2. Backlog: 100,000 activities already due when the scheduler starts; how fast it drains them.
 */
import postgres from 'postgres';
import { freshBenchDatabase, printTable } from './lib';

const DB_NAME = 'carebase_bench_scheduler';
const COUNT = Number(process.env.BENCH_ACTIVITIES ?? 100_000);
const SPREAD_S = Number(process.env.BENCH_SPREAD_S ?? 60);

const pct = (xs: Float64Array, p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function seedActivities(url: string, projectId: number, careplanId: number, subjectId: number, from: Date, spreadMs: number) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`
    insert into activity (project_id, careplan_id, subject_id, type, display, activate_at, next_due_at, reminders)
    select ${projectId}, ${careplanId}, ${subjectId}, 'task', 'Bench ' || g, t, t, '[]'::jsonb
    from (select g, ${from.toISOString()}::timestamptz + g * ${spreadMs / COUNT}::float8 * interval '1 millisecond' as t
          from generate_series(1, ${COUNT}) g) s`;
  await sql`analyze activity`;
  await sql.end();
}

async function runScheduler(expected: number) {
  const { TransitionScheduler } = await import('@/server/executor/scheduler');
  const lateness = new Float64Array(expected);
  let done = 0;
  let firstAt = 0;
  let lastAt = 0;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const scheduler = new TransitionScheduler({
    onBatch: ({ dueTimes, doneAt }) => {
      if (dueTimes.length === 0) return;
      if (!firstAt) firstAt = doneAt;
      lastAt = doneAt;
      for (const at of dueTimes) lateness[done++] = doneAt - at.getTime();
      if (done >= expected) finish();
    },
  });
  const started = Date.now();
  scheduler.start();
  await finished;
  await scheduler.stop();
  const sorted = lateness.slice(0, done).sort();
  return { done, started, firstAt, lastAt, sorted };
}

export async function benchScheduler(): Promise<void> {
  const { url, projectId } = await freshBenchDatabase(DB_NAME);
  const { getDb, closeDb } = await import('@/db/client');
  const { createContext } = await import('@/server/context');
  const { careplanForBulkActivities } = await import('@/server/testing/careplan-fixture');
  const ctx = createContext(await getDb(), projectId, { kind: 'system', role: 'admin' });
  const { member, careplan } = await careplanForBulkActivities(ctx, 'bench');
  const rows: Record<string, string | number>[] = [];

  // 1. Spread over 60 s, starting shortly after the seed.
  const from = new Date(Date.now() + 15_000);
  await seedActivities(url, projectId, careplan.id, member.id, from, SPREAD_S * 1000);
  if (Date.now() > from.getTime()) throw new Error('seeding took longer than the lead time');
  const spread = await runScheduler(COUNT);
  rows.push({
    run: `${COUNT} due over ${SPREAD_S} s`,
    transitions: spread.done,
    'per s': Math.round(spread.done / ((spread.lastAt - from.getTime()) / 1000)),
    'lateness p50 ms': Math.round(pct(spread.sorted, 50)),
    'p99 ms': Math.round(pct(spread.sorted, 99)),
    'max ms': Math.round(spread.sorted.at(-1) ?? NaN),
  });

  // 2. A backlog: everything already due.
  const pg = postgres(url, { max: 1, onnotice: () => {} });
  await pg`delete from event where project_id = ${projectId}`;
  await pg`delete from activity where display like 'Bench %'`;
  await pg.end();
  await seedActivities(url, projectId, careplan.id, member.id, new Date(Date.now() - 120_000), 60_000);
  const backlog = await runScheduler(COUNT);
  rows.push({
    run: `backlog of ${COUNT} already due`,
    transitions: backlog.done,
    'per s': Math.round(backlog.done / ((backlog.lastAt - backlog.started) / 1000)),
    // Lateness here is mostly how long before the start they were due; the drain time is the measure.
    'lateness p50 ms': '-',
    'p99 ms': '-',
    'max ms': `drained in ${((backlog.lastAt - backlog.started) / 1000).toFixed(1)} s`,
  });
  await closeDb();
  printTable('bench/scheduler (embedded scheduler, PostgreSQL, no webhooks; goal: lateness p99 < 2 s, backlog >= 1,000/s)', rows);
}
