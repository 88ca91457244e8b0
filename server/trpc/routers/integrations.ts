import { z } from 'zod';
import { adminProcedure, router } from '@/server/trpc/init';
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
import { createIntegrationInput, updateIntegrationInput } from '@/server/services/integrations/schemas';

const id = z.object({ id: z.number().int() });

export const integrationsRouter = router({
  list: adminProcedure.query(({ ctx }) => listIntegrations(ctx.svc, { limit: 1000, afterId: 0 })),
  get: adminProcedure.input(id).query(({ ctx, input }) => getIntegration(ctx.svc, input.id)),
  create: adminProcedure.input(createIntegrationInput).mutation(({ ctx, input }) => createIntegration(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: z.number().int(), changes: updateIntegrationInput }))
    .mutation(({ ctx, input }) => updateIntegration(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(id).mutation(({ ctx, input }) => deleteIntegration(ctx.svc, input.id)),
  keys: adminProcedure.input(id).query(({ ctx, input }) => listApiKeys(ctx.svc, input.id)),
  createKey: adminProcedure.input(id).mutation(({ ctx, input }) => createApiKey(ctx.svc, input.id)),
  revokeKey: adminProcedure
    .input(z.object({ id: z.number().int(), keyId: z.number().int() }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.svc, input.id, input.keyId)),
});
