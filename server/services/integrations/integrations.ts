import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import { apiKeys, integrations, users } from '@/db/schema';
import { audit } from '@/server/audit/audit';
import { requireAdmin } from '@/server/auth/guards';
import { generateToken, hashToken } from '@/server/core/crypto';
import { requireCallableUrl, searchWhere } from '@/server/services/shared';
import type { Resolver } from '@/server/webhooks/safety';
import { withTransaction, type ServiceContext } from '@/server/context';
import { conflict, invalidField, notFound, uniqueViolation } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso, isoOrNull } from '@/server/core/time';
import type { ApiKeyDto, CreateApiKeyInput, CreateIntegrationInput, IntegrationDto, UpdateIntegrationInput } from './schemas';

type Row = typeof integrations.$inferSelect;

const toDto = (r: Row): IntegrationDto => ({
  id: r.id,
  display: r.display,
  slug: r.slug,
  endpointUrl: r.endpointUrl,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

type KeyRow = typeof apiKeys.$inferSelect;

const toKeyDto = (k: KeyRow, creatorName?: string | null): ApiKeyDto => ({
  id: k.id,
  integrationId: k.integrationId,
  name: k.name,
  prefix: k.prefix,
  createdBy: k.createdByType ? { type: k.createdByType, id: k.createdById, name: creatorName ?? null } : null,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
  expiresAt: isoOrNull(k.expiresAt),
  revokedAt: isoOrNull(k.revokedAt),
});

/** A key's audit snapshot: what people see of it, never the key or its prefix. */
const keySnapshot = (k: ApiKeyDto) => ({ integrationId: k.integrationId, name: k.name, expiresAt: k.expiresAt, revokedAt: k.revokedAt });

function slugTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('An integration with this slug exists', 'slug');
  throw e;
}

const byId = (ctx: ServiceContext, id: number) => and(eq(integrations.id, id), eq(integrations.projectId, ctx.projectId));

export async function createIntegration(ctx: ServiceContext, input: CreateIntegrationInput, resolver?: Resolver): Promise<IntegrationDto> {
  requireAdmin(ctx);
  if (input.endpointUrl) await requireCallableUrl(input.endpointUrl, 'endpointUrl', resolver);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(integrations)
      .values({ projectId: ctx.projectId, ...input })
      .returning()
      .catch(slugTaken);
    const dto = toDto(row!);
    await audit(tx, { action: 'create', resource: 'integration', resourceId: dto.id, after: dto });
    return dto;
  });
}

export async function listIntegrations(ctx: ServiceContext, page: Page = FIRST_PAGE, search?: string): Promise<Paged<IntegrationDto>> {
  requireAdmin(ctx);
  const rows = await ctx.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.projectId, ctx.projectId), gt(integrations.id, page.afterId), searchWhere(search, integrations.display, integrations.slug)))
    .orderBy(asc(integrations.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toDto);
}

export async function getIntegration(ctx: ServiceContext, id: number): Promise<IntegrationDto> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(integrations).where(byId(ctx, id)).limit(1);
  if (!row) throw notFound('Integration');
  return toDto(row);
}

export async function updateIntegration(
  ctx: ServiceContext,
  id: number,
  input: UpdateIntegrationInput,
  resolver?: Resolver,
): Promise<IntegrationDto> {
  requireAdmin(ctx);
  if (input.endpointUrl) await requireCallableUrl(input.endpointUrl, 'endpointUrl', resolver);
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(integrations).where(byId(ctx, id)).for('update');
    if (!current) throw notFound('Integration');
    const [row] = await tx.db
      .update(integrations)
      .set({ ...input, updatedAt: ctx.clock() })
      .where(byId(ctx, id))
      .returning()
      .catch(slugTaken);
    const dto = toDto(row!);
    await audit(tx, { action: 'update', resource: 'integration', resourceId: id, before: toDto(current), after: dto });
    return dto;
  });
}

/** Deleting an integration revokes its keys with it (they are deleted by cascade). */
export async function deleteIntegration(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.delete(integrations).where(byId(ctx, id)).returning();
    if (!row) throw notFound('Integration');
    await audit(tx, { action: 'delete', resource: 'integration', resourceId: id, before: toDto(row) });
  });
}

