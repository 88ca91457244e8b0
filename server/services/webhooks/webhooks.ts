import { and, asc, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { integrations, webhookDeliveries, webhooks, webhookSecrets, webhookTriggers } from '@/db/schema';
import { audit, REDACTED } from '@/server/audit/audit';
import { requireAdmin } from '@/server/auth/guards';
import { encryptSecret } from '@/server/core/crypto';
import { onCommit, withTransaction, type ServiceContext } from '@/server/context';
import { AppError, conflict, invalidField, notFound, uniqueViolation } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { Resolver } from '@/server/webhooks/safety';
import { requireCallableUrl } from '@/server/services/shared';
import { generateWebhookSecret } from '@/server/webhooks/signing';
import { activeSecrets, expandUrl } from '@/server/webhooks/targets';
import { RECOVERY_WINDOW_MS, type CreateWebhookInput, type UpdateWebhookInput, type WebhookDto, type WebhookHealth } from './schemas';
import { announceNewWork } from '@/server/events/work-notifier';

type Row = typeof webhooks.$inferSelect;
type Trigger = { event: string; strategy: 'after' | 'handle' | 'before' };

export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

const NO_DELIVERIES = { lastDeliveryAt: null, lastDeliveryStatus: null, deliveries24h: 0, successRate24h: null };

function toDto(row: Row, triggers: Trigger[], health?: Omit<WebhookHealth, 'failingSince'>): WebhookDto {
  return {
    id: row.id,
    display: row.display,
    url: row.url,
    triggers: triggers.map((t) => ({ event: t.event, strategy: t.strategy })) as WebhookDto['triggers'],
    configurationId: row.configurationId,
    headers: row.headers,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    health: { ...(health ?? NO_DELIVERIES), failingSince: row.failingSince ? iso(row.failingSince) : null },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** What the audit trail keeps of a webhook (its DTO without the health numbers that change by themselves). */
const snapshot = (dto: WebhookDto) => {
  const { health: _health, ...rest } = dto;
  return rest;
};

/**
 * Health of some webhooks in one query: the last delivery, and of the last 24 hours' deliveries that
 * were attempted, the share delivered.
 */
async function healthOf(ctx: ServiceContext, ids: number[]): Promise<Map<number, Omit<WebhookHealth, 'failingSince'>>> {
  const out = new Map<number, Omit<WebhookHealth, 'failingSince'>>();
  if (ids.length === 0) return out;
  const since = new Date(ctx.clock().getTime() - 24 * 3_600_000);
  const rows = await ctx.db
    .select({
      id: webhooks.id,
      lastAt: sql<string | null>`last.created_at`,
      lastStatus: sql<WebhookHealth['lastDeliveryStatus']>`last.status`,
      total: sql<number>`coalesce(day.total, 0)::int`,
      delivered: sql<number>`coalesce(day.delivered, 0)::int`,
    })
    .from(webhooks)
    .leftJoin(
      sql`lateral (select d.created_at, d.status from ${webhookDeliveries} d where d.webhook_id = ${webhooks.id} order by d.id desc limit 1) last`,
      sql`true`,
    )
    .leftJoin(
      sql`lateral (select count(*) filter (where d.status <> 'pending' or d.attempt_count > 0) as total, count(*) filter (where d.status = 'delivered') as delivered
        from ${webhookDeliveries} d where d.webhook_id = ${webhooks.id} and d.created_at >= ${since.toISOString()}::timestamptz) day`,
      sql`true`,
    )
    .where(inArray(webhooks.id, ids));
  for (const r of rows) {
    out.set(r.id, {
      lastDeliveryAt: r.lastAt ? iso(new Date(r.lastAt)) : null,
      lastDeliveryStatus: r.lastStatus ?? null,
      deliveries24h: r.total,
      successRate24h: r.total > 0 ? r.delivered / r.total : null,
    });
  }
  return out;
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
      .values({ projectId: ctx.projectId, display: input.display, url: input.url, configurationId: input.configurationId ?? null, headers: input.headers ?? {} })
      .returning();
    const triggers = normalise(input.triggers);
    await writeTriggers(tx, row!.id, triggers);
    await tx.db.insert(webhookSecrets).values({ webhookId: row!.id, secretEncrypted: encryptSecret(secret) });
    const dto = toDto(row!, triggers);
    await audit(tx, { action: 'create', resource: 'webhook', resourceId: dto.id, after: { ...snapshot(dto), secret } });
    return { ...dto, secret };
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
  const ids = rows.map((r) => r.id);
  const [triggers, health] = await Promise.all([triggersOf(ctx, ids), healthOf(ctx, ids)]);
  return toPaged(rows, page, (r) => toDto(r, triggers.get(r.id) ?? [], health.get(r.id)));
}

export async function findWebhook(ctx: ServiceContext, id: number, lock = false): Promise<Row> {
  const query = ctx.db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.projectId, ctx.projectId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Webhook');
  return row;
}

async function dtoOf(ctx: ServiceContext, row: Row): Promise<WebhookDto> {
  const [triggers, health] = await Promise.all([triggersOf(ctx, [row.id]), healthOf(ctx, [row.id])]);
  return toDto(row, triggers.get(row.id) ?? [], health.get(row.id));
}

export async function getWebhook(ctx: ServiceContext, id: number): Promise<WebhookDto> {
  requireAdmin(ctx);
  return dtoOf(ctx, await findWebhook(ctx, id));
}

export async function updateWebhook(ctx: ServiceContext, id: number, input: UpdateWebhookInput, resolver?: Resolver): Promise<WebhookDto> {
  requireAdmin(ctx);
  const current = await findWebhook(ctx, id);
  if (input.url !== undefined || input.configurationId !== undefined) {
    await validateTarget(ctx, input.url ?? current.url, input.configurationId !== undefined ? input.configurationId : current.configurationId, resolver);
  }
  return withTransaction(ctx, async (tx) => {
    const locked = await findWebhook(tx, id, true);
    const before = snapshot(toDto(locked, (await triggersOf(tx, [id])).get(id) ?? []));
    const reenable = input.enabled === true && !locked.enabled;
    const [row] = await tx.db
      .update(webhooks)
      .set({
        ...(input.display !== undefined && { display: input.display }),
        ...(input.url !== undefined && { url: input.url }),
        ...(input.configurationId !== undefined && { configurationId: input.configurationId }),
        ...(input.headers !== undefined && { headers: input.headers }),
        ...(input.enabled !== undefined && { enabled: input.enabled }),
        ...(input.enabled === false && !locked.disabledReason && { disabledReason: 'disabled by an admin' }),
        ...(reenable && { disabledReason: null, failingSince: null }),
        updatedAt: ctx.clock(),
      })
      .where(eq(webhooks.id, id))
      .returning();
    if (input.triggers) await writeTriggers(tx, id, normalise(input.triggers));
    const dto = await dtoOf(tx, row!);
    await audit(tx, { action: 'update', resource: 'webhook', resourceId: id, before, after: snapshot(dto) });
    return dto;
  });
}

export async function deleteWebhook(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  await findWebhook(ctx, id);
  await withTransaction(ctx, async (tx) => {
    const row = await findWebhook(tx, id, true);
    const before = snapshot(toDto(row, (await triggersOf(tx, [id])).get(id) ?? []));
    await tx.db.delete(webhooks).where(eq(webhooks.id, id));
    await audit(tx, { action: 'delete', resource: 'webhook', resourceId: id, before });
  });
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
    await audit(tx, { action: 'update', resource: 'webhook', resourceId: id, extra: { secret: { before: REDACTED, after: REDACTED } } });
  });
  return { secret };
}

/**
 * Bulk recovery (CONTRACT 11): every `failed` delivery of the webhook created since `since` (at most 14
 * days back) is queued for a new attempt now, and a disabled webhook is enabled again. Deliveries keep
 * their ids, so receivers see the same `webhook-id` and can drop what they already have.
 */
export async function recoverWebhook(ctx: ServiceContext, id: number, since: string): Promise<{ queued: number }> {
  requireAdmin(ctx);
  await findWebhook(ctx, id);
  const from = new Date(since);
  const now = ctx.clock();
  if (from.getTime() < now.getTime() - RECOVERY_WINDOW_MS) throw invalidField('since', 'Recovery reaches back at most 14 days');
  if (from > now) throw invalidField('since', 'Choose a moment in the past');
  const queued = await withTransaction(ctx, async (tx) => {
    const current = await findWebhook(tx, id, true);
    if (!current.enabled) {
      await tx.db.update(webhooks).set({ enabled: true, disabledReason: null, failingSince: null, updatedAt: now }).where(eq(webhooks.id, id));
    }
    const rows = await tx.db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, leaseUntil: null })
      .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, 'failed'), gte(webhookDeliveries.createdAt, from)))
      .returning({ id: webhookDeliveries.id });
    await audit(tx, {
      action: 'update',
      resource: 'webhook',
      resourceId: id,
      before: { enabled: current.enabled, disabledReason: current.disabledReason },
      after: { enabled: true, disabledReason: null },
      extra: { recovered: { before: null, after: { since: iso(from), queued: rows.length } } },
    });
    onCommit(tx, () => announceNewWork(rows.map((r) => ({ deliveryId: r.id, webhookId: id }))));
    return rows.length;
  });
  return { queued };
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
