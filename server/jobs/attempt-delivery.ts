import { and, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '@/db/client';
import { audit } from '@/server/audit/audit';
import { createContext, withTransaction } from '@/server/context';
import { webhookDeliveries, webhooks } from '@/db/schema';
import { decryptSecret } from '@/server/core/crypto';
import { FAILING_DISABLE_AFTER_MS, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs } from '@/server/webhooks/schedule';

/** Attempts a delivery gets at most (the first and its retries). */
export const MAX_DELIVERY_ATTEMPTS = MAX_ATTEMPTS;
import type { Resolver } from '@/server/webhooks/safety';
import { AFTER_TIMEOUT_MS, signAndPost, type AttemptValues } from '@/server/webhooks/send';
import { expandUrl } from '@/server/webhooks/targets';
import { anyKey, jsonRows, rowsOf, ts } from './sql';

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'blocked' | 'skipped';

/**
 * How long a leased delivery's call may take: 15 s, or half the lease when that is shorter. The embedded
 * executor starts a call within a quarter of its lease (or hands the row back), so a call ends with at
 * least a quarter of the lease left to write its outcome before another instance may claim the row.
 */
export function callTimeoutFor(leaseMs: number): number {
  return Math.min(AFTER_TIMEOUT_MS, Math.floor(leaseMs / 2));
}

/** A pending delivery with everything its attempt needs, as the claim query returns it. */
export type DueDelivery = {
  id: number;
  webhookId: number;
  payload: string;
  attemptCount: number;
  url: string;
  endpointUrl: string | null;
  enabled: boolean;
  failingSince: Date | null;
  secrets: string[];
  headers: Record<string, string>;
};

/** Columns of a due delivery, joined with its webhook, integration and active secrets (one round trip). */
export const dueDeliveryColumns = (now: Date) => sql`
  d.id, d.webhook_id, d.payload, d.attempt_count, w.url, w.enabled, w.failing_since, w.headers, i.endpoint_url,
  (select coalesce(array_agg(s.secret_encrypted order by s.id desc), '{}') from webhook_secret s
    where s.webhook_id = w.id and (s.expires_at is null or s.expires_at > ${ts(now)})) as secrets`;

type DueRow = {
  id: number | string;
  webhook_id: number;
  payload: string;
  attempt_count: number;
  url: string;
  enabled: boolean;
  failing_since: Date | string | null;
  endpoint_url: string | null;
  secrets: string[] | string;
  headers: Record<string, string> | string | null;
};

/** postgres.js and PGlite both parse text[]; this also accepts the `{a,b}` literal should a driver not. */
function textArray(v: string[] | string): string[] {
  if (Array.isArray(v)) return v;
  return v === '{}' ? [] : v.slice(1, -1).split(',').map((s) => s.replace(/^"|"$/g, ''));
}

export function toDueDelivery(r: DueRow): DueDelivery {
  return {
    id: Number(r.id),
    webhookId: r.webhook_id,
    payload: r.payload,
    attemptCount: r.attempt_count,
    url: r.url,
    endpointUrl: r.endpoint_url,
    enabled: r.enabled,
    failingSince: r.failing_since ? new Date(r.failing_since) : null,
    secrets: textArray(r.secrets).map(decryptSecret),
    headers: typeof r.headers === 'string' ? (JSON.parse(r.headers) as Record<string, string>) : (r.headers ?? {}),
  };
}

export async function loadDueDelivery(db: Queryable, deliveryId: number, now: Date): Promise<DueDelivery | undefined> {
  const result = await db.execute(sql`
    select ${dueDeliveryColumns(now)}
    from webhook_delivery d join webhook w on w.id = d.webhook_id left join integration i on i.id = w.configuration_id
    where d.id = ${deliveryId} and d.status = 'pending'`);
  const [row] = rowsOf<DueRow>(result);
  return row && toDueDelivery(row);
}

export type OutcomeSet = { status: 'pending' | 'delivered' | 'failed' | 'blocked'; nextAttemptAt: Date | null; delivered: boolean };
export type Outcome = { attempt: AttemptValues; set: OutcomeSet };

/**
 * Attempt rows and the deliveries' new states, any number of them, written in one statement. The
 * embedded executor batches outcomes through here; a crash before the write only means the delivery is
 * attempted again after its lease (at least once).
 */
export async function recordOutcomes(db: Queryable, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map(({ attempt: a, set }) => ({
    delivery_id: a.deliveryId,
    attempt: a.attempt,
    started_at: a.startedAt.toISOString(),
    duration_ms: a.durationMs,
    status_code: a.statusCode ?? null,
    error: a.error ?? null,
    response: a.response ?? null,
    request_headers: a.requestHeaders,
    url: a.url,
    status: set.status,
    next_attempt_at: set.nextAttemptAt?.toISOString() ?? null,
    delivered: set.delivered,
  }));
  await db.execute(sql`
    with outcome as (${jsonRows(
      rows,
      'o',
      'delivery_id bigint, attempt int, started_at timestamptz, duration_ms int, status_code int, error text, response text, request_headers jsonb, url text, status text, next_attempt_at timestamptz, delivered boolean',
    )}), recorded as (
      insert into webhook_attempt (delivery_id, attempt, started_at, duration_ms, status_code, error, response, request_headers, url)
      select delivery_id, attempt, started_at, duration_ms, status_code, error, response, request_headers, url from outcome
    )
    update webhook_delivery d set status = o.status, attempt_count = o.attempt, next_attempt_at = o.next_attempt_at,
      lease_until = null, delivered_at = case when o.delivered then now() else d.delivered_at end
    -- The ids as an array besides the join, so the generic plan probes the key (db/rows.ts, anyKey).
    from outcome o where d.id ${anyKey(rows.map((r) => r.delivery_id), 'bigint')} and d.id = o.delivery_id`);
}

/**
 * Disables a webhook (410, or five days of failures) and fails its pending deliveries, recorded in the
 * audit trail as the system's doing. Nothing happens when another worker disabled it first.
 */
async function disableWebhook(db: Queryable, webhookId: number, reason: string, now: Date) {
  const system = createContext(db as Db, 0, { kind: 'system', role: 'admin' }, () => now);
  await withTransaction(system, async (tx) => {
    const [current] = await tx.db.select().from(webhooks).where(eq(webhooks.id, webhookId)).for('update');
    if (!current?.enabled) return;
    await tx.db.update(webhooks).set({ enabled: false, disabledReason: reason, updatedAt: now }).where(eq(webhooks.id, webhookId));
    await tx.db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, leaseUntil: null })
      .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')));
    await audit(tx, {
      projectId: current.projectId,
      action: 'update',
      resource: 'webhook',
      resourceId: webhookId,
      before: { enabled: true, disabledReason: current.disabledReason },
      after: { enabled: false, disabledReason: reason },
    });
  });
}

