import http from 'node:http';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];
const KEY = Symbol.for('carebase.forwardedHeaderPolicy');
type G = typeof globalThis & { [KEY]?: { trustProxy: boolean } };

/**
 * Without a trusted proxy, `X-Forwarded-*` headers come from the client and say whatever it likes (a
 * fake address to dodge the limits on failed sign-ins, a host to point `Location` elsewhere). Next
 * keeps such headers when present and fills them from the socket only when absent, so the policy is
 * applied where requests enter the process: unless CAREBASE_TRUST_PROXY is set, they are removed before
 * Next sees the request. Installed once per process at boot (and by the tests' HTTP server).
 */
export function installForwardedHeaderPolicy(trustProxy: boolean): void {
  const g = globalThis as G;
  if (g[KEY]) {
    g[KEY].trustProxy = trustProxy;
    return;
  }
  const state = (g[KEY] = { trustProxy });
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request' && !state.trustProxy) {
      const req = args[0] as http.IncomingMessage;
      for (const name of FORWARDED) delete req.headers[name];
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}
