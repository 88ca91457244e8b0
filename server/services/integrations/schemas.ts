import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { timestampSchema } from '@/server/core/time';
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

export const apiKeySchema = z
  .object({
    id: idSchema,
    integrationId: idSchema,
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it' }),
    createdAt: timestampSchema,
    revokedAt: timestampSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyDto = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = z
  .object({ id: idSchema, key: z.string().meta({ description: 'Shown once; only its hash is stored' }) })
  .meta({ id: 'ApiKeyCreated' });
