import { Inngest } from 'inngest';
import { getEnv } from '@/server/env';
import { setWorkNotifier } from '@/server/executor';
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
export function connectInngestNotifier(): void {
  setWorkNotifier(async (work) => {
    await inngest.send(work.map((w) => deliveryCreated.create({ deliveryId: w.deliveryId, webhookId: w.webhookId })));
  });
}
