import { and, asc, eq, gt } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { identityProviders } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import { decryptSecret, encryptSecret } from '@/server/core/crypto';
import { audit, REDACTED } from '@/server/audit/audit';
import { onCommit, withTransaction, type ServiceContext } from '@/server/context';
import { requireCallableUrl } from '@/server/services/shared';
import type { Resolver } from '@/server/webhooks/safety';
import { notFound } from '@/server/errors';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { DEFAULT_MAPPING, type CreateIdentityProviderInput, type IdentityProviderDto, type UpdateIdentityProviderInput } from './schemas';

type Row = typeof identityProviders.$inferSelect;

const toDto = (r: Row): IdentityProviderDto => ({
  id: r.id,
  display: r.display,
  issuer: r.issuer,
  clientId: r.clientId,
  mapping: r.mapping,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

const byId = (ctx: ServiceContext, id: number) => and(eq(identityProviders.id, id), eq(identityProviders.projectId, ctx.projectId));

export async function createIdentityProvider(ctx: ServiceContext, input: CreateIdentityProviderInput, resolver?: Resolver): Promise<IdentityProviderDto> {
  requireAdmin(ctx);
  await requireCallableUrl(input.issuer, 'issuer', resolver);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(identityProviders)
      .values({
        projectId: ctx.projectId,
        display: input.display,
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecretEncrypted: encryptSecret(input.clientSecret),
        mapping: input.mapping ?? { ...DEFAULT_MAPPING },
      })
      .returning();
    const dto = toDto(row!);
    await audit(tx, { action: 'create', resource: 'identity-provider', resourceId: dto.id, after: { ...dto, clientSecret: REDACTED } });
    onCommit(tx, forgetSignInProviders);
    return dto;
  });
}

export async function listIdentityProviders(ctx: ServiceContext, page: Page = FIRST_PAGE): Promise<Paged<IdentityProviderDto>> {
  requireAdmin(ctx);
  const rows = await ctx.db
    .select()
    .from(identityProviders)
    .where(and(eq(identityProviders.projectId, ctx.projectId), gt(identityProviders.id, page.afterId)))
    .orderBy(asc(identityProviders.id))
    .limit(fetchSize(page));
  return toPaged(rows, page, toDto);
}

export async function getIdentityProvider(ctx: ServiceContext, id: number): Promise<IdentityProviderDto> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(identityProviders).where(byId(ctx, id));
  if (!row) throw notFound('Identity provider');
  return toDto(row);
}

export async function updateIdentityProvider(ctx: ServiceContext, id: number, input: UpdateIdentityProviderInput, resolver?: Resolver): Promise<IdentityProviderDto> {
  requireAdmin(ctx);
  if (input.issuer !== undefined) await requireCallableUrl(input.issuer, 'issuer', resolver);
  const { clientSecret, ...rest } = input;
  return withTransaction(ctx, async (tx) => {
    const [current] = await tx.db.select().from(identityProviders).where(byId(ctx, id)).for('update');
    if (!current) throw notFound('Identity provider');
    const [row] = await tx.db
      .update(identityProviders)
      .set({ ...rest, ...(clientSecret !== undefined && { clientSecretEncrypted: encryptSecret(clientSecret) }), updatedAt: ctx.clock() })
      .where(byId(ctx, id))
      .returning();
    const dto = toDto(row!);
    await audit(tx, {
      action: 'update',
      resource: 'identity-provider',
      resourceId: id,
      before: toDto(current),
      after: dto,
      extra: clientSecret !== undefined ? { clientSecret: { before: REDACTED, after: REDACTED } } : undefined,
    });
    onCommit(tx, forgetSignInProviders);
    return dto;
  });
}

export async function deleteIdentityProvider(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.delete(identityProviders).where(byId(ctx, id)).returning();
    if (!row) throw notFound('Identity provider');
    await audit(tx, { action: 'delete', resource: 'identity-provider', resourceId: id, before: toDto(row) });
    onCommit(tx, forgetSignInProviders);
  });
}

/**
 * Sign-in builds its provider list on every auth() call, so the list is cached for a few seconds; any
 * change made in this process drops the cache at once. The cache lives on globalThis because Next bundles
 * route handlers and pages separately.
 */
const CACHE = Symbol.for('carebase.signInProviders');
type G = typeof globalThis & { [CACHE]?: { at: number; value: Promise<SignInProvider[]> } };
const g = globalThis as G;

export function cachedSignInProviders(db: () => Promise<Queryable>): Promise<SignInProvider[]> {
  const hit = g[CACHE];
  if (hit && Date.now() - hit.at < 5_000) return hit.value;
  const value = db().then(signInProviders);
  g[CACHE] = { at: Date.now(), value };
  value.catch(() => (g[CACHE] = undefined));
  return value;
}

const forgetSignInProviders = () => {
  g[CACHE] = undefined;
};

export type SignInProvider = { id: number; projectId: number; display: string; issuer: string; clientId: string; clientSecret: string };

/** Every configured provider, with its secret, for the sign-in configuration (server side only). */
export async function signInProviders(db: Queryable): Promise<SignInProvider[]> {
  const rows = await db.select().from(identityProviders).orderBy(asc(identityProviders.id));
  return rows.map((r) => ({
    id: r.id,
    projectId: r.projectId,
    display: r.display,
    issuer: r.issuer,
    clientId: r.clientId,
    clientSecret: decryptSecret(r.clientSecretEncrypted),
  }));
}
