import { z } from 'zod';
import type { AppError } from '@/server/errors';
import { answerJson } from '@/server/core/answer';

const TITLES: Record<string, string> = {
  invalid_request: 'Invalid request',
  unauthenticated: 'Unauthenticated',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  method_not_allowed: 'Method not allowed',
  webhook_failed: 'Webhook failed',
  unavailable: 'Service unavailable',
  internal: 'Internal server error',
};

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.enum(Object.keys(TITLES) as [string, ...string[]]),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    requestId: z.string(),
  })
  .meta({ id: 'Problem' });

/** The problem+json document for `err` (RFC 9457; CONTRACT 1). */
export function problemBody(err: AppError, requestId: string) {
  return {
    type: `https://carebase.dev/problems/${err.code.replace(/_/g, '-')}`,
    title: TITLES[err.code] ?? 'Error',
    status: err.status,
    code: err.code,
    detail: err.message,
    ...(err.errors?.length ? { errors: err.errors } : {}),
    requestId,
  };
}

export function problemResponse(err: AppError, requestId: string, extraHeaders?: HeadersInit): Response {
  const body = problemBody(err, requestId);
  const headers = new Headers(extraHeaders);
  if (err.retryAfter !== undefined) headers.set('retry-after', String(err.retryAfter));
  headers.set('content-type', 'application/problem+json');
  headers.set('x-request-id', requestId);
  return answerJson(body, { status: err.status, headers });
}
