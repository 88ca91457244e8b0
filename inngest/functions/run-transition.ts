import { getDb } from '@/db/client';
import { runDueTransitions } from '@/server/jobs/run-transitions';
import { inngest } from '../client';
import { activityDue } from '../events';

/**
 * Runs the due transitions of one activity with the same job as the embedded scheduler: it claims the
 * row (SKIP LOCKED), so a repeated event does nothing once the transition was applied.
 */
export const runTransition = inngest.createFunction(
  { id: 'run-transition', triggers: [activityDue], concurrency: { key: 'event.data.projectId', limit: 10 }, retries: 3 },
  async ({ event, step }) =>
    step.run('apply', async () => runDueTransitions(await getDb(), { now: new Date(), activityIds: [event.data.activityId] })),
);
