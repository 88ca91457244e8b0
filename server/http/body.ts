import { AppError } from '@/server/errors';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/json\s*(;.*)?$/i;

/**
 * Reads and parses a JSON body. Route handlers have no size limit of their own, so we count bytes as
 * they stream in and stop at 1 MiB, whatever Content-Length claims.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  const type = req.headers.get('content-type');
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) {
    if (type && !JSON_TYPE.test(type)) throw unsupported();
    return undefined;
  }
  if (!type || !JSON_TYPE.test(type)) throw unsupported();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('invalid_request', 'The body is not valid JSON', [{ path: '(body)', message: 'Invalid JSON' }]);
  }
}

const tooLarge = () => new AppError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes`);
const unsupported = () =>
  new AppError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
