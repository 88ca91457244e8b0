/**
 * bench/appointments: through REST on PostgreSQL (`next start`). A schedule with about 2,000 slots over
 * 60 days; 50 clients race to book random free slots until none is left (a 409 means someone else got
 * it). Afterwards the database is checked: no two booked appointments overlap, every slot is booked
 * exactly once. Then `GET /schedule/<id>/slot` over 62 days with those bookings, 1 and 10 clients.
 */
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { ensureBuild, freshBenchDatabase, percentile, printTable, startBenchApp, stopProcess, waitForHttp } from './lib';

const DB_NAME = 'carebase_bench_appointments';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3206;
const API_KEY = 'cb_key_bench_appointments_0123456789abc';
const CLIENTS = 50;
const QUERIES = Number(process.env.BENCH_SLOT_QUERIES ?? 300);

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

export async function benchAppointments(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  await ensureBuild();
  const app = startBenchApp(PORT, DATABASE_URL, { DB_POOL_MAX: '20' });
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: CLIENTS });
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const t0 = performance.now();
    const res = await request(`http://127.0.0.1:${PORT}/api/v1${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.body.json()) as unknown;
    return { status: res.statusCode, ms: performance.now() - t0, json };
  };
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    // 20-minute slots from 08:00 to 19:00 (33 a day), every day, in UTC.
    const availability = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => ({ day: d, start: '08:00', end: '19:00' }));
    const schedule = (await call('POST', '/schedule', { display: 'Bench clinic', timeZone: 'UTC', slotMinutes: 20, availability })).json as { id: number };
    const members = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => call('POST', '/member', { name: `Member ${i}` }).then((r) => (r.json as { id: number }).id)));
    const slots = (await call('GET', `/schedule/${schedule.id}/slot?from=${day(1)}&to=${day(60)}`)).json as { start: string }[];
    const free = slots.map((s) => s.start);
    let booked = 0;
    let conflicts = 0;
    let other = 0;
    const bookLatencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      members.map(async (subjectId) => {
        while (free.length > 0) {
          const k = Math.floor(Math.random() * free.length);
          const start = free[k]!;
          const r = await call('POST', '/appointment', { scheduleId: schedule.id, subjectId, start });
          bookLatencies.push(r.ms);
          if (r.status === 201) booked++;
          else if (r.status === 409) conflicts++;
          else other++;
          if (r.status === 201 || r.status === 409) {
            const at = free.indexOf(start);
            if (at >= 0) free.splice(at, 1);
          }
        }
      }),
    );
    const raceSeconds = (performance.now() - t0) / 1000;

    const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
    const [overlaps] = await sql<{ n: number }[]>`
      select count(*)::int as n from appointment a join appointment b
        on a.schedule_id = b.schedule_id and a.id < b.id and a.status = 'booked' and b.status = 'booked'
       and tstzrange(a.start_at, a.end_at) && tstzrange(b.start_at, b.end_at)
      where a.project_id = ${projectId}`;
    const [perSlot] = await sql<{ slots: number; twice: number }[]>`
      select count(*)::int as slots, count(*) filter (where n > 1)::int as twice
      from (select start_at, count(*) as n from appointment where project_id = ${projectId} and status = 'booked' group by start_at) s`;
    await sql.end();

    const slotQueries = async (clients: number) => {
      const latencies: number[] = [];
      let left = QUERIES;
      const t = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (left-- > 0) {
            const r = await call('GET', `/schedule/${schedule.id}/slot?from=${day(0)}&to=${day(61)}`);
            if (r.status !== 200) throw new Error(`slot query: ${r.status}`);
            latencies.push(r.ms);
          }
        }),
      );
      return { latencies, seconds: (performance.now() - t) / 1000 };
    };
    const one = await slotQueries(1);
    const ten = await slotQueries(10);

    printTable(`bench/appointments: ${slots.length} slots over 60 days, ${CLIENTS} clients racing (REST on PostgreSQL)`, [
      {
        bookings: booked,
        '409s': conflicts,
        'other answers': other,
        'bookings/s': Math.round(booked / raceSeconds),
        'POST p50 ms': Math.round(percentile(bookLatencies, 50) * 10) / 10,
        'POST p99 ms': Math.round(percentile(bookLatencies, 99) * 10) / 10,
        overlaps: overlaps!.n,
        'slots booked': `${perSlot!.slots} of ${slots.length}`,
        'booked twice': perSlot!.twice,
      },
    ]);
    const row = (name: string, r: { latencies: number[]; seconds: number }) => ({
      query: name,
      requests: r.latencies.length,
      'req/s': Math.round(r.latencies.length / r.seconds),
      'p50 ms': Math.round(percentile(r.latencies, 50) * 10) / 10,
      'p99 ms': Math.round(percentile(r.latencies, 99) * 10) / 10,
    });
    printTable(`GET /schedule/<id>/slot over 62 days with ${booked} booked (goal: 1-client p99 < 50 ms)`, [row('1 client', one), row('10 clients', ten)]);
  } finally {
    await agent.close();
    await stopProcess(app);
  }
}
