import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { readBoundedBody } from '@/server/core/bounded-body';
import { answerJson } from '@/server/core/answer';
import { appRouter } from './root';
import type { TrpcContext } from './init';

/** CONTRACT 1: the admin UI's endpoint keeps the REST body limit and takes at most 50 calls per batch. */
export const TRPC_MAX_BODY_BYTES = 1024 * 1024;
export const TRPC_MAX_BATCH = 50;

function tooLarge(message: string): Response {
  const body = { error: { json: { message, code: -32600, data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 } } } };
  // Answered before the body was read: the connection closes so the unread rest cannot poison it.
  return answerJson(body, { status: 413, headers: { connection: 'close' } });
}

/**
 * The tRPC fetch handler with limits before any procedure runs: a batch of more than 50 calls (counted
 * from the path, `a,b,c`), or a body over 1 MiB (declared or counted while reading), is 413 and runs
 * nothing; 1,000 calls in one batch would otherwise hold the server for seconds.
 */
export async function trpcRequestHandler(req: Request, createContext: () => Promise<TrpcContext>): Promise<Response> {
  const url = new URL(req.url);
  const calls = url.pathname.replace(/^\/api\/trpc\/?/, '').split(',').filter(Boolean).length;
  if (calls > TRPC_MAX_BATCH) return tooLarge(`At most ${TRPC_MAX_BATCH} calls in one batch`);
  let request = req;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    if (Number(req.headers.get('content-length') ?? '0') > TRPC_MAX_BODY_BYTES) return tooLarge('The body is larger than 1 MiB');
    const body = await readBoundedBody(req, TRPC_MAX_BODY_BYTES);
    if (body === null) return tooLarge('The body is larger than 1 MiB');
    request = new Request(req.url, { method: req.method, headers: req.headers, body: body as BodyInit });
  }
  return fetchRequestHandler({ endpoint: '/api/trpc', req: request, router: appRouter, createContext, maxBatchSize: TRPC_MAX_BATCH });
}
