/**
 * bench/questionnaires: through REST on PostgreSQL (`next start`). A 20-question questionnaire whose date
 * answer is mapped to a template's reference date; every member has a care plan waiting for that date.
 * Completing a response validates 20 answers, stores it, records the observation and fills the plan
 * (8 activities created). The same work done by `POST /careplan-parameter` (the date set directly) is the
 * yardstick: the goal is at most 1.5x its latency, and p99 under 50 ms for one client.
 */
import postgres from 'postgres';
import { Agent, request } from 'undici';
import { ensureBuild, freshBenchDatabase, percentile, printTable, runAll, startBenchApp, stopProcess, waitForHttp } from './lib';

const DB_NAME = 'carebase_bench_questionnaires';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
const PORT = 3205;
const API_KEY = 'cb_key_bench_questionnaires_0123456789ab';
const RESPONSES = Number(process.env.BENCH_RESPONSES ?? 5_000);
const CONCURRENCY = 10;
const SERIAL = 500;


/** 20 items: the mapped date, a condition, and the other types. */
function items(codeId: number) {
  const list: Record<string, unknown>[] = [
    { linkId: 'surgery', type: 'date', text: 'When is your surgery?', required: true, observationCodeId: codeId },
    { linkId: 'smoker', type: 'boolean', text: 'Do you smoke?', required: true },
    { linkId: 'per-day', type: 'integer', text: 'How many a day?', required: true, min: 1, max: 100, enableWhen: { linkId: 'smoker', operator: 'equals', answer: true } },
    { linkId: 'mobility', type: 'choice', text: 'Mobility', options: [{ value: 'unaided', display: 'Unaided' }, { value: 'stick', display: 'Stick' }] },
    { linkId: 'allergies', type: 'choice', repeats: true, text: 'Allergies', options: [{ value: 'latex', display: 'Latex' }, { value: 'nuts', display: 'Nuts' }] },
  ];
  for (let i = list.length; i < 20; i++) list.push(i % 2 ? { linkId: `w${i}`, type: 'decimal', text: `Measure ${i}`, min: 0, max: 500 } : { linkId: `s${i}`, type: 'string', text: `Question ${i}` });
  return list;
}
function answers(date: string) {
  const list: { linkId: string; value: unknown }[] = [
    { linkId: 'surgery', value: date },
    { linkId: 'smoker', value: true },
    { linkId: 'per-day', value: 5 },
    { linkId: 'mobility', value: 'stick' },
    { linkId: 'allergies', value: ['latex', 'nuts'] },
  ];
  for (let i = list.length; i < 20; i++) list.push(i % 2 ? { linkId: `w${i}`, value: 70.5 } : { linkId: `s${i}`, value: `Answer ${i}` });
  return list;
}

export async function benchQuestionnaires(): Promise<void> {
  const { projectId } = await freshBenchDatabase(DB_NAME, API_KEY);
  await (await import('@/db/client')).closeDb();
  const total = 2 * (RESPONSES + SERIAL);
  const sql = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const members = await sql<{ id: number }[]>`
    insert into member (project_id, name) select ${projectId}, 'Member ' || g from generate_series(1, ${total}) g returning id`;
  await sql.end();

  await ensureBuild();
  const app = startBenchApp(PORT, DATABASE_URL);
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: CONCURRENCY });
  const call = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const t0 = performance.now();
    const res = await request(`http://127.0.0.1:${PORT}/api/v1${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as Record<string, unknown>;
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return { ms: performance.now() - t0, json };
  };

  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/api/v1/openapi.json`);
    const code = (await call('POST', '/observation-code', { slug: 'surgery-date', display: 'Surgery date', type: 'date' })).json as { id: number };
    const questionnaire = (await call('POST', '/questionnaire', { slug: 'pre-op', title: 'Before your surgery', items: items(code.id) })).json as { id: number };
    const actions = Array.from({ length: 8 }, (_, i) => ({
      key: `a${i}`,
      type: 'task',
      display: `Action ${i}`,
      inputKey: 'surgery',
      start: { offset: i * 3 - 6, offsetUnit: i % 2 ? 'd' : 'wk' },
      end: { offset: 2, offsetUnit: 'd' },
      reminders: [{ offset: 1, offsetUnit: 'h' }],
    }));
    const definition = (await call('POST', '/careplan-definition', { slug: 'bench', title: 'Bench', inputs: [{ key: 'surgery', observationCodeId: code.id }], actions })).json as { id: number };
    // Enrol everyone first (not measured here: bench/careplans measures enrolment).
    const plans = new Map<number, { id: number; inputId: number }>();
    await runAll(
      members,
      async (m) => {
        const r = await call('POST', '/careplan', { definitionId: definition.id, subjectId: m.id });
        const body = r.json as { id: number; parameters: { inputId: number }[] };
        plans.set(m.id, { id: body.id, inputId: body.parameters[0]!.inputId });
        return r.ms;
      },
      CONCURRENCY,
    );

    const respond = (m: { id: number }) => call('POST', '/questionnaire-response', { questionnaireId: questionnaire.id, subjectId: m.id, answers: answers('2027-03-15') }).then((r) => r.ms);
    const setDate = (m: { id: number }) => {
      const p = plans.get(m.id)!;
      return call('POST', '/careplan-parameter', { careplanId: p.id, inputId: p.inputId, observation: { value: '2027-03-15', observedAt: '2026-11-22T10:00:00Z' } }).then((r) => r.ms);
    };
    let at = 0;
    const take = (n: number) => members.slice(at, (at += n));
    const loadedResponses = await runAll(take(RESPONSES), respond, CONCURRENCY);
    const loadedParameters = await runAll(take(RESPONSES), setDate, CONCURRENCY);
    const serialResponses = await runAll(take(SERIAL), respond, 1);
    const serialParameters = await runAll(take(SERIAL), setDate, 1);

    // Every response filled its plan: 8 activities each.
    const check = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
    const [filled] = await check<{ n: number }[]>`
      select count(distinct c.id)::int as n from careplan c join careplan_parameter p on p.careplan_id = c.id
      where c.project_id = ${projectId} and p.observation_id is not null`;
    const [acts] = await check<{ n: number }[]>`select count(*)::int as n from activity where project_id = ${projectId}`;
    await check.end();

    const row = (name: string, r: { latencies: number[]; seconds: number }, base?: { latencies: number[] }) => ({
      operation: name,
      requests: r.latencies.length,
      'req/s': Math.round(r.latencies.length / r.seconds),
      'p50 ms': Math.round(percentile(r.latencies, 50) * 10) / 10,
      'p99 ms': Math.round(percentile(r.latencies, 99) * 10) / 10,
      'p50 vs parameter': base ? `${(percentile(r.latencies, 50) / percentile(base.latencies, 50)).toFixed(2)}x` : '1.00x',
    });
    printTable(`bench/questionnaires: 20-item response filling a plan (8 activities) vs POST /careplan-parameter, REST on PostgreSQL (goals: <= 1.5x, 1-client p99 < 50 ms)`, [
      row(`POST /questionnaire-response, ${CONCURRENCY} clients`, loadedResponses, loadedParameters),
      row(`POST /careplan-parameter, ${CONCURRENCY} clients`, loadedParameters),
      row('POST /questionnaire-response, 1 client', serialResponses, serialParameters),
      row('POST /careplan-parameter, 1 client', serialParameters),
    ]);
    console.log(`plans filled: ${filled!.n} of ${total}; activities: ${acts!.n} (8 per filled plan)`);
  } finally {
    await agent.close();
    await stopProcess(app);
  }
}
