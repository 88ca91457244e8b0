import { createCallerFactory, router } from './init';
import { integrationsRouter } from './routers/integrations';
import { membersRouter } from './routers/members';
import { projectsRouter } from './routers/projects';
import { recordsRouter, recordTypesRouter } from './routers/records';
import { webhooksRouter } from './routers/webhooks';
import { identityRouter } from './routers/identity';
import { careplansRouter, observationCodesRouter, templatesRouter } from './routers/careplans';
import { activitiesRouter } from './routers/activities';

export const appRouter = router({
  projects: projectsRouter,
  members: membersRouter,
  recordTypes: recordTypesRouter,
  records: recordsRouter,
  integrations: integrationsRouter,
  webhooks: webhooksRouter,
  identityProviders: identityRouter,
  observationCodes: observationCodesRouter,
  templates: templatesRouter,
  careplans: careplansRouter,
  activities: activitiesRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
