import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { z } from 'zod';
import { currentUserId } from '@/server/auth/next-auth';
import { resolveStaffContext } from '@/server/auth/staff';
import { AppError } from '@/server/errors';
import { fieldErrors } from '@/server/http/problem';

export type TrpcContext = { userId?: number; requestedProjectId?: number };

/** Context for the fetch handler and the server caller: who is signed in, and which project they chose. */
export async function createTrpcContext(opts: { projectCookie?: string }): Promise<TrpcContext> {
  const userId = await currentUserId();
  const requestedProjectId = Number(opts.projectCookie) || undefined;
  return { userId, requestedProjectId };
}

const TRPC_CODES = {
  invalid_request: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  rate_limited: 'TOO_MANY_REQUESTS',
  webhook_failed: 'BAD_GATEWAY',
  internal: 'INTERNAL_SERVER_ERROR',
} as const;

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const fields =
      cause instanceof AppError ? cause.errors : cause instanceof z.ZodError ? fieldErrors(cause) : undefined;
    return { ...shape, data: { ...shape.data, fieldErrors: fields ?? null, stack: undefined } };
  },
});

/** Maps AppError once for this transport; anything else becomes a bare internal error. */
const errorMapper = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: TRPC_CODES[cause.code], message: cause.message, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      console.error(result.error);
      throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side' });
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(errorMapper);

/** Signed-in staff, in the project they chose (or their first); `svc` is the service context. */
export const staffProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  const staff = await resolveStaffContext(ctx.userId, ctx.requestedProjectId).catch((e: unknown) => {
    if (e instanceof AppError) throw new TRPCError({ code: TRPC_CODES[e.code], message: e.message });
    throw e;
  });
  const { svc, project, projects } = staff;
  return next({ ctx: { ...ctx, svc, project, projects } });
});

/** Admin-only procedures; coordinators get FORBIDDEN before the service runs. */
export const adminProcedure = staffProcedure.use(({ ctx, next }) => {
  if (ctx.project.role !== 'admin') throw new TRPCError({ code: 'FORBIDDEN', message: 'This needs the admin role' });
  return next();
});
