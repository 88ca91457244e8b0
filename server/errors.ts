import type { z } from 'zod';
// Zod's messages in words for people, for every schema parsed anywhere (server and browser).
import './core/zod-messages';

/** The one error class of the service layer; each transport maps `code` once (problem+json, TRPCError). */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  webhook_failed: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldError = { path: string; message: string };

/** CONTRACT 1: validation errors list every failing field, at most this many. */
export const MAX_FIELD_ERRORS = 100;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  /** Seconds a client should wait before trying again (429, 503). */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, errors?: FieldError[], options: { retryAfter?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.errors = errors?.slice(0, MAX_FIELD_ERRORS);
    this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const invalid = (errors: FieldError[]) => new AppError('invalid_request', 'The request is invalid', errors);
export const invalidField = (path: string, message: string) => invalid([{ path, message }]);
export const conflict = (message: string, path?: string) =>
  new AppError('conflict', message, path ? [{ path, message }] : undefined);
export const forbidden = (message = 'You may not do this') => new AppError('forbidden', message);
export const unavailable = (message: string, retryAfter = 1, cause?: unknown) => new AppError('unavailable', message, undefined, { retryAfter, cause });

/** Zod issues as `{path, message}` with dotted paths (`fields.value`, `triggers.0.event`), at most 100. */
export function zodFieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const base = [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== '').join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: base ? `${base}.${key}` : key, message: 'Unknown field' });
        if (out.length >= MAX_FIELD_ERRORS) return out;
      }
    } else out.push({ path: base || (prefix ?? '(body)'), message: issue.message });
    if (out.length >= MAX_FIELD_ERRORS) return out;
  }
  return out;
}

/** Unique-violation from either driver (postgres.js or PGlite), with the constraint name when known. */
export function uniqueViolation(e: unknown): string | undefined {
  const err = e as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown } | null;
  if (!err || typeof err !== 'object') return undefined;
  if (err.code === '23505') return err.constraint_name ?? err.constraint ?? '';
  return err.cause ? uniqueViolation(err.cause) : undefined;
}

/** Foreign-key violation from either driver: a row still refers to the one being deleted. */
export function foreignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  return err.code === '23503' || (err.cause !== undefined && foreignKeyViolation(err.cause));
}

/**
 * What may be written to a log about an error: its class, SQLSTATE, the parameterised SQL text and the
 * stack frames, never a message from the database or a driver (they carry values: a failed query's
 * parameters, the key of a duplicate, the text that did not parse). Member names, `meta` and record
 * fields therefore never reach the log; the request id ties the line to the request.
 */
export function errorSummary(e: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 4 && !seen.has(cur); depth++) {
    seen.add(cur);
    const err = cur as { name?: string; code?: unknown; query?: unknown; stack?: string; cause?: unknown; message?: string };
    const fromDatabase = typeof err.query === 'string' || typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code);
    let line = err.name ?? 'Error';
    if (typeof err.code === 'string' || typeof err.code === 'number') line += ` code=${String(err.code)}`;
    if (typeof err.query === 'string') line += ` sql=${JSON.stringify(err.query.replace(/\s+/g, ' ').slice(0, 500))}`;
    // Our own errors (AppError) carry messages we wrote; anything else may echo input.
    if (err instanceof AppError) line += `: ${err.message}`;
    else if (!fromDatabase && err instanceof TypeError) line += ' (TypeError)';
    const frames = (err.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at ')).slice(0, 8);
    parts.push([line, ...frames].join('\n'));
    cur = err.cause;
  }
  return parts.join('\ncaused by ') || String(typeof e);
}

/** SQLSTATEs and driver codes meaning "the database is not available right now": retry later. */
const UNAVAILABLE_SQLSTATE = /^(57014|55P03|57P0[1-4]|53\d\d\d|08\d\d\d|40001|40P01)$/;
const UNAVAILABLE_DRIVER = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'CARBASE_DB_RESTARTING',
]);

/**
 * What a failure from the database means for the client, found on the error or its causes (drizzle wraps
 * driver errors): `unavailable` for time limits, lock waits, terminated or unreachable backends, deadlocks
 * and a restarting embedded database (503, nothing was changed: the transaction rolled back); `invalid`
 * for a value the database refused (class 22: a safety net behind input validation, which should have
 * refused it first); undefined for anything else.
 */
export function databaseFailure(e: unknown): 'unavailable' | 'invalid' | undefined {
  const seen = new Set<unknown>();
  for (let cur = e; cur && typeof cur === 'object' && !seen.has(cur); cur = (cur as { cause?: unknown }).cause) {
    seen.add(cur);
    const code = (cur as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (UNAVAILABLE_DRIVER.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return 'unavailable';
    if (/^22[0-9A-Z]{3}$/.test(code)) return 'invalid';
  }
  return undefined;
}

/**
 * Any thrown value as an AppError, the same way for every transport: our own errors as they are, zod
 * errors as 400 with their fields, database unavailability as 503 with Retry-After, a value the database
 * refused as 400, and anything else as a bare 500 that shows nothing of its cause.
 */
export function asAppError(e: unknown, statementTimeoutMs = 10_000): AppError {
  if (e instanceof AppError) return e;
  if (e && typeof e === 'object' && (e as { name?: string }).name === 'ZodError') {
    return invalid(zodFieldErrors(e as z.ZodError));
  }
  switch (databaseFailure(e)) {
    case 'unavailable':
      return unavailable('The database is busy or unreachable; nothing was changed. Try again shortly.', Math.max(1, Math.ceil(statementTimeoutMs / 1000)), e);
    case 'invalid':
      return new AppError('invalid_request', 'A value in the request cannot be stored', undefined, { cause: e });
    case undefined:
      return new AppError('internal', 'Something went wrong on our side; the request id identifies it in our logs', undefined, { cause: e });
  }
}

/** Exclusion-constraint violation from either driver (an appointment overlapping a booked one). */
export function exclusionViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  return err.code === '23P01' || (err.cause !== undefined && exclusionViolation(err.cause));
}
