import net from 'node:net';
import { Agent, request } from 'undici';
import { BlockedTargetError, checkAddress, filteringLookup, systemResolver, type Resolver } from './safety';

export const RESPONSE_RECORD_BYTES = 4096;
/** The most we read of an answer (a `handle` answer is parsed as JSON); more is an error. */
export const RESPONSE_MAX_BYTES = 1024 * 1024;

export type CallResult =
  | { ok: true; statusCode: number; headers: Record<string, string | string[] | undefined>; body: string; durationMs: number }
  | { ok: false; statusCode: number | null; headers?: Record<string, string | string[] | undefined>; body?: string; error: string; blocked: boolean; durationMs: number };

const agents = new Map<Resolver, Agent>();
function agentFor(resolver: Resolver): Agent {
  let agent = agents.get(resolver);
  if (!agent) {
    // Keep-alive connections, and a lookup that refuses non-public addresses at dial time.
    agent = new Agent({ connect: { lookup: filteringLookup(resolver), timeout: 10_000 }, keepAliveTimeout: 30_000, connections: 128 });
    agents.set(resolver, agent);
  }
  return agent;
}

function blockedCause(e: unknown): BlockedTargetError | undefined {
  for (let cur = e as { cause?: unknown } | undefined, i = 0; cur && i < 5; cur = cur.cause as typeof cur, i++) {
    if (cur instanceof BlockedTargetError) return cur;
  }
  return undefined;
}

/**
 * POSTs a body with undici (keep-alive, no redirects followed, total time limit, capped answer). The
 * address actually dialled is checked; an IP literal is checked here because sockets skip `lookup` for it.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; resolver?: Resolver },
): Promise<CallResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const resolver = opts.resolver ?? systemResolver;
  try {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) checkAddress(host);
    const signal = AbortSignal.timeout(opts.timeoutMs);
    const res = await request(target, {
      method: 'POST',
      headers,
      body,
      dispatcher: agentFor(resolver),
      signal,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > RESPONSE_MAX_BYTES) {
        res.body.destroy();
        return { ok: false, statusCode: res.statusCode, error: `answer larger than ${RESPONSE_MAX_BYTES} bytes`, blocked: false, durationMs: elapsed() };
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const headersOut = res.headers as Record<string, string | string[] | undefined>;
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return { ok: true, statusCode: res.statusCode, headers: headersOut, body: text, durationMs: elapsed() };
    }
    const error = res.statusCode >= 300 && res.statusCode < 400 ? `redirect (${res.statusCode}) not followed` : `HTTP ${res.statusCode}`;
    return { ok: false, statusCode: res.statusCode, headers: headersOut, body: text, error, blocked: false, durationMs: elapsed() };
  } catch (e) {
    const blocked = blockedCause(e);
    if (blocked) return { ok: false, statusCode: null, error: blocked.message, blocked: true, durationMs: elapsed() };
    const err = e as Error & { code?: string };
    const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
    const error = timedOut ? `timed out after ${opts.timeoutMs / 1000} s` : `${err.code ? `${err.code}: ` : ''}${err.message}`;
    return { ok: false, statusCode: null, error, blocked: false, durationMs: elapsed() };
  }
}
