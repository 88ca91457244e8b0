import { getTableName, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { dueDeliveryColumns, toDueDelivery, type DueDelivery } from './attempt-delivery';
import { anyKey, jsonRows, rowsOf, ts } from './sql';

export { rowsOf };

/**
 * The tables whose statistics the delivery statements' plans depend on (the claim below and the outcome
 * write, `recordOutcomes`): what they join besides is a few rows per webhook. A backlog of deliveries
 * asks for these to be analyzed, and only these (server/executor/index.ts).
 */
export const DELIVERY_PLAN_TABLES: readonly string[] = [getTableName(webhookDeliveries)];

/**
 * Claims up to `limit` due deliveries for this worker, with everything their attempts need:
 * `FOR UPDATE SKIP LOCKED` lets several workers (or app instances) share the table without waiting on
 * each other, and the lease hands a row back if its worker dies mid-attempt (at-least-once delivery).
 *
 * Fair across webhooks: each webhook gets at most `perWebhook` rows in flight in this worker (`inFlight`
 * says how many it has already), and the claimed rows are taken round-robin (every webhook's oldest due
 * row first, then every webhook's second...). A backlog of thousands for one webhook, or a receiver that
 * answers slowly, therefore never holds up another webhook's delivery for more than one claim.
 */
export async function claimDueDeliveries(
  db: Queryable,
  limit: number,
  now: Date,
  leaseMs: number,
  fairness: { perWebhook: number; inFlight?: ReadonlyMap<number, number> } = { perWebhook: limit },
): Promise<DueDelivery[]> {
  const busy = JSON.stringify(Object.fromEntries(fairness.inFlight ?? []));
  const result = await db.execute(sql`
    update webhook_delivery d set lease_until = ${ts(new Date(now.getTime() + leaseMs))}
    from webhook w left join integration i on i.id = w.configuration_id
    -- An array of ids, not a join with the ranked rows: the statement is prepared, and PostgreSQL's generic
    -- plan (used after five runs) cannot know the limit, so it hash-joined a sequential scan of the whole
    -- table with the claimed rows (20,000 rows read per claim of 16 in the drain). With = any(array(...))
    -- the claimed rows are found by primary key whatever the estimate.
    where d.id = any(array(
      select id from (
        select c.id, c.next_attempt_at, row_number() over (partition by c.webhook_id order by c.next_attempt_at, c.id) as turn
        from webhook wh
        left join jsonb_each_text(${busy}::jsonb) busy on busy.key::int = wh.id
        cross join lateral (
          select id, webhook_id, next_attempt_at from webhook_delivery
          where webhook_id = wh.id and status = 'pending' and next_attempt_at <= ${ts(now)}
            and (lease_until is null or lease_until < ${ts(now)})
          -- The (webhook_id, next_attempt_at) index is the only one on the due time: the generic plan
          -- preferred an index on next_attempt_at alone, walking it past every other webhook's rows
          -- (20,000 rows filtered per webhook per claim at 60,000 pending).
          order by webhook_id, next_attempt_at
          limit greatest(0, ${fairness.perWebhook}::int - coalesce(busy.value::int, 0))
          for update skip locked
        ) c
      ) ranked
      order by turn, next_attempt_at
      limit ${limit}
    )) and w.id = d.webhook_id
    returning ${dueDeliveryColumns(now)}`);
  return rowsOf<Parameters<typeof toDueDelivery>[0]>(result).map(toDueDelivery);
}

/**
 * Hands claimed deliveries back before their lease ends (an executor stopping, or one that held a row too
 * long to start it): each only while the lease is still the one this worker took.
 */
export async function releaseDeliveries(db: Queryable, leased: { id: number; leasedUntil: Date }[]): Promise<void> {
  if (leased.length === 0) return;
  await db.execute(sql`
    update webhook_delivery d set lease_until = null
    from (${jsonRows(
      leased.map((l) => ({ id: l.id, lease: l.leasedUntil.toISOString() })),
      'r',
      'id bigint, lease timestamptz',
    )}) r
    where d.id ${anyKey(leased.map((l) => l.id), 'bigint')} and d.id = r.id and d.status = 'pending' and d.lease_until = r.lease`);
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
