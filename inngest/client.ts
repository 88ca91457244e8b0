import { Inngest } from 'inngest';
import { getEnv } from '@/server/env';
import { errorSummary } from '@/server/errors';
import { registerWorker } from '@/server/events/work-notifier';
import { deliveryCreated } from './events';

const env = getEnv();

export const inngest = new Inngest({
  id: 'carebase',
  // v4 defaults to Inngest Cloud; INNGEST_DEV=1 talks to a local dev server instead.
  isDev: env.INNGEST_DEV ? true : undefined,
  eventKey: env.INNGEST_EVENT_KEY,
  signingKey: env.INNGEST_SIGNING_KEY,
});

/** With CAREBASE_EXECUTOR=inngest, every committed delivery is announced as one event. */
export function connectInngestNotifier(): () => void {
  return registerWorker({
    name: 'inngest',
    announce: (work) => {
      // A failed send is not lost work: the cron sweep announces due rows that nobody took.
      inngest
        .send(work.map((w) => deliveryCreated.create({ deliveryId: w.deliveryId, webhookId: w.webhookId })))
        .catch((e: unknown) => console.error(`[inngest] could not announce new work (the sweep will): ${errorSummary(e)}`));
    },
    isRunning: () => true,
  });
}
