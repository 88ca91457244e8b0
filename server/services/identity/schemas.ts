import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';

export const MAPPING_TARGETS = ['name', 'email', 'externalId', 'role'] as const;

export const mappingSchema = z
  .partialRecord(z.enum(MAPPING_TARGETS), z.string().min(1).max(200))
  .meta({ id: 'ClaimMapping', description: 'Target field (name, email, externalId, role) to the claim it is read from' });

export const identityProviderSchema = z
  .object({
    id: idSchema,
    display: z.string(),
    issuer: z.string(),
    clientId: z.string(),
    mapping: z.record(z.string(), z.string()),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'IdentityProvider' });
export type IdentityProviderDto = z.infer<typeof identityProviderSchema>;

const issuer = z
  .url({ protocol: /^https?$/, message: 'Must be the http(s) issuer URL, e.g. https://login.example.org' })
  .max(2000)
  .transform((u) => u.replace(/\/+$/, ''));

const fields = {
  display: z.string().trim().min(1).max(200),
  issuer,
  clientId: z.string().min(1).max(500),
  clientSecret: z.string().min(1).max(2000).meta({ description: 'Write-only: never returned' }),
  mapping: mappingSchema.optional(),
};

export const createIdentityProviderInput = z.object(fields).strict().meta({ id: 'IdentityProviderCreate' });
export type CreateIdentityProviderInput = z.infer<typeof createIdentityProviderInput>;
export const updateIdentityProviderInput = z.object(fields).partial().strict().meta({ id: 'IdentityProviderUpdate' });
export type UpdateIdentityProviderInput = z.infer<typeof updateIdentityProviderInput>;

export const DEFAULT_MAPPING = { name: 'name', email: 'email' } as const;
