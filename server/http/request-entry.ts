import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors';
import { problemBody } from './problem';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];
const KEY = Symbol.for('carebase.requestEntryPolicy');
type G = typeof globalThis & { [KEY]?: { trustProxy: boolean } };

/**
 * What happens to a request where it enters the process, before Next sees it. Installed once per process
 * at boot (and by the tests' HTTP server, which boots the same way).
 *
 * - Without a trusted proxy, `X-Forwarded-*` headers come from the client and say whatever it likes (a
 *   fake address to dodge the limits on failed sign-ins, a host to point `Location` elsewhere). Next keeps
 *   such headers when present and fills them from the socket only when absent, so unless
 *   CAREBASE_TRUST_PROXY is set they are removed here.
 * - A REST path whose percent-encoding does not decode (`/member/%FF`, a lone surrogate's bytes) names
 *   nothing: 404 problem+json (answerUndecodablePath). Next would answer it with a bare 500 before any
 *   route handler runs. This was a Next proxy (middleware) once; run for every REST request it cost about
 *   a tenth of an enrolment's CPU in the app server, where this check costs one decodeURIComponent.
 */
export function installRequestEntryPolicy(trustProxy: boolean): void {
  const g = globalThis as G;
  if (g[KEY]) {
    g[KEY].trustProxy = trustProxy;
    return;
  }
  const state = (g[KEY] = { trustProxy });
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      if (!state.trustProxy) for (const name of FORWARDED) delete req.headers[name];
      if (answerUndecodablePath(req, args[1] as http.ServerResponse)) return true;
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}

/** Answers 404 problem+json when `req` is for a REST path that is not validly percent-encoded UTF-8. */
export function answerUndecodablePath(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const url = req.url ?? '';
  const end = url.search(/[?#]/);
  const pathname = end === -1 ? url : url.slice(0, end);
  if (!(pathname === '/api/v1' || pathname.startsWith('/api/v1/')) || !pathname.includes('%')) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    const requestId = randomUUID();
    const body = JSON.stringify(problemBody(new AppError('not_found', 'The path is not validly percent-encoded UTF-8; it names nothing'), requestId));
    // The request's body, if any, is not read: the connection closes after the answer (as for a 413).
    res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, connection: 'close' });
    res.end(body);
    return true;
  }
}
