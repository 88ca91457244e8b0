/** The one error class of the service layer; each transport maps `code` once (problem+json, TRPCError). */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  webhook_failed: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldError = { path: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];

  constructor(code: ErrorCode, message: string, errors?: FieldError[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.errors = errors;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const invalidField = (path: string, message: string) =>
  new AppError('invalid_request', 'The request is invalid', [{ path, message }]);
export const conflict = (message: string, path?: string) =>
  new AppError('conflict', message, path ? [{ path, message }] : undefined);
export const forbidden = (message = 'You may not do this') => new AppError('forbidden', message);

/** Unique-violation from either driver (postgres.js or PGlite), with the constraint name when known. */
export function uniqueViolation(e: unknown): string | undefined {
  const err = e as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown } | null;
  if (!err || typeof err !== 'object') return undefined;
  if (err.code === '23505') return err.constraint_name ?? err.constraint ?? '';
  return err.cause ? uniqueViolation(err.cause) : undefined;
}
