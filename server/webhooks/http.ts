import { EventEmitter } from 'node:events';
import { Agent, request } from 'undici';
import { BlockedTargetError, checkLiteralHost, filteringLookup, systemResolver, type Resolver } from './safety';

export const RESPONSE_RECORD_BYTES = 4096;
/** The most we read of an answer; the rest is not read (CONTRACT 7: cut, not a failure). */
export const RESPONSE_MAX_BYTES = 1024 * 1024;

export type CallResult =
  | { ok: true; statusCode: number; headers: Record<string, string | string[] | undefined>; body: string; truncated: boolean; durationMs: number }
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
  // The total time limit: an EventEmitter as undici's abort signal (its documented alternative to an
  // AbortSignal) and one timer. AbortSignal.timeout cost about 30 µs of CPU per call (bench/send-path),
  // a tenth of what a delivery costs the executor.
  const signal = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signal.emit('abort');
  }, opts.timeoutMs);
  try {
    const target = new URL(url);
    checkLiteralHost(target);
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
    let truncated = false;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      if (size + buf.length > RESPONSE_MAX_BYTES) {
        chunks.push(buf.subarray(0, RESPONSE_MAX_BYTES - size));
        truncated = true;
        // Stop reading; the connection is not reused for an answer we did not finish.
        res.body.destroy();
        break;
      }
      size += buf.length;
      chunks.push(buf);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const headersOut = res.headers as Record<string, string | string[] | undefined>;
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return { ok: true, statusCode: res.statusCode, headers: headersOut, body: text, truncated, durationMs: elapsed() };
    }
    const error = res.statusCode >= 300 && res.statusCode < 400 ? `redirect (${res.statusCode}) not followed` : `HTTP ${res.statusCode}`;
    return { ok: false, statusCode: res.statusCode, headers: headersOut, body: text, error, blocked: false, durationMs: elapsed() };
  } catch (e) {
    const blocked = blockedCause(e);
    if (blocked) return { ok: false, statusCode: null, error: blocked.message, blocked: true, durationMs: elapsed() };
    const err = e as Error & { code?: string };
    const late = timedOut || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
    const error = late ? `timed out after ${opts.timeoutMs / 1000} s` : `${err.code ? `${err.code}: ` : ''}${err.message}`;
    return { ok: false, statusCode: null, error, blocked: false, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}
