import { Agent, type Dispatcher } from 'undici';
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

type Headers = Record<string, string | string[] | undefined>;

/**
 * Collects one call's answer for `postJson` and settles it once: with the answer, the error, or the time
 * limit, whichever comes first. A class, so a call creates one object rather than a closure per callback.
 */
class CallHandler implements Dispatcher.DispatchHandler {
  private settled = false;
  private controller: Dispatcher.DispatchController | undefined;
  private statusCode = 0;
  private headers: Headers = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly started = performance.now();

  constructor(
    private readonly timeoutMs: number,
    private readonly resolve: (result: CallResult) => void,
  ) {
    // The total time limit, from before the connection to the answer's last byte.
    this.timer = setTimeout(() => this.timedOut(), timeoutMs);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private settle(result: CallResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.resolve(result);
  }

  private get timeoutError(): string {
    return `timed out after ${this.timeoutMs / 1000} s`;
  }

  private timedOut(): void {
    this.settle({ ok: false, statusCode: null, error: this.timeoutError, blocked: false, durationMs: this.elapsed() });
    this.controller?.abort(new Error('timed out'));
  }

  private answer(truncated: boolean): void {
    const { statusCode, headers } = this;
    const body = Buffer.concat(this.chunks).toString('utf8');
    if (statusCode >= 200 && statusCode < 300) {
      this.settle({ ok: true, statusCode, headers, body, truncated, durationMs: this.elapsed() });
      return;
    }
    const error = statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `HTTP ${statusCode}`;
    this.settle({ ok: false, statusCode, headers, body, error, blocked: false, durationMs: this.elapsed() });
  }

  fail(e: unknown): void {
    const blocked = blockedCause(e);
    if (blocked) return this.settle({ ok: false, statusCode: null, error: blocked.message, blocked: true, durationMs: this.elapsed() });
    const err = e as Error & { code?: string };
    const late = err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
    const error = late ? this.timeoutError : `${err.code ? `${err.code}: ` : ''}${err.message}`;
    this.settle({ ok: false, statusCode: null, error, blocked: false, durationMs: this.elapsed() });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('timed out'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Headers): void {
    // 1xx answers (103 Early Hints) come before the final one.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled || this.statusCode === 0) return;
    if (this.size + chunk.length > RESPONSE_MAX_BYTES) {
      this.chunks.push(chunk.subarray(0, RESPONSE_MAX_BYTES - this.size));
      this.size = RESPONSE_MAX_BYTES;
      // The cap is reached: the answer so far is the result, and the rest is not read (the connection is
      // closed rather than reused for an answer we did not finish).
      this.answer(true);
      controller.abort(new Error('answer cut at the read cap'));
      return;
    }
    this.size += chunk.length;
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.answer(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, e: Error): void {
    this.fail(e);
  }
}

/**
 * POSTs a body with undici (keep-alive, no redirects followed, total time limit, capped answer). The
 * address actually dialled is checked; an IP literal is checked here because sockets skip `lookup` for it.
 *
 * It dispatches with a handler of its own rather than through undici's `request`: that wraps every call
 * in an async resource, a readable stream for the answer and an abort-signal listener, which cost about
 * 40 of the 70 µs of CPU a post took (bench/send-path); the handler collects the answer's chunks itself.
 */
export function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; resolver?: Resolver },
): Promise<CallResult> {
  return new Promise<CallResult>((resolve) => {
    const handler = new CallHandler(opts.timeoutMs, resolve);
    try {
      const target = new URL(url);
      checkLiteralHost(target);
      agentFor(opts.resolver ?? systemResolver).dispatch(
        {
          origin: target.origin,
          path: target.search ? `${target.pathname}${target.search}` : target.pathname,
          method: 'POST',
          headers,
          body,
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        },
        handler,
      );
    } catch (e) {
      handler.fail(e);
    }
  });
}
