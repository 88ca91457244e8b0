import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getDbHandle } from '@/db/client';
import { authenticate, readBearer } from '@/server/auth/api-auth';
import { createContext } from '@/server/context';
import { AppError } from '@/server/errors';
import { readJsonBody } from './body';
import { decodeCursor, encodeCursor } from './cursor';
import { ApiResult, commonQuery, listQuery, type RouteSpec } from './define-route';
import { Semaphore } from './limiter';
import { fieldErrors, problemResponse, toAppError } from './problem';

type RouteContext = { params: Promise<Record<string, string | string[]>> };

let gate: Semaphore | undefined;
async function dbGate(): Promise<Semaphore> {
  return (gate ??= new Semaphore((await getDbHandle()).concurrency));
}

const DEFAULT_LIMIT = 100;

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, prefix?: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('invalid_request', 'The request is invalid', fieldErrors(result.error, prefix));
  return result.data;
}

/**
 * The one REST adapter: bearer auth, project and actor resolution, strict parsing of path, query and
 * body, the DB concurrency gate, then the route's service call, mapped to JSON or problem+json.
 */
export function withApi(spec: RouteSpec) {
  const querySchema = z
    .object({ ...commonQuery, ...(spec.paginated ? listQuery : {}), ...(spec.query?.shape ?? {}) })
    .strict();

  return async function handle(req: Request, routeCtx?: RouteContext): Promise<Response> {
    const requestId = randomUUID();
    try {
      const url = new URL(req.url);
      const token = readBearer(req.headers, url);

      const rawParams = (await routeCtx?.params) ?? {};
      let params: unknown = rawParams;
      if (spec.params) {
        const parsed = spec.params.safeParse(rawParams);
        if (!parsed.success) throw new AppError('not_found', 'No such resource');
        params = parsed.data;
      }
      const query = parseOrThrow(querySchema, Object.fromEntries(url.searchParams));
      let body: unknown;
      if (spec.method === 'POST' || spec.method === 'PATCH') {
        const raw = await readJsonBody(req);
        body = spec.body ? parseOrThrow(spec.body, raw ?? (spec.method === 'PATCH' ? {} : undefined)) : undefined;
        if (!spec.body && raw !== undefined && !(typeof raw === 'object' && raw && Object.keys(raw).length === 0)) {
          throw new AppError('invalid_request', 'This operation takes no body', [{ path: '(body)', message: 'Unexpected body' }]);
        }
      }
      const limit = (query.limit as number | undefined) ?? DEFAULT_LIMIT;
      const afterId = typeof query.cursor === 'string' ? decodeCursor(spec.path, query.cursor) : 0;

      const handle = await getDbHandle();
      const result = await (await dbGate()).run(async () => {
        const { principal, actor } = await authenticate(handle.db, token, query.actorId as number | undefined);
        if (query.projectId !== undefined && query.projectId !== principal.projectId) {
          throw new AppError('forbidden', 'The token does not belong to this project');
        }
        const ctx = createContext(handle.db, principal.projectId, actor);
        return spec.handler(ctx, { params, query, body, page: { limit, afterId } });
      });

      const headers = new Headers({ 'x-request-id': requestId });
      let status: number = spec.status ?? 200;
      let payload: unknown = result;
      if (result instanceof ApiResult) {
        status = result.status;
        payload = result.body;
      }
      if (spec.paginated && Array.isArray(payload)) {
        if (payload.length > limit) {
          payload = payload.slice(0, limit);
          const last = (payload as { id: number }[]).at(-1)!;
          const next = new URL(url);
          next.searchParams.set('cursor', encodeCursor(spec.path, last.id));
          headers.set('link', `<${next.toString()}>; rel="next"`);
        }
      }
      if (status === 201 && spec.location) {
        // A handle webhook's answer need not carry an id; then there is no location to name.
        const path = spec.location(payload as never, params as never);
        if (!path.includes('undefined')) headers.set('location', `${url.origin}/api/v1${path}`);
      }
      if (status === 204) return new Response(null, { status, headers });
      headers.set('content-type', 'application/json');
      return new Response(JSON.stringify(payload), { status, headers });
    } catch (e) {
      const err = toAppError(e);
      if (err.code === 'internal') console.error(`[${requestId}] ${spec.method} ${spec.path}`, e);
      return problemResponse(err, requestId);
    }
  };
}
