import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors';
import { problemBody } from './problem';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];
const KEY = Symbol.for('carebase.requestEntryPolicy');
type State = { trustProxy: boolean; closing: boolean; servers: Set<http.Server>; open: Set<http.ServerResponse>; drained?: () => void };
type G = typeof globalThis & { [KEY]?: State };

/**
 * What happens to a request where it enters the process, before Next sees it. Installed once per process
 * at boot (and by the tests' HTTP server, which boots the same way).
 *
 * - Without a trusted proxy, `X-Forwarded-*` headers come from the client and say whatever it likes (a
 *   fake address to dodge the limits on failed sign-ins, a host to point `Location` elsewhere). Next keeps
 *   such headers when present and fills them from the socket only when absent, so unless
 *   CAREBASE_TRUST_PROXY is set they are removed here.
 * - The servers that answer and the requests unanswered are counted, and once `closeHttpServers` has
 *   begun every answer says `Connection: close`: the process's end waits for those requests (see there).
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
  const state: State = (g[KEY] = { trustProxy, closing: false, servers: new Set(), open: new Set() });
  function answered(this: http.ServerResponse) {
    state.open.delete(this);
    if (state.open.size === 0) state.drained?.();
  }
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    // Known from its first connection or request (a connection may predate this hook, which boot
    // installs while Next already listens): a stop before any request still closes it.
    if (event === 'connection') state.servers.add(this);
    else if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      const res = args[1] as http.ServerResponse;
      state.servers.add(this);
      state.open.add(res);
      res.once('close', answered);
      // A keep-alive client would otherwise send its next request on a connection about to be closed.
      if (state.closing) res.setHeader('connection', 'close');
      if (!state.trustProxy) for (const name of FORWARDED) delete req.headers[name];
      if (answerUndecodablePath(req, res)) return true;
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}

/**
 * The first half of a graceful stop (SIGTERM from Docker, Kubernetes or a rolling deploy): stop accepting
 * connections (Node's `server.close()` also closes the idle ones) and wait up to `graceMs` for the requests
 * being served, whose answers now close their connections, so that the database closes under none of
 * them. The wait is for requests, counted where they enter: `server.close()`'s callback would wait for
 * every socket, keep-alive ones until their idle timeout and upgraded ones (the dev server's HMR) for good.
 * Answers how many requests were still unanswered at the end of the grace; their connections are cut.
 */
export async function closeHttpServers(graceMs: number): Promise<number> {
  const state = (globalThis as G)[KEY];
  if (!state) return 0;
  state.closing = true;
  // Answers already under way say it too, where their headers are not yet sent.
  for (const res of state.open) if (!res.headersSent) res.setHeader('connection', 'close');
  for (const s of state.servers) if (s.listening) s.close();
  let timer: NodeJS.Timeout | undefined;
  const drained = state.open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (state.drained = resolve));
  await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
  clearTimeout(timer);
  state.drained = undefined;
  const unanswered = state.open.size;
  for (const s of state.servers) s.closeAllConnections();
  return unanswered;
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
