import { sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { dueDeliveryColumns, toDueDelivery, type DueDelivery } from './attempt-delivery';
import { rowsOf, ts } from './sql';

export { rowsOf };

/**
 * Claims up to `limit` due deliveries for this worker, with everything their attempts need:
 * `FOR UPDATE SKIP LOCKED` lets several workers (or app instances) share the table without waiting on
 * each other, and the lease hands a row back if its worker dies mid-attempt (at-least-once delivery).
 */
export async function claimDueDeliveries(db: Queryable, limit: number, now: Date, leaseMs: number): Promise<DueDelivery[]> {
  const result = await db.execute(sql`
    update webhook_delivery d set lease_until = ${ts(new Date(now.getTime() + leaseMs))}
    from (
      select id from webhook_delivery
      where status = 'pending' and next_attempt_at <= ${ts(now)} and (lease_until is null or lease_until < ${ts(now)})
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    ) due, webhook w left join integration i on i.id = w.configuration_id
    where d.id = due.id and w.id = d.webhook_id
    returning ${dueDeliveryColumns(now)}`);
  return rowsOf<Parameters<typeof toDueDelivery>[0]>(result).map(toDueDelivery);
}

/** Due deliveries nobody has taken for a while: announced again by the Inngest sweep. */
export async function findStrandedDeliveries(db: Queryable, now: Date, graceMs: number, limit: number) {
  const result = await db.execute(sql`
    select id, webhook_id from webhook_delivery
    where status = 'pending' and next_attempt_at <= ${ts(new Date(now.getTime() - graceMs))}
      and (lease_until is null or lease_until < ${ts(now)})
    order by next_attempt_at limit ${limit}`);
  return rowsOf<{ id: number | string; webhook_id: number }>(result).map((r) => ({ deliveryId: Number(r.id), webhookId: Number(r.webhook_id) }));
}
