import { z } from 'zod';
import {
  createIdentityProvider,
  deleteIdentityProvider,
  getIdentityProvider,
  listIdentityProviders,
  updateIdentityProvider,
} from '@/server/services/identity/identity-providers';
import { createIdentityProviderInput, updateIdentityProviderInput } from '@/server/services/identity/schemas';
import { adminProcedure, router } from '@/server/trpc/init';

const id = z.object({ id: z.number().int() });

export const identityRouter = router({
  list: adminProcedure.query(({ ctx }) => listIdentityProviders(ctx.svc, { limit: 1000, afterId: 0 })),
  get: adminProcedure.input(id).query(({ ctx, input }) => getIdentityProvider(ctx.svc, input.id)),
  create: adminProcedure.input(createIdentityProviderInput).mutation(({ ctx, input }) => createIdentityProvider(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: z.number().int(), changes: updateIdentityProviderInput }))
    .mutation(({ ctx, input }) => updateIdentityProvider(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(id).mutation(({ ctx, input }) => deleteIdentityProvider(ctx.svc, input.id)),
});