/**
 * The job behind every executor: one attempt of one `after` delivery, and its outcome written to the
 * row (delivered, retry at the next step, failed, blocked). The webhook's failure clock starts at its
 * first failure and stops at any success; 410 or five days of failure disable it. `sent` is called once
 * the POST has its answer, before the outcome is written. `timeoutMs` cuts the call (default 15 s; a
 * leased attempt passes `callTimeoutFor(lease)`).
 */
export async function attemptDue(
  db: Queryable,
  d: DueDelivery,
  opts: { now?: Date; resolver?: Resolver; record?: (outcome: Outcome) => Promise<void>; sent?: () => void; timeoutMs?: number } = {},
): Promise<AttemptOutcome> {
  const now = opts.now ?? new Date();
  const recordOutcome = (attempt: AttemptValues, set: OutcomeSet) => (opts.record ? opts.record({ attempt, set }) : recordOutcomes(db, [{ attempt, set }]));
  if (!d.enabled) {
    await db.update(webhookDeliveries).set({ status: 'failed', nextAttemptAt: null, leaseUntil: null }).where(eq(webhookDeliveries.id, d.id));
    return 'failed';
  }
  const attemptNo = d.attemptCount + 1;
  const target = { url: expandUrl(d.url, d.endpointUrl), secrets: d.secrets, headers: d.headers };
  const { result, attempt } = await signAndPost(d, attemptNo, target, { now, timeoutMs: opts.timeoutMs ?? AFTER_TIMEOUT_MS, resolver: opts.resolver });
  // The receiver is done with us: an executor may give this connection slot to the next delivery while
  // the outcome is written (the lease keeps the row from being claimed again until then).
  opts.sent?.();

  if (result.ok) {
    await recordOutcome(attempt, { status: 'delivered', nextAttemptAt: null, delivered: true });
    if (d.failingSince) await db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, d.webhookId));
    return 'delivered';
  }
  if (result.blocked) {
    await recordOutcome(attempt, { status: 'blocked', nextAttemptAt: null, delivered: false });
    return 'blocked';
  }
  if (result.statusCode === 410) {
    await recordOutcome(attempt, { status: 'failed', nextAttemptAt: null, delivered: false });
    await disableWebhook(db, d.webhookId, 'the target answered 410 Gone', now);
    return 'failed';
  }
  const delay = retryDelayMs(attemptNo, parseRetryAfter(result.headers?.['retry-after'], now));
  await recordOutcome(attempt, {
    status: delay === null ? 'failed' : 'pending',
    nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
    delivered: false,
  });
  const failingSince = d.failingSince ?? now;
  if (!d.failingSince) {
    await db.update(webhooks).set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${ts(now)})` }).where(eq(webhooks.id, d.webhookId));
  }
  if (now.getTime() - failingSince.getTime() >= FAILING_DISABLE_AFTER_MS) {
    await disableWebhook(db, d.webhookId, 'failing for 5 days', now);
    return 'failed';
  }
  return delay === null ? 'failed' : 'retry';
}

/** Claims one named delivery if it is due and not leased (the Inngest path: one event, one row). */
export async function claimDelivery(db: Queryable, deliveryId: number, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db.execute(sql`
    update webhook_delivery set lease_until = ${ts(new Date(now.getTime() + leaseMs))}
    where id = ${deliveryId} and status = 'pending' and next_attempt_at <= ${ts(now)}
      and (lease_until is null or lease_until < ${ts(now)})
    returning id`);
  return rowsOf(result).length === 1;
}

/** One attempt of the named delivery, if it is still pending (Inngest, tests, manual runs). */
export async function attemptDelivery(db: Queryable, deliveryId: number, opts: { now?: Date; resolver?: Resolver; timeoutMs?: number } = {}): Promise<AttemptOutcome> {
  const d = await loadDueDelivery(db, deliveryId, opts.now ?? new Date());
  return d ? attemptDue(db, d, opts) : 'skipped';
}

/**
 * The Inngest path, one step: claims the named delivery (so a repeated event does nothing), attempts it,
 * and says when its next attempt is due (null when there is none).
 */
export async function deliverNamed(db: Queryable, deliveryId: number, leaseMs: number): Promise<{ outcome: AttemptOutcome; nextAttemptAt: string | null }> {
  const now = new Date();
  if (!(await claimDelivery(db, deliveryId, now, leaseMs))) return { outcome: 'skipped', nextAttemptAt: null };
  const outcome = await attemptDelivery(db, deliveryId, { now, timeoutMs: callTimeoutFor(leaseMs) });
  if (outcome !== 'retry') return { outcome, nextAttemptAt: null };
  const [row] = await db.select({ at: webhookDeliveries.nextAttemptAt }).from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  return { outcome, nextAttemptAt: row?.at?.toISOString() ?? null };
}
