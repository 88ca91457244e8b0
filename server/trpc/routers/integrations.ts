import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
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
import { createApiKeyInput, createIntegrationInput, updateIntegrationInput } from '@/server/services/integrations/schemas';
import { byId, pageInput, pageOf, searchPageInput } from './shared';

export const integrationsRouter = router({
  list: adminProcedure.input(searchPageInput).query(({ ctx, input }) => listIntegrations(ctx.svc, pageOf(input), input.search)),
  get: adminProcedure.input(byId).query(({ ctx, input }) => getIntegration(ctx.svc, input.id)),
  create: adminProcedure.input(createIntegrationInput).mutation(({ ctx, input }) => createIntegration(ctx.svc, input)),
  update: adminProcedure
    .input(z.object({ id: idSchema, changes: updateIntegrationInput }))
    .mutation(({ ctx, input }) => updateIntegration(ctx.svc, input.id, input.changes)),
  delete: adminProcedure.input(byId).mutation(({ ctx, input }) => deleteIntegration(ctx.svc, input.id)),
  keys: adminProcedure.input(byId.extend(pageInput)).query(({ ctx, input }) => listApiKeys(ctx.svc, input.id, pageOf(input))),
  createKey: adminProcedure
    .input(byId.extend({ key: createApiKeyInput.default({}) }))
    .mutation(({ ctx, input }) => createApiKey(ctx.svc, input.id, input.key)),
  revokeKey: adminProcedure
    .input(z.object({ id: idSchema, keyId: idSchema }))
    .mutation(({ ctx, input }) => revokeApiKey(ctx.svc, input.id, input.keyId)),
});
