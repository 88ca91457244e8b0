import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { refuseTokensInQuery, withApiContext } from '@/server/auth/api-auth';
import type { Paged } from '@/server/core/page';
import { unsafeStringReason } from '@/server/core/json';
import { getEnv } from '@/server/env';
import { AppError, asAppError, errorSummary, invalid, zodFieldErrors, type FieldError } from '@/server/errors';
import {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from '@/server/services/idempotency/idempotency';
import { readJsonBody, UnreadBodyError, type Body } from './body';
import { decodeCursor, encodeCursor } from './cursor';
import { ApiResult, commonQuery, listQuery, type RouteSpec } from './define-route';
import { problemResponse } from './problem';
import { answer as answerResponse } from '@/server/core/answer';
import { clientAddress } from '@/server/core/client-address';
import { publicOrigin } from './request-meta';

type RouteContext = { params: Promise<Record<string, string | string[]>> };
type Answer = { status: number; headers: Headers; body: string | null };

const DEFAULT_LIMIT = 100;

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, prefix?: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(zodFieldErrors(result.error, prefix));
  return result.data;
}

/** Query values arrive decoded; a NUL in one would reach a query and fail there (CONTRACT 1: 400 naming it). */
function checkQueryStrings(url: URL): void {
  const errors: FieldError[] = [];
  for (const [name, value] of url.searchParams) {
    const reason = unsafeStringReason(value) ?? unsafeStringReason(name);
    if (reason) errors.push({ path: unsafeStringReason(name) ? '(query)' : name, message: reason });
  }
  if (errors.length > 0) throw invalid(errors);
}

/**
 * The one REST adapter: strict parsing of path, query and body, then authentication, limits and the
 * route's service call in a database slot (withApiContext), `Idempotency-Key` for POSTs, and the answer
 * as JSON or problem+json. Every answer carries X-Request-Id; one sent before the body was read closes
 * the connection.
 */
export function withApi(spec: RouteSpec) {
  const querySchema = z
    .object({ ...commonQuery, ...(spec.paginated ? listQuery : {}), ...(spec.query?.shape ?? {}) })
    .strict();

  return async function handle(req: Request, routeCtx?: RouteContext): Promise<Response> {
    const requestId = randomUUID();
    try {
      const url = new URL(req.url);
      refuseTokensInQuery(url);
      checkQueryStrings(url);
      const rawParams = (await routeCtx?.params) ?? {};
      let params: unknown = rawParams;
      if (spec.params) {
        const parsed = spec.params.safeParse(rawParams);
        if (!parsed.success) throw new AppError('not_found', 'No such resource');
        params = parsed.data;
      }
      const query = parseOrThrow(querySchema, Object.fromEntries(url.searchParams));
      let body: Body = { value: undefined, bytes: Buffer.alloc(0) };
      let input: unknown;
      if (spec.method === 'POST' || spec.method === 'PATCH') {
        body = await readJsonBody(req);
        if (spec.body) input = parseOrThrow(spec.body, body.value ?? (spec.method === 'PATCH' ? {} : undefined));
        else if (body.value !== undefined && !(typeof body.value === 'object' && body.value && Object.keys(body.value).length === 0)) {
          throw invalid([{ path: '(body)', message: 'This operation takes no body' }]);
        }
      }
      const idempotencyKey = spec.method === 'POST' ? req.headers.get('idempotency-key') : null;
      if (idempotencyKey !== null) checkIdempotencyKey(idempotencyKey);
      const limit = (query.limit as number | undefined) ?? DEFAULT_LIMIT;
      const afterId = typeof query.cursor === 'string' ? decodeCursor(spec.path, query.cursor) : 0;
      const origin = publicOrigin(req);

      const answer = await withApiContext(
        { headers: req.headers, url, clientAddress: clientAddress(req.headers), requestId },
        { actorId: query.actorId as number | undefined, projectId: query.projectId as number | undefined },
        async (ctx, principal) => {
          const run = async () => toAnswer(spec, await spec.handler(ctx, { params, query, body: input, page: { limit, afterId } }), { url, origin, params, limit });
          if (idempotencyKey === null) return run();
          const fingerprint = requestFingerprint(spec.method, url.pathname + url.search, body.bytes);
          const claim = await claimIdempotencyKey(ctx.db, principal.credential, idempotencyKey, fingerprint, ctx.clock());
          if (claim.kind === 'replay') {
            const headers = new Headers({ 'idempotent-replayed': 'true' });
            if (claim.answer.body !== null) headers.set('content-type', 'application/json');
            if (claim.answer.location) headers.set('location', claim.answer.location);
            return { status: claim.answer.status, headers, body: claim.answer.body };
          }
          try {
            const fresh = await run();
            await completeIdempotencyKey(ctx.db, principal.credential, idempotencyKey, { status: fresh.status, body: fresh.body, location: fresh.headers.get('location') });
            return fresh;
          } catch (e) {
            await releaseIdempotencyKey(ctx.db, principal.credential, idempotencyKey).catch(() => {});
            throw e;
          }
        },
      );
      answer.headers.set('x-request-id', requestId);
      return answerResponse(answer.body, { status: answer.status, headers: answer.headers });
    } catch (e) {
      const err = asAppError(e, getEnv().DB_STATEMENT_TIMEOUT_MS);
      // Log no values: the summary names the error, its SQLSTATE and statement, never its parameters.
      if (err.code === 'internal') console.error(`[${requestId}] ${spec.method} ${spec.path} failed: ${errorSummary(e)}`);
      return problemResponse(err, requestId, e instanceof UnreadBodyError ? { connection: 'close' } : undefined);
    }
  };
}

/** The handler's result as status, headers and JSON text: list pages get `Link`, creations `Location`. */
function toAnswer(spec: RouteSpec, result: unknown, at: { url: URL; origin: string; params: unknown; limit: number }): Answer {
  const headers = new Headers();
  let status: number = spec.status ?? 200;
  let payload = result;
  if (result instanceof ApiResult) {
    status = result.status;
    payload = result.body;
  }
  if (spec.paginated) {
    const paged = payload as Paged<unknown>;
    payload = paged.items;
    if (paged.next !== null) {
      const next = new URL(at.url.pathname + at.url.search, at.origin);
      next.searchParams.set('cursor', encodeCursor(spec.path, paged.next));
      headers.set('link', `<${next.toString()}>; rel="next"`);
    }
  }
  if (status === 201 && spec.location) {
    // A handle webhook's answer need not carry an id; then there is no location to name.
    const path = spec.location(payload, at.params);
    if (!path.includes('undefined')) headers.set('location', `${at.origin}/api/v1${path}`);
  }
  if (status === 204) return { status, headers, body: null };
  headers.set('content-type', 'application/json');
  return { status, headers, body: JSON.stringify(payload) };
}
