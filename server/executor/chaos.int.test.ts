import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '@/server/env';
import { getDbHandle } from '@/db/client';
import { postgresClient } from '@/db/postgres-url';
import { httpApiClient, newProject } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';

/**
 * Chaos on PostgreSQL (issue 10, defect 8; CONTRACT 1 time limits): a row lock held past the statement
 * limit, and the app's database backends terminated during a write burst. No request may wait longer
 * than the limit plus 1 s, none may answer 500, nothing may be half-written, and readiness comes back by
 * itself. The limit is 2 s here so the test is quick. PGlite has no other connections to lock against or
 * backends to terminate, so this runs on PostgreSQL only.
 */
const LIMIT_MS = 2_000;
process.env.DB_STATEMENT_TIMEOUT_MS = String(LIMIT_MS);
resetEnvForTests();

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.runIf(onPostgres)('chaos on PostgreSQL', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let admin: postgres.Sql;
  beforeAll(async () => {
    server = await startHttpServer({ background: true });
    admin = postgresClient(process.env.DATABASE_URL!, { max: 2, onnotice: () => {}, connection: { application_name: 'carebase-chaos-test' } });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await admin?.end({ timeout: 5 });
  });

  const timed = async <T>(p: Promise<T>) => {
    const started = performance.now();
    const value = await p;
    return { value, ms: performance.now() - started };
  };

  it('answers 503 within the limit while a row is locked, serves what the lock does not touch, and changes nothing', async () => {
    const { apiKey } = await newProject();
    const api = httpApiClient(server.url, apiKey);
    const member = (await api.post('/member', { name: 'Locked' })).body;
    const record = await api.post(`/record/notes`, { memberId: member.id, fields: { a: 1 } });
    expect(record.status).toBe(201);

    // What the timings below measure is the lock's limit, not a cold start: open every connection of the
    // pool and load each route once first. Cold, 18 requests at once took 0.45-0.6 s before their first
    // statement here (20 new PostgreSQL backends, each fetching the array types, and the route modules),
    // and CI once saw a write answer 503 at 3,036 ms, its 2 s lock wait after 1 s of start-up.
    const pool = (await getDbHandle()).concurrency;
    for (const warm of await Promise.all(Array.from({ length: pool }, () => api.get(`/member/${member.id}`)))) expect(warm.status).toBe(200);
    expect((await api.get('/record')).status).toBe(200);
    expect((await api.patch(`/member/${member.id}`, { name: 'Locked' })).status).toBe(200);

    // Another client holds the member row for longer than the limit.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const holding = admin.begin(async (tx) => {
      await tx`select id from member where id = ${member.id} for update`;
      await released;
    });
    await new Promise((r) => setTimeout(r, 200));
    // Fewer waiters than connections: the writes wait for the lock until the limit, then 503; reads of
    // the row (MVCC) and of other tables go on meanwhile.
    const writes = Array.from({ length: 8 }, (_, i) => timed(api.patch(`/member/${member.id}`, { name: `Changed ${i}` })));
    await new Promise((r) => setTimeout(r, 100));
    const reads = Array.from({ length: 5 }, () => timed(api.get(`/member/${member.id}`)));
    const others = Array.from({ length: 5 }, () => timed(api.get('/record')));
    const results = await Promise.all([...writes, ...reads, ...others]);
    // More waiters than the pool has connections: the ones that cannot get a connection within a second
    // are refused then, so nobody waits past the limit plus 1 s.
    const flood = await Promise.all(Array.from({ length: 40 }, (_, i) => timed(api.patch(`/member/${member.id}`, { name: `Flood ${i}` }))));
    release();
    await holding;

    for (const { value, ms } of [...results, ...flood]) {
      expect(ms, `${value.status} took ${Math.round(ms)} ms`).toBeLessThan(LIMIT_MS + 1_000);
      expect(value.status).not.toBe(500);
    }
    for (const { value, ms } of await Promise.all(writes)) {
      expect(value.status).toBe(503);
      expect(ms).toBeGreaterThan(LIMIT_MS - 200);
    }
    expect(new Set(flood.map((w) => w.value.status))).toEqual(new Set([503]));
    const refused = (await writes[0]!).value;
    expect(refused.body).toMatchObject({ code: 'unavailable', status: 503 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // They answered before the lock's limit: they never waited on it.
    for (const { value, ms } of [...(await Promise.all(reads)), ...(await Promise.all(others))]) {
      expect(value.status).toBe(200);
      expect(ms).toBeLessThan(LIMIT_MS);
    }
    // Nothing of the refused writes happened; once the lock is gone, writes work.
    expect((await api.get(`/member/${member.id}`)).body.name).toBe('Locked');
    expect((await api.patch(`/member/${member.id}`, { name: 'After' })).status).toBe(200);
  }, 60_000);

  it('survives its backends being terminated during a write burst: no 500, nothing half-written, ready again by itself', async () => {
    const { apiKey, projectId } = await newProject();
    const api = httpApiClient(server.url, apiKey);
    const definition = (
      await api.post('/careplan-definition', {
        slug: 'chaos',
        title: 'Chaos',
        actions: [
          { key: 'a', type: 'task', display: 'A', start: { offset: 1, offsetUnit: 'd' } },
          { key: 'b', type: 'task', display: 'B', start: { offset: 2, offsetUnit: 'd' } },
        ],
      })
    ).body;
    const subject = (await api.post('/member', { name: 'Subject' })).body;
    const application = `carebase-${process.pid}`;

    // Five rounds of terminating every backend of the app. After each round the killer waits until a write
    // has succeeded again (the pool reconnected by itself) before the next round, so the burst sees
    // terminations and recoveries interleaved whatever the machine's speed. Workers go on until the
    // rounds are over.
    const outcomes: { status: number; ms: number }[] = [];
    // What an unexpected answer said: its problem body names the path. CI once saw a 401 here, most likely
    // postgres.js answering the key lookup with no rows (fixed in its patch; db/postgres-connection.int.test.ts).
    const unexpected: string[] = [];
    let successes = 0;
    let killing = true;
    const killer = (async () => {
      let killed = 0;
      await new Promise((r) => setTimeout(r, 50));
      for (let round = 0; round < 5; round++) {
        const rows = await admin`select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = ${application} and pid <> pg_backend_pid()`;
        killed += rows.filter((r) => r.done).length;
        const seen = successes;
        for (const deadline = Date.now() + 10_000; successes === seen && Date.now() < deadline; ) {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      killing = false;
      return killed;
    })();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; (i < 15 || killing) && i < 300; i++) {
          const { value, ms } = await timed(api.post('/careplan', { definitionId: definition.id, subjectId: subject.id }));
          outcomes.push({ status: value.status, ms });
          if (value.status !== 201 && value.status !== 503 && unexpected.length < 5) unexpected.push(`${value.status} ${JSON.stringify(value.body)}`);
          if (value.status === 201) successes++;
        }
      }),
    );
    const killed = await killer;
    expect(killing).toBe(false);

    expect(killed).toBeGreaterThan(0);
    const statuses = new Set(outcomes.map((o) => o.status));
    expect([...statuses].every((s) => s === 201 || s === 503), `${JSON.stringify([...statuses])}: ${unexpected.join('; ')}`).toBe(true);
    expect(outcomes.filter((o) => o.status === 201).length).toBeGreaterThan(0);
    for (const o of outcomes) expect(o.ms, `${o.status} took ${Math.round(o.ms)} ms`).toBeLessThan(LIMIT_MS + 1_000);

    // Every care plan that exists is whole: its activities and its event were written with it.
    const plans = await admin`
      select c.id,
        (select count(*)::int from activity a where a.careplan_id = c.id) as activities,
        (select count(*)::int from event e where e.project_id = c.project_id and e.name = 'careplan_create' and (e.response_data->>'id')::int = c.id) as events
      from careplan c where c.project_id = ${projectId}`;
    for (const p of plans) expect(p).toMatchObject({ activities: 2, events: 1 });
    const created = outcomes.filter((o) => o.status === 201).length;
    const refused = outcomes.filter((o) => o.status === 503).length;
    // A commit whose answer was lost with its connection may exist without a 201; never more than that.
    expect(plans.length).toBeGreaterThanOrEqual(created);
    expect(plans.length).toBeLessThanOrEqual(created + refused);

    // Readiness comes back by itself (the pool reconnects), and the service writes again.
    let ready = 0;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      ready = (await fetch(`${server.url}/api/ready`)).status;
      if (ready === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(ready).toBe(200);
    expect(await (await fetch(`${server.url}/api/ready`)).json()).toEqual({ database: 'ok', migrations: 'ok', executor: 'running' });
    expect((await api.post('/careplan', { definitionId: definition.id, subjectId: subject.id })).status).toBe(201);
  }, 120_000);
});
