import { eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import pkg from '@/package.json';
import { postJson, RESPONSE_RECORD_BYTES, type CallResult } from './http';
import type { Resolver } from './safety';
import { storableText } from '@/server/core/json';
import { signatureHeader } from './signing';
import { activeSecrets, expandUrl, integrationEndpoint } from './targets';

export const USER_AGENT = `Carebase/${pkg.version}`;
export const AFTER_TIMEOUT_MS = 15_000;
export const SYNC_TIMEOUT_MS = 10_000;

type Webhook = { id: number; url: string; configurationId: number | null; headers?: Record<string, string> };
/**
 * Where a call goes, what signs it, and the webhook's custom headers; `url` is null for //endpoint on an
 * integration without endpointUrl.
 */
export type ResolvedTarget = { url: string | null; secrets: string[]; headers?: Record<string, string> };
export type AttemptValues = typeof webhookAttempts.$inferInsert;

export async function resolveTarget(db: Queryable, webhook: Webhook, now: Date): Promise<ResolvedTarget> {
  const endpointUrl = await integrationEndpoint(db, webhook.configurationId);
  return { url: expandUrl(webhook.url, endpointUrl), secrets: await activeSecrets(db, webhook.id, now), headers: webhook.headers };
}

/**
 * One signed POST of a delivery's exact payload (Standard Webhooks: `webhook-id` is the delivery id, stable
 * across retries). Answers the outcome and the attempt to record: status, duration, error, the first
 * 4 KiB of the answer and the request headers (signatures elided).
 */
export async function signAndPost(
  delivery: { id: number; payload: string },
  attempt: number,
  target: ResolvedTarget,
  opts: { now: Date; timeoutMs: number; resolver?: Resolver },
): Promise<{ result: CallResult; attempt: AttemptValues }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    // The webhook's own headers first: Carebase's (signature, content type) always win (they are refused at registration anyway).
    ...target.headers,
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': String(delivery.id),
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(target.secrets, String(delivery.id), timestamp, delivery.payload),
  };
  const result: CallResult = target.url
    ? await postJson(target.url, headers, delivery.payload, { timeoutMs: opts.timeoutMs, resolver: opts.resolver })
    : { ok: false, statusCode: null, error: 'the integration has no endpointUrl for //endpoint', blocked: false, durationMs: 0 };
  // What a receiver answers is stored for people to read: cut to 4 KiB, and made storable (NUL, broken UTF-16).
  const response = result.body === undefined ? null : storableText(Buffer.from(result.body).subarray(0, RESPONSE_RECORD_BYTES).toString('utf8'));
  return {
    result,
    attempt: {
      deliveryId: delivery.id,
      attempt,
      startedAt: opts.now,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.ok ? null : storableText(result.error),
      response,
      requestHeaders: { ...headers, 'webhook-signature': headers['webhook-signature']!.replace(/,[^ ]+/g, ',…') },
      url: target.url ?? '(no endpointUrl)',
    },
  };
}

type Answered = Extract<CallResult, { ok: true }>;
type SendOptions = {
  now: Date;
  timeoutMs: number;
  resolver?: Resolver;
  /** Why an answered call still failed (a `handle` answer that cannot be used), or undefined. */
  judge?: (result: Answered) => string | undefined;
};

/**
 * A one-attempt delivery's call (a `before` or `handle` call, a test send): resolved, signed and posted,
 * then its attempt and the delivery's status recorded in one statement. A call `judge` fails is `failed`,
 * its reason the attempt's error. Answers the outcome, why it failed (undefined when it did not), and the
 * attempt as stored.
 */
export async function sendAndRecord(
  db: Queryable,
  delivery: { id: number; payload: string },
  webhook: Webhook,
  opts: SendOptions,
): Promise<{ result: CallResult; failure: string | undefined; attempt: typeof webhookAttempts.$inferSelect }> {
  const sent = await signAndPost(delivery, 1, await resolveTarget(db, webhook, opts.now), opts);
  const { result } = sent;
  const failure = result.ok ? opts.judge?.(result) : result.error;
  const status = result.ok ? (failure ? 'failed' : 'delivered') : result.blocked ? 'blocked' : 'failed';
  const marked = db.$with('marked').as(
    db
      .update(webhookDeliveries)
      .set({ status, attemptCount: 1, deliveredAt: status === 'delivered' ? new Date() : null })
      .where(eq(webhookDeliveries.id, delivery.id))
      .returning({ id: webhookDeliveries.id }),
  );
  const values = failure && result.ok ? { ...sent.attempt, error: storableText(failure) } : sent.attempt;
  // Only the id comes back: the rest is what was just written, and the response and headers need not cross
  // the wire again on every synchronous call.
  const [stored] = await db.with(marked).insert(webhookAttempts).values(values).returning({ id: webhookAttempts.id });
  return { result, failure, attempt: { error: null, statusCode: null, response: null, ...values, id: stored!.id } };
}

/**
 * A call outside the retry schedule (a `before` or `handle` call): logged as a delivery with one attempt,
 * so an admin can see it beside the others. Answers the outcome, why it failed, and the delivery id.
 */
export async function sendOnce(
  db: Queryable,
  args: { projectId: number; webhook: Webhook; event: string; payload: string } & SendOptions,
): Promise<{ result: CallResult; failure: string | undefined; deliveryId: number }> {
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ projectId: args.projectId, webhookId: args.webhook.id, event: args.event, payload: args.payload, status: 'pending', nextAttemptAt: null })
    .returning({ id: webhookDeliveries.id });
  const deliveryId = delivery!.id;
  return { ...(await sendAndRecord(db, { id: deliveryId, payload: args.payload }, args.webhook, args)), deliveryId };
}
