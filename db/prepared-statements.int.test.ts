import type postgres from 'postgres';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import { getDb, getDbHandle, type Db, type DbHandle } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { postgresClient } from '@/db/postgres-url';
import { projects } from '@/db/schema';
import { analyzeStaleTables } from '@/server/jobs/statistics';
import { claimDueDeliveries, releaseDeliveries } from '@/server/jobs/claim-deliveries';
import { recordOutcomes, type Outcome } from '@/server/jobs/attempt-delivery';
import { claimAndApplyDue, renewLeases, type LeasedTransition } from '@/server/jobs/run-transitions';
import { newProject } from '@/server/testing/api';
import { careplanForBulkActivities } from '@/server/testing/careplan-fixture';
import { activityDashboard } from '@/server/services/activities/overview';
import { startReceiver } from '@/server/testing/receiver';
import { resetEnvForTests } from '@/server/env';
import { startEmbeddedExecutor, stopExecutor } from '@/server/executor';

/**
 * Every statement the app sends to PostgreSQL is prepared (patches/drizzle-orm: drizzle asks postgres.js
 * to prepare only the statements given a name, and postgres.js sends an unprepared statement with
 * parameters in two round trips: Parse+Describe, then Bind+Execute once it knows the parameters' types).
 * And a connection prepares at most 200 (patches/postgres), so statements of many shapes (lists of
 * ids, rows of an insert) cannot fill a backend's memory. Generic plans follow the tables as they grow
 * where autovacuum is off too (server/jobs/statistics). PGlite has no connections: PostgreSQL only.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Runs analyzeStaleTables (of every stale table, or of those `only` names) until a run analyzes `table`,
 * for at most 10 s: another test's sweep may hold the analyze lock for a moment, and a backend reports its
 * changes to the statistics views only when idle. Answers every run's tables, in order.
 */
async function analyzeUntil(handle: DbHandle, table: string, only?: string[]): Promise<string[][]> {
  const runs: string[][] = [];
  for (const until = Date.now() + 10_000; !runs.at(-1)?.includes(`public.${table}`) && Date.now() < until; ) {
    if (runs.length > 0) await new Promise((r) => setTimeout(r, 200));
    runs.push(await analyzeStaleTables(handle, only));
  }
  return runs;
}

/**
 * Runs `test` on copies of `tables` (autovacuum off) in a schema of its own, through one connection whose
 * search path starts there (then `public`, for every table not copied): the copies' statistics are the
 * test's alone. Drops the schema afterwards.
 */
async function withTableCopies(name: string, tables: string[], test: (client: postgres.Sql, probe: Db, schema: string) => Promise<void>) {
  const schema = `${name}_${process.pid}`;
  const admin = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  const client = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { search_path: `${schema}, public` } });
  try {
    await admin.unsafe(`create schema ${schema}; ${tables
      .map((t) => `create table ${schema}.${t} (like public.${t} including all) with (autovacuum_enabled = false);`)
      .join(' ')}`);
    await test(client, drizzle(client) as unknown as Db, schema);
  } finally {
    await client.end({ timeout: 5 });
    await admin.unsafe(`drop schema if exists ${schema} cascade`);
    await admin.end({ timeout: 5 });
  }
}

/** What the open transaction read of each copied table in `schema`: rows read sequentially, index scans, rows fetched by them. */
async function copyReads(tx: Pick<Db, 'execute'>, schema: string): Promise<Record<string, { read: number; index_scans: number; fetched: number }>> {
  const rows = rowsOf<{ relname: string; read: number; index_scans: number; fetched: number }>(
    await tx.execute(sql`select relname, seq_tup_read::int as read, idx_scan::int as index_scans, idx_tup_fetch::int as fetched from pg_stat_xact_user_tables where schemaname = ${schema}`),
  );
  return Object.fromEntries(rows.map(({ relname, ...r }) => [relname, r]));
}

