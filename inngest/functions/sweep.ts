import { cron } from 'inngest';
import { getDb, getDbHandle } from '@/db/client';
import { findStrandedDeliveries } from '@/server/jobs/claim-deliveries';
import { runHousekeeping } from '@/server/jobs/housekeeping';
import { analyzeStaleTables } from '@/server/jobs/statistics';
import { findDueActivities } from '@/server/jobs/run-transitions';
import { inngest } from '../client';
import { activityDue, deliveryCreated } from '../events';

const ACTIVITY_BATCH = 2_000;

/**
 * Every minute: deliveries that are due but nobody took (Inngest unreachable at commit time, a manual
 * retry, a run that died) are announced again, so no work depends on one event being sent; and every
 * activity with a due transition gets one event for the run-transition function. Both functions claim
 * their row, so an announcement twice still means one attempt. Then housekeeping, and ANALYZE of the
 * tables whose statistics autovacuum would refresh if it were on.
 */
export const sweepDueWork = inngest.createFunction({ id: 'sweep-due-work', triggers: [cron('* * * * *')] }, async ({ step }) => {
  const work = await step.run('find-stranded-deliveries', async () => findStrandedDeliveries(await getDb(), new Date(), 60_000, 500));
  if (work.length > 0) await step.sendEvent('announce', work.map((w) => deliveryCreated.create(w)));
  const due = await step.run('find-due-activities', async () => findDueActivities(await getDb(), new Date(), ACTIVITY_BATCH));
  if (due.length > 0) {
    await step.sendEvent(
      'announce-activities',
      due.map((d) => ({ ...activityDue.create({ activityId: d.activityId, projectId: d.projectId }), id: d.dedupeKey })),
    );
  }
  await step.run('housekeeping', async () => runHousekeeping(await getDb(), new Date()));
  // Statistics where autovacuum is off (server/jobs/statistics): plans follow the tables as they grow.
  await step.run('analyze', async () => analyzeStaleTables(await getDbHandle()));
  return { announced: work.length, activities: due.length };
});
