/** `npm run bench [name]`: runs the benchmarks (all, or the one named), each printing its table. */
import { benchRecords } from './records';
import { benchWebhooks } from './webhooks';
import { benchCareplans } from './careplans';
import { benchScheduler } from './scheduler';
import { benchQuestionnaires } from './questionnaires';
import { benchAppointments } from './appointments';

const benches: Record<string, () => Promise<void>> = { records: benchRecords, webhooks: benchWebhooks, careplans: benchCareplans, scheduler: benchScheduler, questionnaires: benchQuestionnaires, appointments: benchAppointments };
const only = process.argv[2];
for (const [name, fn] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`\n=== bench/${name}`);
  await fn();
}
process.exit(0);
