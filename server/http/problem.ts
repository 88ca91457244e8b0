import { z } from 'zod';
import { AppError, type FieldError } from '@/server/errors';

const TITLES: Record<string, string> = {
  invalid_request: 'Invalid request',
  unauthenticated: 'Unauthenticated',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  conflict: 'Conflict',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  webhook_failed: 'Webhook failed',
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

/** Zod issues as `{path, message}` with dotted paths (`fields.value`, `triggers.0.event`). */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.flatMap((issue) => {
    const base = [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: base ? `${base}.${key}` : key,
        message: 'Unknown field',
      }));
    }
    return [{ path: base || (prefix ?? '(body)'), message: issue.message }];
  });
}

export function toAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof z.ZodError) return new AppError('invalid_request', 'The request is invalid', fieldErrors(e));
  return new AppError('internal', 'Something went wrong on our side; the request id identifies it in our logs');
}

export function problemResponse(err: AppError, requestId: string, extraHeaders?: HeadersInit): Response {
  const body = {
    type: `https://carebase.dev/problems/${err.code.replace(/_/g, '-')}`,
    title: TITLES[err.code] ?? 'Error',
    status: err.status,
    code: err.code,
    detail: err.message,
    ...(err.errors?.length ? { errors: err.errors } : {}),
    requestId,
  };
  const headers = new Headers(extraHeaders);
  headers.set('content-type', 'application/problem+json');
  headers.set('x-request-id', requestId);
  return new Response(JSON.stringify(body), { status: err.status, headers });
}
