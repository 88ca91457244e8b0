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
  return toDto(row);
}

export async function deleteIdentityProvider(ctx: ServiceContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const [row] = await ctx.db.delete(identityProviders).where(byId(ctx, id)).returning({ id: identityProviders.id });
  if (!row) throw notFound('Identity provider');
}

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
