import { readBoundedBody } from '@/server/core/bounded-body';
import { unsafeJsonPlaces } from '@/server/core/json';
import { AppError, invalid } from '@/server/errors';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/json\s*(;.*)?$/i;

/** A parsed body: `value` undefined when none was sent; `bytes` what was sent (idempotency compares it). */
export type Body = { value: unknown; bytes: Buffer };

/**
 * An error answered before the request body was read to its end: the rest of the body is still on the
 * socket, so the connection must close with the answer (else the client's next request on it fails).
 */
export class UnreadBodyError extends AppError {}

const tooLarge = () => new UnreadBodyError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes`);
const unsupported = () => new AppError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');

/**
 * Reads and parses a JSON body (CONTRACT 1), at most 1 MiB. An empty
 * body is no body, whatever the headers say (`curl -X POST` with no data), so optional bodies may be left
 * out entirely. A body that is not declared JSON is 415; JSON that cannot be stored (nested deeper than
 * 64, NUL, unpaired surrogates) is 400 naming the place.
 */
export async function readJsonBody(req: Request): Promise<Body> {
  const type = req.headers.get('content-type');
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readBoundedBody(req, MAX_BODY_BYTES);
  if (bytes === null) throw tooLarge();
  if (bytes.length === 0) return { value: undefined, bytes };
  if (!type || !JSON_TYPE.test(type)) throw unsupported();
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { value: undefined, bytes };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalid_request', 'The body is not valid JSON', [{ path: '(body)', message: 'Invalid JSON' }]);
  }
  const unsafe = unsafeJsonPlaces(value);
  if (unsafe.length > 0) throw invalid(unsafe);
  return { value, bytes };
}
