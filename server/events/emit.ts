import { events } from '@/db/schema';
import { withTransaction, type ServiceContext } from '@/server/context';
import type { EventName } from './catalogue';

/**
 * The one path every operation with an event goes through. The work runs in a transaction that also
 * records the event (name, params, responseData), so an event exists exactly when its change committed.
 * `params` is the operation's input; `responseData` is the resource as the REST answer shows it.
 */
export async function emit<T>(
  ctx: ServiceContext,
  name: EventName,
  params: Record<string, unknown>,
  work: (tx: ServiceContext) => Promise<T>,
): Promise<T> {
  return withTransaction(ctx, async (tx) => {
    const result = await work(tx);
    await tx.db.insert(events).values({ projectId: ctx.projectId, name, params, responseData: result ?? null });
    return result;
  });
}
