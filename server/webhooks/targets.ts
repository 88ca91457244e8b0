import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { integrations, webhookSecrets } from '@/db/schema';
import { decryptSecret } from '@/server/core/crypto';

/** `//endpoint/x` on an integration with endpointUrl `http://h/base` is `http://h/base/x`. */
export function expandUrl(url: string, endpointUrl: string | null | undefined): string | null {
  if (!url.startsWith('//endpoint')) return url;
  if (!endpointUrl) return null;
  return endpointUrl.replace(/\/+$/, '') + url.slice('//endpoint'.length);
}

/** Secrets that sign right now: the current one, and a rotated-out one during its 24 h overlap. */
export async function activeSecrets(db: Queryable, webhookId: number, now: Date): Promise<string[]> {
  const rows = await db
    .select()
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.webhookId, webhookId), or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, now))))
    .orderBy(desc(webhookSecrets.id));
  return rows.map((r) => decryptSecret(r.secretEncrypted));
}

/** The endpointUrl of a webhook's integration, when it has one. */
export async function integrationEndpoint(db: Queryable, configurationId: number | null): Promise<string | null> {
  if (!configurationId) return null;
  const [row] = await db.select({ endpointUrl: integrations.endpointUrl }).from(integrations).where(eq(integrations.id, configurationId));
  return row?.endpointUrl ?? null;
}
