import { randomUUID } from 'node:crypto';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { z } from 'zod';
import { resolveMemberContext } from '@/server/auth/member';
import { currentSignedIn } from '@/server/auth/next-auth';
import { resolveStaffContext } from '@/server/auth/staff';
import { unsafeJsonPlaces } from '@/server/core/json';
import { AppError, asAppError, errorSummary, zodFieldErrors } from '@/server/errors';

export type TrpcContext = { userId?: number; memberId?: number; requestedProjectId?: number; requestId?: string };

/** Context for the fetch handler and the server caller: who is signed in, and which project they chose. */
export async function createTrpcContext(opts: { projectCookie?: string }): Promise<TrpcContext> {
  const { userId, memberId } = await currentSignedIn();
  const requestedProjectId = Number(opts.projectCookie) || undefined;
  return { userId, memberId, requestedProjectId, requestId: randomUUID() };
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
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  webhook_failed: 'BAD_GATEWAY',
  unavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_SERVER_ERROR',
} as const;

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const fields =
      cause instanceof AppError ? cause.errors : cause instanceof z.ZodError ? zodFieldErrors(cause) : undefined;
    return { ...shape, data: { ...shape.data, fieldErrors: fields ?? null, stack: undefined } };
  },
});

/**
 * Maps errors once for this transport, as REST does: AppError by its code, a database that is busy or
 * unreachable as SERVICE_UNAVAILABLE, and anything else as a bare internal error (logged without values).
 */
const errorMapper = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: TRPC_CODES[cause.code], message: cause.message, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      const mapped = asAppError(cause ?? result.error);
      if (mapped.code !== 'internal') throw new TRPCError({ code: TRPC_CODES[mapped.code], message: mapped.message, cause: mapped });
      console.error(`[trpc] ${path} failed: ${errorSummary(cause ?? result.error)}`);
      throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side' });
    }
  }
  return result;
});

/** Input that cannot be stored (nested deeper than 64, NUL, unpaired surrogates) is refused here, for every procedure. */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const unsafe = unsafeJsonPlaces(await getRawInput());
  if (unsafe.length > 0) throw new AppError('invalid_request', 'The request is invalid', unsafe);
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(errorMapper).use(storableInput);

/** Signed-in staff, in the project they chose (or their first); `svc` is the service context. */
/**
 * Who the caller is, resolved once per request: a page's server caller runs several procedures with one
 * context (the member page three), and each used to look the caller up again.
 */
const resolvedStaff = new WeakMap<TrpcContext, ReturnType<typeof resolveStaffContext>>();
const resolvedMember = new WeakMap<TrpcContext, ReturnType<typeof resolveMemberContext>>();
function once<T>(cache: WeakMap<TrpcContext, Promise<T>>, ctx: TrpcContext, resolve: () => Promise<T>): Promise<T> {
  let resolved = cache.get(ctx);
  if (!resolved) cache.set(ctx, (resolved = resolve()));
  return resolved;
}

export const staffProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  const userId = ctx.userId;
  const staff = await once(resolvedStaff, ctx, () => resolveStaffContext(userId, ctx.requestedProjectId, ctx.requestId)).catch((e: unknown) => {
    if (e instanceof AppError) throw new TRPCError({ code: TRPC_CODES[e.code], message: e.message });
    throw e;
  });
  const { svc, project, projects } = staff;
  return next({ ctx: { ...ctx, svc, project, projects } });
});

/** A member signed in through an identity provider, acting as themselves in their project (`/me`). */
export const memberProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.memberId) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first' });
  const memberId = ctx.memberId;
  const svc = await once(resolvedMember, ctx, () => resolveMemberContext(memberId)).catch((e: unknown) => {
    if (e instanceof AppError) throw new TRPCError({ code: TRPC_CODES[e.code], message: e.message });
    throw e;
  });
  return next({ ctx: { ...ctx, svc: { ...svc, requestId: ctx.requestId } } });
});

/** Admin-only procedures; coordinators get FORBIDDEN before the service runs. */
export const adminProcedure = staffProcedure.use(({ ctx, next }) => {
  if (ctx.project.role !== 'admin') throw new TRPCError({ code: 'FORBIDDEN', message: 'This needs the admin role' });
  return next();
});