describe('statistics', () => {
  it('keeps none for payload columns: ANALYZE skips what no query filters on (migration 0011), and samples less of the event log (0012) and of activities (0013)', async () => {
    const { api, db } = await newProject('payload statistics');
    expect((await api.post('/member', { name: 'Pat' })).status).toBe(201);
    const payload = [
      ['event', 'params'], ['event', 'response_data'], ['audit_event', 'changes'], ['activity', 'reminders'], ['activity', 'handled_transitions'],
      ['activity', 'description'], ['webhook_delivery', 'payload'], ['webhook_attempt', 'request_headers'], ['webhook_attempt', 'response'], ['webhook_attempt', 'error'],
    ];
    // Every column whose statistics target is not the default: none for payloads (migration 0011), a
    // tenth of the default for the event log's filtered columns (0012), a quarter for every other column
    // of activity (0013). ANALYZE samples 300 rows per unit of a table's largest target, so one activity
    // column left at the default would bring back the full sample: a column added to activity needs 25 too.
    const targets = rowsOf<{ table: string; column: string; target: number }>(await db.execute(sql`select c.relname as "table", a.attname as "column", a.attstattarget::int as target
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and a.attnum > 0 and a.attstattarget >= 0 and not a.attisdropped order by 1, 2`));
    const at = (target: number) => targets.filter((t) => t.target === target).map((t) => [t.table, t.column]);
    expect(at(0).sort()).toEqual([...payload].sort());
    expect(at(10)).toEqual([['event', 'created_at'], ['event', 'id'], ['event', 'name'], ['event', 'project_id']]);
    const activityColumns = rowsOf<{ column: string }>(await db.execute(sql`select attname as "column" from pg_attribute
      where attrelid = 'activity'::regclass and attnum > 0 and not attisdropped order by 1`)).map((c) => c.column);
    const activityPayload = payload.filter(([table]) => table === 'activity').map(([, column]) => column);
    expect(at(25)).toEqual(activityColumns.filter((c) => !activityPayload.includes(c)).map((c) => ['activity', c]));
    expect(at(25).length).toBeGreaterThan(20);
    expect(targets).toHaveLength(at(0).length + at(10).length + at(25).length);
    // What the queries do filter on keeps its statistics.
    await db.execute(sql`analyze event, audit_event`);
    const kept = rowsOf<{ name: string }>(await db.execute(sql`select tablename || '.' || attname as name from pg_stats
      where schemaname = current_schema() and tablename in ('event', 'audit_event')`));
    const names = kept.map((k) => k.name);
    expect(names).toEqual(expect.arrayContaining(['event.name', 'event.project_id', 'audit_event.resource']));
    expect(names.filter((n) => ['event.params', 'event.response_data', 'audit_event.changes'].includes(n))).toEqual([]);
  });
});