/** Who is making a key, as the key remembers it. */
function creatorOf(ctx: ServiceContext): { createdByType: 'user' | 'integration' | 'system'; createdById: number | null } {
  const a = ctx.actor;
  if (a.kind === 'user') return { createdByType: 'user', createdById: a.userId };
  if (a.kind === 'integration') return { createdByType: 'integration', createdById: a.integrationId };
  return { createdByType: 'system', createdById: null };
}

/**
 * A new API key; `key` is returned once and only its SHA-256 is stored. Named "Key <n>" unless a name is
 * given; an expiry, when given, must lie in the future.
 */
export async function createApiKey(
  ctx: ServiceContext,
  integrationId: number,
  input: CreateApiKeyInput & { exactKey?: string } = {},
): Promise<ApiKeyDto & { key: string }> {
  requireAdmin(ctx);
  await getIntegration(ctx, integrationId);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= ctx.clock()) throw invalidField('expiresAt', 'Choose a moment in the future');
  const key = input.exactKey ?? generateToken('cb_key');
  return withTransaction(ctx, async (tx) => {
    const [{ n }] = (await tx.db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.integrationId, integrationId))) as [{ n: number }];
    const [row] = await tx.db
      .insert(apiKeys)
      .values({ projectId: ctx.projectId, integrationId, keyHash: hashToken(key), prefix: key.slice(0, 12), name: input.name ?? `Key ${Number(n) + 1}`, expiresAt, ...creatorOf(ctx) })
      .returning()
      .catch((e: unknown) => {
        if (uniqueViolation(e) !== undefined) throw conflict('This key is already in use');
        throw e;
      });
    const dto = toKeyDto(row!);
    await audit(tx, { action: 'create', resource: 'api-key', resourceId: dto.id, after: keySnapshot(dto) });
    return { ...dto, key };
  });
}

/** Names of the staff who made keys, for the keys page. */
async function creatorNames(ctx: ServiceContext, rows: KeyRow[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const userIds = [...new Set(rows.filter((r) => r.createdByType === 'user' && r.createdById).map((r) => r.createdById!))];
  const integrationIds = [...new Set(rows.filter((r) => r.createdByType === 'integration' && r.createdById).map((r) => r.createdById!))];
  if (userIds.length > 0) {
    for (const u of await ctx.db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, userIds))) out.set(`user:${u.id}`, u.name ?? u.email);
  }
  if (integrationIds.length > 0) {
    const found = await ctx.db.select({ id: integrations.id, display: integrations.display }).from(integrations).where(and(inArray(integrations.id, integrationIds), eq(integrations.projectId, ctx.projectId)));
    for (const i of found) out.set(`integration:${i.id}`, i.display);
  }
  return out;
}

export async function listApiKeys(ctx: ServiceContext, integrationId: number, page: Page = FIRST_PAGE): Promise<Paged<ApiKeyDto>> {
  await getIntegration(ctx, integrationId);
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.integrationId, integrationId), eq(apiKeys.projectId, ctx.projectId), gt(apiKeys.id, page.afterId)))
    .orderBy(asc(apiKeys.id))
    .limit(fetchSize(page));
  const names = await creatorNames(ctx, rows);
  return toPaged(rows, page, (k) => toKeyDto(k, names.get(`${k.createdByType}:${k.createdById}`)));
}

/** Revoking keeps the row (for the audit trail) and makes the key answer 401 from the next request on. */
export async function revokeApiKey(ctx: ServiceContext, integrationId: number, keyId: number): Promise<void> {
  await getIntegration(ctx, integrationId);
  await withTransaction(ctx, async (tx) => {
    const where = and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId), eq(apiKeys.projectId, ctx.projectId));
    const [current] = await tx.db.select().from(apiKeys).where(where).for('update');
    if (!current) throw notFound('API key');
    const [row] = await tx.db.update(apiKeys).set({ revokedAt: current.revokedAt ?? ctx.clock() }).where(where).returning();
    await audit(tx, { action: 'delete', resource: 'api-key', resourceId: keyId, before: keySnapshot(toKeyDto(current)), after: keySnapshot(toKeyDto(row!)) });
  });
}
