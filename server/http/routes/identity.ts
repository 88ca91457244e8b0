import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idParam } from '@/server/core/ids';
import {
  createIdentityProvider,
  deleteIdentityProvider,
  getIdentityProvider,
  listIdentityProviders,
  updateIdentityProvider,
} from '@/server/services/identity/identity-providers';
import { createIdentityProviderInput, identityProviderSchema, updateIdentityProviderInput } from '@/server/services/identity/schemas';

const tag = 'Identity providers';
const idParams = z.object({ id: idParam });

export const identityRoutes = [
  defineRoute({
    method: 'POST',
    path: '/identity-provider',
    tag,
    summary: 'Configure an OpenID Connect provider',
    description: 'People sign in through it; `account_link` decides whom a new account belongs to. `clientSecret` is write-only.',
    body: createIdentityProviderInput,
    response: identityProviderSchema,
    status: 201,
    location: (p: { id: number }) => `/identity-provider/${p.id}`,
    handler: (ctx, { body }) => createIdentityProvider(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/identity-provider',
    tag,
    summary: 'List identity providers',
    paginated: true,
    response: identityProviderSchema,
    handler: (ctx, { page }) => listIdentityProviders(ctx, page),
  }),
  defineRoute({ method: 'GET', path: '/identity-provider/{id}', tag, summary: 'Get an identity provider', params: idParams, response: identityProviderSchema, handler: (ctx, { params }) => getIdentityProvider(ctx, params.id) }),
  defineRoute({
    method: 'PATCH',
    path: '/identity-provider/{id}',
    tag,
    summary: 'Update an identity provider',
    params: idParams,
    body: updateIdentityProviderInput,
    response: identityProviderSchema,
    handler: (ctx, { params, body }) => updateIdentityProvider(ctx, params.id, body),
  }),
  defineRoute({ method: 'DELETE', path: '/identity-provider/{id}', tag, summary: 'Delete an identity provider and its account links', params: idParams, status: 204, handler: (ctx, { params }) => deleteIdentityProvider(ctx, params.id) }),
];