describe.runIf(onPostgres)('prepared statements on PostgreSQL', () => {
  it("prepares an unnamed drizzle query, so running it again is one Bind+Execute", async () => {
    const db = await getDb();
    const marker = `prepared-${Date.now()}`;
    const found = await db.transaction(async (tx) => {
      // A query text no other test sends, run twice on the transaction's one connection.
      for (let i = 0; i < 2; i++) await tx.select({ id: projects.id }).from(projects).where(eq(projects.name, marker));
      return tx.execute(sql`select statement from pg_prepared_statements where statement like ${'%"project"."name" = $1%'}`);
    });
    const statements = (found as unknown as { statement: string }[]).map((r) => r.statement);
    expect(statements.some((s) => s.startsWith('select "id" from "project" where "project"."name" = $1'))).toBe(true);
  });

  it('replaces a generic plan made while a table was empty once the table has grown and been analyzed', async () => {
    // The shape the executor's outcome write had (it now also filters by an array of the ids: see the
    // outcome test below): a JSON parameter joined to a table by its key. After five runs PostgreSQL
    // keeps a generic plan; made while the table was empty, it is a hash join over a sequential scan,
    // and stays one as the table grows until the table's statistics change. With
    // autovacuum off (here for this table; on this machine for the whole server) only ANALYZE changes
    // them: analyzeStaleTables runs it, and the next run probes the key.
    const table = `plan_probe_${process.pid}`;
    const client = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { jit: 'off' } });
    const handle = await getDbHandle();
    try {
      await client.unsafe(`create table ${table} (id int primary key, v int not null) with (autovacuum_enabled = false)`);
      const write = (q: postgres.Sql | postgres.TransactionSql, id: number) =>
        q.unsafe(`update ${table} d set v = o.v from jsonb_to_recordset($1::text::jsonb) as o(id int, v int) where d.id = o.id`, [JSON.stringify([{ id, v: 1 }])], { prepare: true });
      // One run's reads, from this connection's own transaction.
      const reads = (id: number) =>
        client.begin(async (tx) => {
          await write(tx, id);
          const [row] = await tx.unsafe<{ read: number; index_scans: number }[]>(`select seq_tup_read::int as read, idx_scan::int as index_scans from pg_stat_xact_user_tables where relname = $1`, [table]);
          return row;
        });
      for (let i = 0; i < 7; i++) await write(client, 1);
      await client.unsafe(`insert into ${table} select g, g from generate_series(1, 100000) g`);
      expect(await reads(5)).toEqual({ read: 100_000, index_scans: 0 });
      // A backend reports its changes to the statistics views when idle, at most once a second (forced
      // here); another test's sweep may hold the analyze lock for a moment.
      await client`select pg_stat_force_next_flush()`;
      expect((await analyzeUntil(handle, table)).at(-1)).toContain(`public.${table}`);
      expect(await reads(6)).toEqual({ read: 0, index_scans: 1 });

      // A few changed rows are below autovacuum's threshold: left alone.
      await client.unsafe(`update ${table} set v = 2 where id <= 10`);
      await client`select pg_stat_force_next_flush()`;
      expect(await analyzeStaleTables(handle)).not.toContain(`public.${table}`);
    } finally {
      await client.unsafe(`drop table if exists ${table}`);
      await client.end({ timeout: 5 });
    }
  });

  it('analyzes only the tables a backlog names, and leaves the other stale ones to the minute job', async () => {
    // The delivery executor's backlog asks for webhook_delivery alone: at the start of a drain, analyzing
    // every table the burst wrote (attempts, members, events) took 135-265 ms of a core from the claims.
    const named = `stats_named_${process.pid}`;
    const other = `stats_other_${process.pid}`;
    const client = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const handle = await getDbHandle();
    try {
      for (const table of [named, other]) {
        await client.unsafe(`create table ${table} (id int primary key) with (autovacuum_enabled = false)`);
        await client.unsafe(`insert into ${table} select g from generate_series(1, 1000) g`);
      }
      await client`select pg_stat_force_next_flush()`;
      const runs = await analyzeUntil(handle, named, [named]);
      expect(runs.at(-1)).toEqual([`public.${named}`]);
      expect(runs.flat()).not.toContain(`public.${other}`);
      // Naming no table analyzes none (and sends no `in ()`).
      expect(await analyzeStaleTables(handle, [])).toEqual([]);
      // The other one is still stale, and a run that names nothing finds it.
      const [stale] = await client<{ n: number }[]>`select n_mod_since_analyze::int as n from pg_stat_user_tables where relname = ${other}`;
      expect(stale!.n).toBe(1000);
      const everything = (await analyzeUntil(handle, other)).flat();
      expect(everything).toContain(`public.${other}`);
      expect(everything).not.toContain(`public.${named}`);
    } finally {
      for (const table of [named, other]) await client.unsafe(`drop table if exists ${table}`);
      await client.end({ timeout: 5 });
    }
  });

  it('prepares at most 200 statements on one connection, and runs the rest unnamed', async () => {
    const client = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      for (let i = 0; i < 260; i++) {
        const [row] = await client.unsafe<{ n: number }[]>(`select $1::int + ${i} as n`, [1], { prepare: true });
        expect(row!.n).toBe(1 + i);
      }
      const [prepared] = await client<{ count: number }[]>`select count(*)::int as count from pg_prepared_statements`;
      expect(prepared!.count).toBeGreaterThanOrEqual(190);
      expect(prepared!.count).toBeLessThanOrEqual(200);
    } finally {
      await client.end({ timeout: 5 });
    }
  });

  it("claims deliveries by key under a generic plan, and reads one webhook's rows without walking another's", async () => {
    // The claim is prepared like every statement, and after five runs PostgreSQL may keep a generic plan,
    // which cannot know the claim's limits. Written as a join with the ranked rows, that plan hash-joined a
    // sequential scan of the whole table (a full read per claim: the drain fell to a third); with an index
    // on next_attempt_at alone beside the per-webhook one, it walked that index past every other
    // webhook's rows. Forced generic here, in a transaction rolled back at the end.
    const { projectId, db } = await newProject('claim plan');
    const hooks = (await db.execute(sql`insert into webhook (project_id, display, url)
      values (${projectId}, 'backlog', 'http://127.0.0.1:9/a'), (${projectId}, 'quiet', 'http://127.0.0.1:9/b') returning id`)) as unknown as { id: number }[];
    const [backlog, quiet] = hooks.map((h) => h.id);
    const rolledBack = new Error('rolled back');
    let stats: { seq_read: number } | undefined;
    const claimed: number[] = [];
    await db
      .transaction(async (tx) => {
        // The backlog's 3,000 are older than the quiet webhook's 8; all are due.
        await tx.execute(sql`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at)
          select ${projectId}, ${backlog}, 'member_create', '{}', 'pending', now() - interval '1 hour' + g * interval '1 ms' from generate_series(1, 3000) g`);
        await tx.execute(sql`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at)
          select ${projectId}, ${quiet}, 'member_create', '{}', 'pending', now() - interval '1 minute' from generate_series(1, 8) g`);
        await tx.execute(sql`analyze webhook_delivery`);
        await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
        const before = await tx.execute(sql`select coalesce(seq_tup_read, 0)::int as seq_read from pg_stat_xact_user_tables where relname = 'webhook_delivery'`);
        const [b] = before as unknown as { seq_read: number }[];
        for (let i = 0; i < 8; i++) {
          const rows = await claimDueDeliveries(tx, 50, new Date(), 60_000, { perWebhook: 2 });
          claimed.push(...rows.filter((r) => r.webhookId === backlog || r.webhookId === quiet).map((r) => r.webhookId));
        }
        const after = await tx.execute(sql`select coalesce(seq_tup_read, 0)::int as seq_read from pg_stat_xact_user_tables where relname = 'webhook_delivery'`);
        const [a] = after as unknown as { seq_read: number }[];
        stats = { seq_read: a!.seq_read - b!.seq_read };
        throw rolledBack;
      })
      .catch((e: unknown) => {
        if (e !== rolledBack) throw e;
      });
    // Both webhooks got their turns (two each per claim), whatever other tests left due.
    expect(claimed.filter((w) => w === quiet)).toHaveLength(8);
    expect(claimed.filter((w) => w === backlog).length).toBeGreaterThanOrEqual(8);
    expect(stats!.seq_read).toBe(0);
    // Which per-webhook index a plan takes for the backlog depends on the statistics (in one CI database it
    // read the backlog's rows on each claim: 24,885 fetches for eight claims), but no index may lead with the
    // due time: a plan could then walk it past every other webhook's rows.
    const leading = (await db.execute(sql`select i.relname as name from pg_index x join pg_class i on i.oid = x.indexrelid
      join pg_attribute a on a.attrelid = x.indrelid and a.attnum = x.indkey[0]
      where x.indrelid = 'webhook_delivery'::regclass and a.attname = 'next_attempt_at'`)) as unknown as { name: string }[];
    expect(leading).toEqual([]);
  });

  it('writes outcomes by key under a generic plan made while the deliveries were few', async () => {
    // recordOutcomes joins its rows to webhook_delivery. Joined on the key alone, the generic plan made
    // from the statistics of a small table (from a few hundred rows up to 2,000; here 1,000) hash-joined a
    // sequential scan of it, and kept doing so as the table grew until its next ANALYZE: with statistics
    // from 300 deliveries a 20,000-delivery drain read the table 227-293 times. With the ids also as an
    // array (anyKey) it probes the primary key. On copies of the two tables in a schema of its own, so
    // the statistics are this test's.
    await withTableCopies('outcome_probe', ['webhook_delivery', 'webhook_attempt'], async (client, probe, schema) => {
      const fill = (n: number) => client<{ id: number }[]>`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at)
        select 1, 1, 'member_create', '{}', 'pending', now() from generate_series(1, ${n}) returning id::int`;
      const ids = (await fill(1_000)).map((r) => r.id);
      await client`analyze webhook_delivery`;
      const outcome = (deliveryId: number): Outcome => ({
        attempt: { deliveryId, attempt: 1, startedAt: new Date(), durationMs: 1, statusCode: 200, requestHeaders: {}, url: 'http://127.0.0.1:9/' },
        set: { status: 'delivered', nextAttemptAt: null, delivered: true },
      });
      // Past five runs PostgreSQL may keep the generic plan; forced here, so the test does not depend on its choice.
      await client`set plan_cache_mode = force_generic_plan`;
      for (let i = 0; i < 7; i++) await recordOutcomes(probe, [outcome(ids[i]!)]);
      await fill(100_000);
      const reads = await probe.transaction(async (tx) => {
        await recordOutcomes(tx, [outcome(ids[7]!), outcome(ids[8]!)]);
        return (await copyReads(tx, schema)).webhook_delivery;
      });
      expect(reads!.read).toBe(0);
      expect(reads!.index_scans).toBeGreaterThan(0);
      const [written] = await client<{ delivered: number; attempts: number }[]>`select
        (select count(*)::int from webhook_delivery where status = 'delivered') as delivered, (select count(*)::int from webhook_attempt) as attempts`;
      expect(written).toEqual({ delivered: 9, attempts: 9 });
    });
  });

  it('applies a batch of transitions by key under a generic plan made while the activities were few', async () => {
    // The batch writes its activities from JSON rows. Joined on the key alone, the generic plan made from
    // the statistics of up to 1,000-2,000 activities hash-joined a sequential scan of the table, and kept it
    // as the table grew until the next ANALYZE (here 101,000 rows read for two activities). With the keys
    // also as an array it probes them. On a copy of the activity table in a schema of its own (so the
    // statistics are this test's); the events and audit rows go to the project's tables as usual.
    const { projectId } = await newProject('Transition plan probe');
    await withTableCopies('activity_probe', ['activity'], async (client, probe, schema) => {
      const now = new Date();
      const fill = (n: number, due: Date | null) => client<{ id: number }[]>`insert into activity (project_id, careplan_id, subject_id, type, display, activate_at, next_due_at)
        select ${projectId}, 1, 1, 'task', 'Probe', ${now.toISOString()}::timestamptz, ${due?.toISOString() ?? null}::timestamptz from generate_series(1, ${n}) returning id::int`;
      const later = new Date(now.getTime() + 86_400_000);
      await fill(1_000, later);
      await client`analyze activity`;
      await client`set plan_cache_mode = force_generic_plan`;
      // Seven batches of one: past five runs the generic plan is what runs (forced here besides).
      for (let i = 0; i < 7; i++) {
        await fill(1, now);
        expect(await claimAndApplyDue(probe, { now, projectId })).toMatchObject({ claimed: 1, applied: 1 });
      }
      await fill(100_000, null);
      await fill(2, now);
      const { outcome, reads } = await probe.transaction(async (tx) => {
        const outcome = await claimAndApplyDue(tx as unknown as Db, { now, projectId });
        return { outcome, reads: (await copyReads(tx, schema)).activity };
      });
      expect(outcome).toMatchObject({ claimed: 2, applied: 2 });
      expect(reads!.read).toBe(0);
      expect(reads!.index_scans).toBeGreaterThan(0);
      // Each proposed activity due now was scheduled once (its first transition; nothing due after it).
      const [scheduled] = await client<{ n: number }[]>`select count(*)::int as n from activity where status = 'scheduled' and transition_seq = 1 and next_due_at is null`;
      expect(scheduled!.n).toBe(9);
    });
  });

  it("reads the console's activity overview by index under generic plans, however many activities the project has", async () => {
    // The overview (due soon, overdue, recently expired, eight of each and their counts) read every activity
    // of the project: six sequential scans, 49-128 ms each at 138,000 activities. Its two indexes (migration
    // 0014) read what the sections show. The statuses are literals in its SQL, so the generic plans can use
    // the partial index of expired activities. On a copy of the activity table, with the project's own
    // care plan and member in the public tables for the joins.
    const { projectId, ctx } = await newProject('Overview plan probe');
    const { member, careplan } = await careplanForBulkActivities(ctx, 'overview-probe');
    await withTableCopies('overview_probe', ['activity'], async (client, probe, schema) => {
      const now = new Date();
      const hours = (h: number) => new Date(now.getTime() + h * 3_600_000).toISOString();
      const fill = (n: number, status: string, activateAt: string, updatedAt: string) => client`insert into activity (project_id, careplan_id, subject_id, type, display, status, activate_at, updated_at)
        select ${projectId}, ${careplan.id}, ${member.id}, 'task', 'Probe', ${status}, ${activateAt}::timestamptz, ${updatedAt}::timestamptz from generate_series(1, ${n})`;
      await fill(60_000, 'completed', hours(-2_000), hours(-1_900));
      await fill(30_000, 'proposed', hours(24 * 30), hours(-1));
      await fill(20_000, 'expired', hours(-2_000), hours(-24 * 30));
      await fill(3, 'proposed', hours(24), hours(-1));
      await fill(4, 'scheduled', hours(-1), hours(-1));
      await fill(5, 'expired', hours(-48), hours(-24));
      await client`analyze activity`;
      await client`set plan_cache_mode = force_generic_plan`;
      const { overview, reads } = await probe.transaction(async (tx) => {
        const overview = await activityDashboard({ ...ctx, db: tx as unknown as Db, clock: () => now });
        return { overview, reads: (await copyReads(tx, schema)).activity };
      });
      expect([overview.dueSoon.total, overview.overdue.total, overview.recentlyExpired.total]).toEqual([3, 4, 5]);
      expect([overview.dueSoon.items.length, overview.overdue.items.length, overview.recentlyExpired.items.length]).toEqual([3, 4, 5]);
      expect(reads!.read).toBe(0);
      expect(reads!.index_scans).toBeGreaterThanOrEqual(6);
      // The rows its sections count and show (12, each read twice), not every expired activity (40,024
      // when the status was a parameter: the generic plan could not use the partial index).
      expect(reads!.fetched).toBeLessThan(100);
    });
  });

  it('renews and releases leases by key under generic plans made while the tables were few', async () => {
    // renewLeases (held transitions) and releaseDeliveries (a stopping executor's queue) join JSON rows to
    // their table as the batch above does, and had the same plan: with the keys as an array they probe.
    await withTableCopies('lease_probe', ['activity', 'webhook_delivery'], async (client, probe, schema) => {
      const lease = new Date(Date.now() + 60_000);
      const activity = (n: number) => client<{ id: number }[]>`insert into activity (project_id, careplan_id, subject_id, type, display, activate_at, lease_until)
        select 1, 1, 1, 'task', 'Probe', now(), ${lease.toISOString()}::timestamptz from generate_series(1, ${n}) returning id::int`;
      const delivery = (n: number) => client<{ id: number }[]>`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at, lease_until)
        select 1, 1, 'member_create', '{}', 'pending', now(), ${lease.toISOString()}::timestamptz from generate_series(1, ${n}) returning id::int`;
      const activities = (await activity(1_000)).map((r) => r.id);
      const deliveries = (await delivery(1_000)).map((r) => r.id);
      await client`analyze activity`;
      await client`analyze webhook_delivery`;
      await client`set plan_cache_mode = force_generic_plan`;
      const held = (ids: number[]) => ids.map((id) => ({ row: { id }, leaseUntil: lease }) as unknown as LeasedTransition);
      const leased = (ids: number[]) => ids.map((id) => ({ id, leasedUntil: lease }));
      for (let i = 0; i < 7; i++) {
        expect(await renewLeases(probe, held([activities[i]!]), lease)).toEqual({ renewed: [activities[i]], lost: [] });
        await releaseDeliveries(probe, leased([deliveries[i]!]));
      }
      await activity(100_000);
      await delivery(100_000);
      const later = new Date(lease.getTime() + 60_000);
      const reads = await probe.transaction(async (tx) => {
        expect(await renewLeases(tx, held([activities[7]!, activities[8]!]), later)).toEqual({ renewed: [activities[7], activities[8]], lost: [] });
        await releaseDeliveries(tx, leased([deliveries[7]!, deliveries[8]!]));
        return copyReads(tx, schema);
      });
      expect(reads).toEqual({
        activity: { read: 0, index_scans: expect.any(Number), fetched: expect.any(Number) },
        webhook_delivery: { read: 0, index_scans: expect.any(Number), fetched: expect.any(Number) },
      });
      expect(Object.values(reads).every((r) => r.index_scans > 0)).toBe(true);
      const [written] = await client<{ renewed: number; released: number }[]>`select
        (select count(*)::int from activity where lease_until = ${later.toISOString()}::timestamptz) as renewed,
        (select count(*)::int from webhook_delivery where lease_until is null) as released`;
      expect(written).toEqual({ renewed: 2, released: 9 });
    });
  });

  it("refreshes the deliveries' statistics as soon as the executor's claims find a backlog, not at the next minute", async () => {
    // A burst into a table whose cached generic plans were made when it was small: until ANALYZE they read
    // the whole table per claim (the webhook bench's drain lost a third to it). A claim that fills every
    // free slot asks for the statistics job at once.
    const { projectId, db } = await newProject('backlog analyze');
    const receiver = await startReceiver();
    const client = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const analyses = async () =>
      (await client<{ n: number }[]>`select (analyze_count + autoanalyze_count)::int as n from pg_stat_user_tables where relname = 'webhook_delivery'`)[0]!.n;
    try {
      await stopExecutor();
      process.env.EXECUTOR_CONCURRENCY = '4';
      resetEnvForTests();
      const hooks = (await db.execute(sql`insert into webhook (project_id, display, url)
        values (${projectId}, 'burst', ${`${receiver.url}/burst`}) returning id`)) as unknown as { id: number }[];
      const webhookId = hooks[0]!.id;
      // More new rows than autovacuum's threshold for the table as it is (50 and a tenth of it).
      const [threshold] = await client<{ rows: number }[]>`select ceil(100 + 0.1 * greatest(reltuples, 0))::int as rows from pg_class where relname = 'webhook_delivery'`;
      await client`insert into webhook_delivery (project_id, webhook_id, event, payload, status, next_attempt_at)
        select ${projectId}, ${webhookId}, 'member_create', '{}', 'pending', now() from generate_series(1, ${threshold!.rows})`;
      await client`select pg_stat_force_next_flush()`;
      const before = await analyses();
      startEmbeddedExecutor();
      // Another test's round may hold the analyze lock for a moment: a backlog asks again after 10 s.
      for (const until = Date.now() + 25_000; (await analyses()) === before && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
      expect(await analyses()).toBeGreaterThan(before);
      // And the backlog is being delivered (the ANALYZE may come before the first answer).
      await receiver.waitFor(1, 10_000);
    } finally {
      await stopExecutor();
      delete process.env.EXECUTOR_CONCURRENCY;
      resetEnvForTests();
      await client.end({ timeout: 5 });
      await receiver.close();
    }
  }, 40_000);
});
