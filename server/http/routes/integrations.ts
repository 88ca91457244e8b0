import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idParam } from '@/server/core/ids';
import {
  createApiKey,
  createIntegration,
  deleteIntegration,
  getIntegration,
  listApiKeys,
  listIntegrations,
  revokeApiKey,
  updateIntegration,
} from '@/server/services/integrations/integrations';
import {
  apiKeySchema,
  createdApiKeySchema,
  createApiKeyInput,
  createIntegrationInput,
  integrationSchema,
  updateIntegrationInput,
} from '@/server/services/integrations/schemas';

const tag = 'Integrations';
const idParams = z.object({ id: idParam });

export const integrationRoutes = [
  defineRoute({
    method: 'POST',
    path: '/integration',
    tag,
    summary: 'Create an integration',
    body: createIntegrationInput,
    response: integrationSchema,
    status: 201,
    location: (i: { id: number }) => `/integration/${i.id}`,
    handler: (ctx, { body }) => createIntegration(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/integration',
    tag,
    summary: 'List integrations',
    paginated: true,
    response: integrationSchema,
    handler: (ctx, { page }) => listIntegrations(ctx, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/integration/{id}',
    tag,
    summary: 'Get an integration',
    params: idParams,
    response: integrationSchema,
    handler: (ctx, { params }) => getIntegration(ctx, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/integration/{id}',
    tag,
    summary: 'Update an integration',
    params: idParams,
    body: updateIntegrationInput,
    response: integrationSchema,
    handler: (ctx, { params, body }) => updateIntegration(ctx, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/integration/{id}',
    tag,
    summary: 'Delete an integration and its keys',
    params: idParams,
    status: 204,
    handler: (ctx, { params }) => deleteIntegration(ctx, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/integration/{id}/key',
    tag,
    summary: 'Create an API key',
    description: 'The key is in this answer only; the server keeps its hash. The body is optional: `name` (default "Key <n>") and `expiresAt`.',
    params: idParams,
    body: createApiKeyInput.optional(),
    response: createdApiKeySchema,
    status: 201,
    location: (_k: unknown, p) => `/integration/${p.id}/key`,
    handler: (ctx, { params, body }) => createApiKey(ctx, params.id, body ?? {}),
  }),
  defineRoute({
    method: 'GET',
    path: '/integration/{id}/key',
    tag,
    summary: "List an integration's API keys (without the keys)",
    params: idParams,
    paginated: true,
    response: apiKeySchema,
    handler: (ctx, { params, page }) => listApiKeys(ctx, params.id, page),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/integration/{id}/key/{keyId}',
    tag,
    summary: 'Revoke an API key',
    params: z.object({ id: idParam, keyId: idParam }),
    status: 204,
    handler: (ctx, { params }) => revokeApiKey(ctx, params.id, params.keyId),
  }),
];
