import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import {
  createIdentityProvider,
  deleteIdentityProvider,
  getIdentityProvider,
  listIdentityProviders,
  updateIdentityProvider,
} from '@/server/services/identity/identity-providers';
import { createIdentityProviderInput, updateIdentityProviderInput } from '@/server/services/identity/schemas';
import { adminProcedure, router } from '@/server/trpc/init';
import { byId, pageOf, searchPageInput } from './shared';

export const identityRouter = router({
  list: adminProcedure.input(searchPageInput).query(({ ctx, input }) => listIdentityProviders(ctx.svc, pageOf(input))),
  get: adminProcedure.input(byId).query(({ ctx, input }) => getIdentityProvider(ctx.svc, input.id)),
  create: adminProcedure.input(createIdentityProviderInput).mutation(({ ctx, input }) => createIdentityProvider(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateIdentityProviderInput }))
    .mutation(({ ctx, input }) => updateIdentityProvider(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteIdentityProvider(ctx.svc, input.id)),
});
