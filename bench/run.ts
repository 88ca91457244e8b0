/** `npm run bench [name]`: runs the benchmarks (all, or the one named), each printing its table. */
import { benchRecords } from './records';
import { benchWebhooks } from './webhooks';
import { benchCareplans } from './careplans';
import { benchScheduler } from './scheduler';
import { benchQuestionnaires } from './questionnaires';
import { benchAppointments } from './appointments';
import { benchSoak } from './soak';
import { benchProfile } from './profile';
import { benchMember } from './member';
import { benchSendPath } from './send-path';
import { benchServiceCpu } from './service-cpu';
import { benchPromotion } from './promotion';

const benches: Record<string, () => Promise<void>> = { records: benchRecords, member: benchMember, webhooks: benchWebhooks, 'send-path': benchSendPath, careplans: benchCareplans, 'service-cpu': benchServiceCpu, scheduler: benchScheduler, questionnaires: benchQuestionnaires, appointments: benchAppointments, promotion: benchPromotion };
/** Not part of a plain `npm run bench`: the soak (an hour) and the profile (after records). `npm run bench soak`. */
const onRequest: Record<string, () => Promise<void>> = { soak: benchSoak, profile: benchProfile };
const only = process.argv[2];
for (const [name, fn] of Object.entries({ ...benches, ...(only ? onRequest : {}) })) {
  if (only && only !== name) continue;
  console.log(`\n=== bench/${name}`);
  await fn();
}
process.exit(0);
