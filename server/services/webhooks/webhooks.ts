import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { integrations, webhookDeliveries, webhooks, webhookSecrets, webhookTriggers } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import { encryptSecret } from '@/server/core/crypto';
import { withTransaction, type ServiceContext } from '@/server/context';
import { AppError, conflict, invalidField, notFound, uniqueViolation } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { Resolver } from '@/server/webhooks/safety';
import { requireCallableUrl } from '@/server/services/shared';
import { generateWebhookSecret } from '@/server/webhooks/signing';
import { activeSecrets, expandUrl } from '@/server/webhooks/targets';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookDto } from './schemas';

type Row = typeof webhooks.$inferSelect;
type Trigger = { event: string; strategy: 'after' | 'handle' | 'before' };

export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

function toDto(row: Row, triggers: Trigger[]): WebhookDto {
  return {
    id: row.id,
    display: row.display,
    url: row.url,
    triggers: triggers.map((t) => ({ event: t.event, strategy: t.strategy })) as WebhookDto['triggers'],
    configurationId: row.configurationId,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

async function triggersOf(ctx: ServiceContext, ids: number[]): Promise<Map<number, Trigger[]>> {
  const out = new Map<number, Trigger[]>();
  if (ids.length === 0) return out;
  const rows = await ctx.db
    .select()
    .from(webhookTriggers)
    .where(inArray(webhookTriggers.webhookId, ids))
    .orderBy(asc(webhookTriggers.event));
  for (const r of rows) out.set(r.webhookId, [...(out.get(r.webhookId) ?? []), r]);
  return out;
}

/** Checks the target a webhook would call: the integration, the URL it expands to, and where it resolves. */
async function validateTarget(ctx: ServiceContext, url: string, configurationId: number | null | undefined, resolver?: Resolver) {
  let endpointUrl: string | null = null;
  if (configurationId) {
    const [integration] = await ctx.db
      .select({ endpointUrl: integrations.endpointUrl })
      .from(integrations)
      .where(and(eq(integrations.id, configurationId), eq(integrations.projectId, ctx.projectId)));
    if (!integration) throw invalidField('configurationId', 'No integration with this id in the project');
    endpointUrl = integration.endpointUrl;
  }
  const expanded = expandUrl(url, endpointUrl);
  if (!expanded) {
    throw invalidField(configurationId ? 'configurationId' : 'url', '//endpoint needs a configurationId whose integration has an endpointUrl');
  }
  await requireCallableUrl(expanded, 'url', resolver);
}

async function writeTriggers(ctx: ServiceContext, webhookId: number, triggers: Trigger[]) {
  await ctx.db.delete(webhookTriggers).where(eq(webhookTriggers.webhookId, webhookId));
  await ctx.db
    .insert(webhookTriggers)
    .values(triggers.map((t) => ({ webhookId, projectId: ctx.projectId, event: t.event, strategy: t.strategy })))
    .catch((e: unknown) => {
      if (uniqueViolation(e) !== undefined) {
        throw conflict('Another webhook already handles one of these events (at most one handle per event)', 'triggers');
      }
      throw e;
    });
}

const normalise = (triggers: CreateWebhookInput['triggers']): Trigger[] =>
  triggers.map((t) => ({ event: t.event, strategy: t.strategy ?? 'after' }));

export async function createWebhook(
  ctx: ServiceContext,
  input: CreateWebhookInput,
  resolver?: Resolver,
): Promise<WebhookDto & { secret: string }> {
  requireAdmin(ctx);
  await validateTarget(ctx, input.url, input.configurationId, resolver);
  const secret = generateWebhookSecret();
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(webhooks)
      .values({ projectId: ctx.projectId, display: input.display, url: input.url, configurationId: input.configurationId ?? null })
      .returning();
    const triggers = normalise(input.triggers);
    await writeTriggers(tx, row!.id, triggers);
    await tx.db.insert(webhookSecrets).values({ webhookId: row!.id, secretEncrypted: encryptSecret(secret) });
    return { ...toDto(row!, triggers), secret };
  });
}

