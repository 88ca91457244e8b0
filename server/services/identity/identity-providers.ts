import { and, asc, eq, gt } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { identityProviders } from '@/db/schema';
import { requireAdmin } from '@/server/auth/guards';
import { decryptSecret, encryptSecret } from '@/server/auth/secrets';
import type { ServiceContext } from '@/server/context';
import { notFound } from '@/server/errors';
import type { Page } from '@/server/http/define-route';
import { afterId, iso, pageLimit } from '@/server/services/shared';
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

export async function createIdentityProvider(ctx: ServiceContext, input: CreateIdentityProviderInput): Promise<IdentityProviderDto> {
  requireAdmin(ctx);
  const [row] = await ctx.db
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
  forgetSignInProviders();
  return toDto(row!);
}

export async function listIdentityProviders(ctx: ServiceContext, page?: Page): Promise<IdentityProviderDto[]> {
  requireAdmin(ctx);
  const rows = await ctx.db
    .select()
    .from(identityProviders)
    .where(and(eq(identityProviders.projectId, ctx.projectId), gt(identityProviders.id, afterId(page))))
    .orderBy(asc(identityProviders.id))
    .limit(pageLimit(page));
  return rows.map(toDto);
}

export async function getIdentityProvider(ctx: ServiceContext, id: number): Promise<IdentityProviderDto> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(identityProviders).where(byId(ctx, id));
  if (!row) throw notFound('Identity provider');
  return toDto(row);
}

export async function updateIdentityProvider(ctx: ServiceContext, id: number, input: UpdateIdentityProviderInput): Promise<IdentityProviderDto> {
  requireAdmin(ctx);
  const { clientSecret, ...rest } = input;
  const [row] = await ctx.db
    .update(identityProviders)
    .set({ ...rest, ...(clientSecret !== undefined && { clientSecretEncrypted: encryptSecret(clientSecret) }), updatedAt: ctx.clock() })
    .where(byId(ctx, id))
    .returning();
  if (!row) throw notFound('Identity provider');
  forgetSignInProviders();
  return toDto(row);
}

export async function deleteIdentityProvider(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const [row] = await ctx.db.delete(identityProviders).where(byId(ctx, id)).returning({ id: identityProviders.id });
  if (!row) throw notFound('Identity provider');
  forgetSignInProviders();
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
