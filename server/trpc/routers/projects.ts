import { router, staffProcedure } from '@/server/trpc/init';
import { projectOverview } from '@/server/services/projects/overview';

export const projectsRouter = router({
  /** The signed-in user's projects and the current one, for the switcher. */
  mine: staffProcedure.query(({ ctx }) => ({ current: ctx.project, projects: ctx.projects })),
  overview: staffProcedure.query(({ ctx }) => projectOverview(ctx.svc)),
});
