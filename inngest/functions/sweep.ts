import { cron } from 'inngest';
import { getDb } from '@/db/client';
import { findStrandedDeliveries } from '@/server/jobs/claim-deliveries';
import { inngest } from '../client';
import { deliveryCreated } from '../events';

/**
 * Every minute: deliveries that are due but nobody took (Inngest unreachable at commit time, a manual
 * retry, a run that died) are announced again, so no work depends on one event being sent. The deliver
 * function claims its row, so an announcement twice still means one attempt.
 */
export const sweepDueWork = inngest.createFunction({ id: 'sweep-due-work', triggers: [cron('* * * * *')] }, async ({ step }) => {
  const work = await step.run('find-stranded-deliveries', async () => findStrandedDeliveries(await getDb(), new Date(), 60_000, 500));
  if (work.length > 0) await step.sendEvent('announce', work.map((w) => deliveryCreated.create(w)));
  return { announced: work.length };
});
