import { createCallerFactory, router } from './init';
import { integrationsRouter } from './routers/integrations';
import { membersRouter } from './routers/members';
import { projectsRouter } from './routers/projects';
import { recordsRouter, recordTypesRouter } from './routers/records';
import { webhooksRouter } from './routers/webhooks';
import { identityRouter } from './routers/identity';
import { careplansRouter, definitionsRouter, observationCodesRouter } from './routers/careplans';
import { activitiesRouter } from './routers/activities';
import { meRouter } from './routers/me';
import { articlesRouter, questionnairesRouter, responsesRouter } from './routers/content';
import { appointmentsRouter, encountersRouter, schedulesRouter } from './routers/scheduling';
import { auditRouter, eventsRouter } from './routers/logs';
import { teamRouter } from './routers/team';

export const appRouter = router({
  projects: projectsRouter,
  members: membersRouter,
  recordTypes: recordTypesRouter,
  records: recordsRouter,
  integrations: integrationsRouter,
  webhooks: webhooksRouter,
  identityProviders: identityRouter,
  observationCodes: observationCodesRouter,
  definitions: definitionsRouter,
  careplans: careplansRouter,
  activities: activitiesRouter,
  articles: articlesRouter,
  questionnaires: questionnairesRouter,
  responses: responsesRouter,
  schedules: schedulesRouter,
  appointments: appointmentsRouter,
  encounters: encountersRouter,
  me: meRouter,
  audit: auditRouter,
  events: eventsRouter,
  team: teamRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