export async function listWebhooks(ctx: ServiceContext, page: Page = FIRST_PAGE): Promise<Paged<WebhookDto>> {
  requireAdmin(ctx);
  const rows = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.projectId, ctx.projectId), gt(webhooks.id, page.afterId)))
    .orderBy(asc(webhooks.id))
    .limit(fetchSize(page));
  const triggers = await triggersOf(ctx, rows.map((r) => r.id));
  return toPaged(rows, page, (r) => toDto(r, triggers.get(r.id) ?? []));
}

export async function findWebhook(ctx: ServiceContext, id: number): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.projectId, ctx.projectId)));
  if (!row) throw notFound('Webhook');
  return row;
}

export async function getWebhook(ctx: ServiceContext, id: number): Promise<WebhookDto> {
  requireAdmin(ctx);
  const row = await findWebhook(ctx, id);
  return toDto(row, (await triggersOf(ctx, [id])).get(id) ?? []);
}

export async function updateWebhook(ctx: ServiceContext, id: number, input: UpdateWebhookInput, resolver?: Resolver): Promise<WebhookDto> {
  requireAdmin(ctx);
  const current = await findWebhook(ctx, id);
  if (input.url !== undefined || input.configurationId !== undefined) {
    await validateTarget(ctx, input.url ?? current.url, input.configurationId !== undefined ? input.configurationId : current.configurationId, resolver);
  }
  return withTransaction(ctx, async (tx) => {
    const reenable = input.enabled === true && !current.enabled;
    const [row] = await tx.db
      .update(webhooks)
      .set({
        ...(input.display !== undefined && { display: input.display }),
        ...(input.url !== undefined && { url: input.url }),
        ...(input.configurationId !== undefined && { configurationId: input.configurationId }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        ...(input.enabled === false && !current.disabledReason && { disabledReason: 'disabled by an admin' }),
        ...(reenable && { disabledReason: null, failingSince: null }),
        updatedAt: ctx.clock(),
      })
      .where(eq(webhooks.id, id))
      .returning();
    if (input.triggers) await writeTriggers(tx, id, normalise(input.triggers));
    return toDto(row!, (await triggersOf(tx, [id])).get(id) ?? []);
  });
}

export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  await findWebhook(ctx, id);
  await ctx.db.delete(webhooks).where(eq(webhooks.id, id));
}

export async function getWebhookSecret(ctx: ServiceContext, id: number): Promise<{ secret: string }> {
  requireAdmin(ctx);
  await findWebhook(ctx, id);
  const [current] = await activeSecrets(ctx.db, id, ctx.clock());
  if (!current) throw new AppError('internal', 'The webhook has no secret');
  return { secret: current };
}

export async function rotateWebhookSecret(ctx: ServiceContext, id: number): Promise<{ secret: string }> {
  requireAdmin(ctx);
  await findWebhook(ctx, id);
  const secret = generateWebhookSecret();
  const now = ctx.clock();
  await withTransaction(ctx, async (tx) => {
    // The previous current secret signs beside the new one for 24 h; older ones stop now.
    await tx.db
      .update(webhookSecrets)
      .set({ expiresAt: now })
      .where(and(eq(webhookSecrets.webhookId, id), gt(webhookSecrets.expiresAt, now)));
    await tx.db
      .update(webhookSecrets)
      .set({ expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS) })
      .where(and(eq(webhookSecrets.webhookId, id), isNull(webhookSecrets.expiresAt)));
    await tx.db.insert(webhookSecrets).values({ webhookId: id, secretEncrypted: encryptSecret(secret), createdAt: now });
  });
  return { secret };
}

/** For the dashboard: disabled webhooks and those whose deliveries are failing. */
export async function failingWebhooks(ctx: ServiceContext) {
  requireAdmin(ctx);
  return ctx.db
    .select({
      id: webhooks.id,
      display: webhooks.display,
      enabled: webhooks.enabled,
      disabledReason: webhooks.disabledReason,
      failingSince: webhooks.failingSince,
      pending: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.webhook_id = ${webhooks.id} and d.status = 'pending')`,
    })
    .from(webhooks)
    .where(and(eq(webhooks.projectId, ctx.projectId), or(eq(webhooks.enabled, false), sql`${webhooks.failingSince} is not null`)))
    .orderBy(asc(webhooks.id));
}
