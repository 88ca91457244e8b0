import { eq } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { integrations, webhookAttempts } from '@/db/schema';
import { activeSecrets, expandUrl } from '@/server/services/webhooks/webhooks';
import pkg from '@/package.json';
import { postJson, RESPONSE_RECORD_BYTES, type CallResult } from './http';
import type { Resolver } from './safety';
import { signatureHeader } from './signing';

export const USER_AGENT = `Carebase/${pkg.version}`;
export const AFTER_TIMEOUT_MS = 15_000;
export const SYNC_TIMEOUT_MS = 10_000;

type Target = { id: number; url: string; configurationId: number | null };

/**
 * One signed POST of a delivery's exact payload, recorded as an attempt (status, duration, error, the
 * first 4 KiB of the answer, the request headers). `webhook-id` is the delivery id: stable across retries.
 */
export async function sendAttempt(
  db: Queryable,
  delivery: { id: number; payload: string },
  attempt: number,
  webhook: Target,
  opts: { now: Date; timeoutMs: number; resolver?: Resolver },
): Promise<CallResult> {
  let endpointUrl: string | null = null;
  if (webhook.configurationId) {
    const [row] = await db.select({ endpointUrl: integrations.endpointUrl }).from(integrations).where(eq(integrations.id, webhook.configurationId));
    endpointUrl = row?.endpointUrl ?? null;
  }
  const url = expandUrl(webhook.url, endpointUrl);
  const secrets = await activeSecrets({ db }, webhook.id, opts.now);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': String(delivery.id),
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, String(delivery.id), timestamp, delivery.payload),
  };
  const result: CallResult = url
    ? await postJson(url, headers, delivery.payload, { timeoutMs: opts.timeoutMs, resolver: opts.resolver })
    : { ok: false, statusCode: null, error: 'the integration has no endpointUrl for //endpoint', blocked: false, durationMs: 0 };
  const response = result.body === undefined ? null : Buffer.from(result.body).subarray(0, RESPONSE_RECORD_BYTES).toString('utf8');
  await db.insert(webhookAttempts).values({
    deliveryId: delivery.id,
    attempt,
    startedAt: opts.now,
    durationMs: result.durationMs,
    statusCode: result.statusCode,
    error: result.ok ? null : result.error,
    response,
    requestHeaders: { ...headers, 'webhook-signature': headers['webhook-signature']!.replace(/,[^ ]+/g, ',…') },
    url: url ?? webhook.url,
  });
  return result;
}
