import { and, asc, eq, gt } from 'drizzle-orm';
import { apiKeys, integrations } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import { generateToken, hashToken } from '@/server/core/crypto';
import { requireCallableUrl, searchWhere } from '@/server/services/shared';
import type { Resolver } from '@/server/webhooks/safety';
import type { ServiceContext } from '@/server/context';
import { conflict, notFound, uniqueViolation } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import type { ApiKeyDto, CreateIntegrationInput, IntegrationDto, UpdateIntegrationInput } from './schemas';

type Row = typeof integrations.$inferSelect;

const toDto = (r: Row): IntegrationDto => ({
  id: r.id,
  display: r.display,
  slug: r.slug,
  endpointUrl: r.endpointUrl,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const toKeyDto = (k: typeof apiKeys.$inferSelect): ApiKeyDto => ({
  id: k.id,
  integrationId: k.integrationId,
  prefix: k.prefix,
  createdAt: iso(k.createdAt),
  revokedAt: k.revokedAt ? iso(k.revokedAt) : null,
});

function slugTaken(e: unknown): never {
  if (uniqueViolation(e) !== undefined) throw conflict('An integration with this slug exists', 'slug');
  throw e;
}

const byId = (ctx: ServiceContext, id: number) => and(eq(integrations.id, id), eq(integrations.projectId, ctx.projectId));

export async function createIntegration(ctx: ServiceContext, input: CreateIntegrationInput, resolver?: Resolver): Promise<IntegrationDto> {
  requireAdmin(ctx);
  if (input.endpointUrl) await requireCallableUrl(input.endpointUrl, 'endpointUrl', resolver);
  const [row] = await ctx.db
    .insert(integrations)
    .values({ projectId: ctx.projectId, ...input })
    .returning()
    .catch(slugTaken);
  return toDto(row!);
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
  const [row] = await ctx.db
    .update(integrations)
    .set({ ...input, updatedAt: ctx.clock() })
    .where(byId(ctx, id))
    .returning()
    .catch(slugTaken);
  if (!row) throw notFound('Integration');
  return toDto(row);
}

/** Deleting an integration revokes its keys with it (they are deleted by cascade). */
export async function deleteIntegration(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const [row] = await ctx.db.delete(integrations).where(byId(ctx, id)).returning({ id: integrations.id });
  if (!row) throw notFound('Integration');
}

/** A new API key; `key` is returned once and only its SHA-256 is stored. */
export async function createApiKey(
  ctx: ServiceContext,
  integrationId: number,
  exactKey?: string,
): Promise<{ id: number; key: string }> {
  requireAdmin(ctx);
  await getIntegration(ctx, integrationId);
  const key = exactKey ?? generateToken('cb_key');
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({ projectId: ctx.projectId, integrationId, keyHash: hashToken(key), prefix: key.slice(0, 12) })
    .returning({ id: apiKeys.id })
    .catch((e: unknown) => {
      if (uniqueViolation(e) !== undefined) throw conflict('This key is already in use');
      throw e;
    });
  return { id: row!.id, key };
}

export async function listApiKeys(ctx: ServiceContext, integrationId: number, page: Page = FIRST_PAGE): Promise<Paged<ApiKeyDto>> {
  await getIntegration(ctx, integrationId);
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.integrationId, integrationId), eq(apiKeys.projectId, ctx.projectId), gt(apiKeys.id, page.afterId)))
    .orderBy(asc(apiKeys.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toKeyDto);
}

/** Revoking keeps the row (for the audit trail) and makes the key answer 401 from the next request on. */
export async function revokeApiKey(ctx: ServiceContext, integrationId: number, keyId: number): Promise<void> {
  await getIntegration(ctx, integrationId);
  const [row] = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: ctx.clock() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.integrationId, integrationId), eq(apiKeys.projectId, ctx.projectId)))
    .returning({ id: apiKeys.id });
  if (!row) throw notFound('API key');
}
