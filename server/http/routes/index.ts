import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors';
import type { Method, RouteSpec } from '@/server/http/define-route';
import { problemResponse } from '@/server/http/problem';
import { withApi } from '@/server/http/with-api';
import { integrationRoutes } from './integrations';
import { memberRoutes } from './members';
import { recordRoutes, recordTypeRoutes } from './records';
import { webhookRoutes } from './webhooks';
import { identityRoutes } from './identity';
import { careplanRoutes, definitionRoutes, observationRoutes } from './careplans';
import { activityRoutes } from './activities';
import { articleRoutes, questionnaireRoutes, responseRoutes } from './content';
import { appointmentRoutes, encounterRoutes, scheduleRoutes } from './scheduling';
import { logRoutes } from './logs';

/** Every REST route. The app/api/v1 route files, the OpenAPI document and the test dispatcher read this. */
export const routes: RouteSpec[] = [...memberRoutes, ...recordTypeRoutes, ...recordRoutes, ...integrationRoutes, ...webhookRoutes, ...identityRoutes, ...observationRoutes, ...definitionRoutes, ...careplanRoutes, ...activityRoutes, ...articleRoutes, ...questionnaireRoutes, ...responseRoutes, ...scheduleRoutes, ...appointmentRoutes, ...encounterRoutes, ...logRoutes];

type Handler = ReturnType<typeof withApi>;

const handlers = new Map<string, Handler>();
function handlerFor(spec: RouteSpec): Handler {
  const key = `${spec.method} ${spec.path}`;
  let h = handlers.get(key);
  if (!h) handlers.set(key, (h = withApi(spec)));
  return h;
}

/** Methods a route file answers: those of the route table, and 405 for the other usual ones. */
export const ROUTE_FILE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type FileMethod = (typeof ROUTE_FILE_METHODS)[number];

/** 405 problem+json with `Allow` and `X-Request-Id` (CONTRACT 1), for a method the path does not have. */
function methodNotAllowed(allowed: Method[]): Handler {
  return async () =>
    problemResponse(new AppError('method_not_allowed', `This path answers ${allowed.join(', ')}`), randomUUID(), { allow: allowed.join(', ') });
}

/** The Next route-file exports for one path: `export const { GET, POST, PUT, PATCH, DELETE } = routeHandlers('/member')`. */
export function routeHandlers(path: string): Record<FileMethod, Handler> {
  const specs = routes.filter((spec) => spec.path === path);
  if (specs.length === 0) throw new Error(`No REST route is defined for ${path}`);
  const allowed = specs.map((s) => s.method);
  const refuse = methodNotAllowed(allowed);
  const handlerOf = (method: FileMethod) => {
    const spec = specs.find((s) => s.method === method);
    return spec ? handlerFor(spec) : refuse;
  };
  return Object.fromEntries(ROUTE_FILE_METHODS.map((m) => [m, handlerOf(m)])) as Record<FileMethod, Handler>;
}

/**
 * Matches a request against the route table the way Next's file router does (static segments before
 * dynamic ones). Used by tests to drive the exact handlers Next serves, without a server process.
 */
export async function dispatch(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const segments = url.pathname.replace(/^\/api\/v1/, '').split('/').filter(Boolean);
  let best: { spec: RouteSpec; params: Record<string, string>; score: number } | undefined;
  for (const spec of routes) {
    if (spec.method !== req.method) continue;
    const parts = spec.path.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    const ok = parts.every((part, i) => {
      const seg = decodeSegment(segments[i]!);
      if (part.startsWith('{')) {
        params[part.slice(1, -1)] = seg;
        return true;
      }
      score++;
      return part === seg;
    });
    if (ok && (!best || score > best.score)) best = { spec, params, score };
  }
  if (!best) {
    const path = matchPath(segments);
    if (path) return routeHandlers(path)[req.method as FileMethod](req);
    return problemResponse(new AppError('not_found', 'No such API route; see /api/v1/openapi.json'), randomUUID());
  }
  return handlerFor(best.spec)(req, { params: Promise.resolve(best.params) });
}

/** The route path (any method) that a request path names, for 405s in the test dispatcher. */
function matchPath(segments: string[]): string | undefined {
  return routes.find((spec) => {
    const parts = spec.path.split('/').filter(Boolean);
    return parts.length === segments.length && parts.every((p, i) => p.startsWith('{') || p === decodeSegment(segments[i]!));
  })?.path;
}

/** A path segment decoded as Next decodes route params: undecodable ones stay as sent. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
