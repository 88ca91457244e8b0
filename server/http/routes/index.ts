import type { Method, RouteSpec } from '@/server/http/define-route';
import { withApi } from '@/server/http/with-api';
import { integrationRoutes } from './integrations';
import { memberRoutes } from './members';
import { recordRoutes, recordTypeRoutes } from './records';
import { webhookRoutes } from './webhooks';
import { identityRoutes } from './identity';
import { careplanRoutes, definitionRoutes, observationRoutes } from './careplans';
import { activityRoutes } from './activities';

/** Every REST route. The app/api/v1 route files, the OpenAPI document and the test dispatcher read this. */
export const routes: RouteSpec[] = [...memberRoutes, ...recordTypeRoutes, ...recordRoutes, ...integrationRoutes, ...webhookRoutes, ...identityRoutes, ...observationRoutes, ...definitionRoutes, ...careplanRoutes, ...activityRoutes];

type Handler = ReturnType<typeof withApi>;

const handlers = new Map<string, Handler>();
function handlerFor(spec: RouteSpec): Handler {
  const key = `${spec.method} ${spec.path}`;
  let h = handlers.get(key);
  if (!h) handlers.set(key, (h = withApi(spec)));
  return h;
}

/** The Next route-file exports for one path: `export const { GET, POST } = routeHandlers('/member')`. */
export function routeHandlers(path: string): Partial<Record<Method, Handler>> {
  const out: Partial<Record<Method, Handler>> = {};
  for (const spec of routes) if (spec.path === path) out[spec.method] = handlerFor(spec);
  if (Object.keys(out).length === 0) throw new Error(`No REST route is defined for ${path}`);
  return out;
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
      const seg = decodeURIComponent(segments[i]!);
      if (part.startsWith('{')) {
        params[part.slice(1, -1)] = seg;
        return true;
      }
      score++;
      return part === seg;
    });
    if (ok && (!best || score > best.score)) best = { spec, params, score };
  }
  if (!best) return new Response(JSON.stringify({ status: 404, code: 'not_found' }), { status: 404 });
  return handlerFor(best.spec)(req, { params: Promise.resolve(best.params) });
}
