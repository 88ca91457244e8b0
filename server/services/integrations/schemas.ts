import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { instantSchema, timestampSchema } from '@/server/core/time';
import { slugPattern } from '@/server/core/names';

export const httpUrl = z
  .url({ protocol: /^https?$/, message: 'Must be an http(s) URL' })
  .max(2000)
  // Zod runs refinements even when url() failed, so this one must not throw on a non-URL.
  .refine((u) => {
    const url = URL.parse(u);
    return !url || (!url.username && !url.password);
  }, 'Must not contain a user name or password');

export const integrationSchema = z
  .object({
    id: idSchema,
    display: z.string(),
    slug: z.string(),
    endpointUrl: z.string().nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Integration' });
export type IntegrationDto = z.infer<typeof integrationSchema>;

const fields = {
  display: z.string().trim().min(1).max(200),
  slug: z.string().regex(slugPattern, 'Lower-case letters, digits and -, at most 64'),
  endpointUrl: httpUrl.nullable().optional(),
};

export const createIntegrationInput = z.object(fields).strict().meta({ id: 'IntegrationCreate' });
export type CreateIntegrationInput = z.infer<typeof createIntegrationInput>;
export const updateIntegrationInput = z.object(fields).partial().strict().meta({ id: 'IntegrationUpdate' });
export type UpdateIntegrationInput = z.infer<typeof updateIntegrationInput>;

const apiKeyFields = {
  id: idSchema,
  integrationId: idSchema,
  name: z.string(),
  prefix: z.string().meta({ description: 'The first characters of the key, to recognise it' }),
  createdBy: z
    .object({ type: z.enum(['user', 'integration', 'system']), id: z.number().int().nullable(), name: z.string().nullable() })
    .nullable()
    .meta({ description: 'Who made the key: a staff user in the console, an integration through the API, or the system (seed, CLI)' }),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable().meta({ description: 'When a request last came with the key, to within a minute' }),
  expiresAt: timestampSchema.nullable().meta({ description: 'After this the key answers 401' }),
  revokedAt: timestampSchema.nullable(),
};
export const apiKeySchema = z.object(apiKeyFields).meta({ id: 'ApiKey' });
export type ApiKeyDto = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = z
  .object({ ...apiKeyFields, key: z.string().meta({ description: 'Shown once; only its hash is stored' }) })
  .meta({ id: 'ApiKeyCreated' });

export const createApiKeyInput = z
  .object({
    name: z.string().trim().min(1, 'Give the key a name').max(100, 'At most 100 characters').optional().meta({ description: 'Default "Key <n>"' }),
    expiresAt: instantSchema.optional().meta({ description: 'Optional; after it the key answers 401' }),
  })
  .strict()
  .meta({ id: 'ApiKeyCreate' });
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;
