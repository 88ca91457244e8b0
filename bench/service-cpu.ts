/**
 * bench/service-cpu: the CPU one care plan write costs this process through the REST route table and the
 * services, without Next or HTTP (`process.cpuUsage()`, on PostgreSQL, one client, after a warm-up). It
 * isolates our code, drizzle and postgres.js from the load generator and the machine's other processes,
 * so two checkouts can be compared by running it in each, alternately (decision 0014, eleventh pass):
 * runs of the full careplans bench move by more than a change of 20-30 % here.
 * BENCH_SERVICE_N operations of each kind (600) after 200 of warm-up.
 */
import { benchCareplanDefinition, freshBenchDatabase, printTable } from './lib';

const N = Number(process.env.BENCH_SERVICE_N ?? 600);
const WARM = 200;

export async function benchServiceCpu(): Promise<void> {
  await freshBenchDatabase('carebase_bench_service', 'cb_key_bench_service_0123456789abcdef');
  const { apiClient } = await import('@/server/testing/api');
  const { closeDb } = await import('@/db/client');
  const api = apiClient('cb_key_bench_service_0123456789abcdef');
  const ok = <T>(r: { status: number; body: T }): T => {
    if (r.status >= 300) throw new Error(`bench/service-cpu: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const code = ok(await api.post('/observation-code', { slug: 'reference-date', display: 'Reference date', type: 'date' })) as { id: number };
  const definition = ok(await api.post('/careplan-definition', benchCareplanDefinition(code.id))) as { id: number };
  const subjects: number[] = [];
  for (let i = 0; i < N + WARM; i++) subjects.push((ok(await api.post('/member', { name: `Member ${i}` })) as { id: number }).id);

  type Plan = { id: number; parameters: { id: number; inputId: number }[] };
  const plans: Plan[] = [];
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const measure = async (operation: string, run: (i: number) => Promise<void>) => {
    for (let i = 0; i < WARM; i++) await run(i);
    const cpu = cpuMs();
    const wall = performance.now();
    for (let i = WARM; i < WARM + N; i++) await run(i);
    return { operation, operations: N, 'CPU ms each': (cpuMs() - cpu) / N, 'wall ms each': (performance.now() - wall) / N };
  };
  const rows = [
    await measure('enrol (2 activities)', async (i) => {
      plans.push(ok(await api.post('/careplan', { definitionId: definition.id, subjectId: subjects[i] })) as Plan);
    }),
    await measure('set date (8 activities created)', async (i) => {
      const p = plans[i]!;
      ok(await api.post('/careplan-parameter', { careplanId: p.id, inputId: p.parameters[0]!.inputId, observation: { value: '2027-03-15', observedAt: '2026-11-22T10:00:00Z' } }));
    }),
    await measure('move date (8 activities moved)', async (i) => {
      ok(await api.patch(`/careplan-parameter/${plans[i]!.parameters[0]!.id}`, { observation: { value: '2027-04-30', observedAt: '2026-11-23T10:00:00Z' } }));
    }),
  ];
  printTable(`bench/service-cpu: this process's CPU per care plan write, REST route table and services without Next or HTTP, PostgreSQL, 1 client`, rows);
  await closeDb();
}
