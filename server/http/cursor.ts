import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKey } from '@/server/core/crypto';
import { AppError } from '@/server/errors';

/**
 * Opaque, signed keyset cursors: `<payload>.<mac>`. The payload names the route it was issued for and the
 * last id served; the MAC makes an edited or foreign cursor a 400 instead of a silent wrong page.
 */
type CursorPayload = { r: string; a: number };

let key: Buffer | undefined;
const mac = (data: string) => createHmac('sha256', (key ??= derivedKey('cursor'))).update(data).digest('base64url');

export function encodeCursor(route: string, afterId: number): string {
  const payload = Buffer.from(JSON.stringify({ r: route, a: afterId } satisfies CursorPayload)).toString('base64url');
  return `${payload}.${mac(payload)}`;
}

export function decodeCursor(route: string, cursor: string): number {
  const bad = () =>
    new AppError('invalid_request', 'The cursor is not one this server issued for this list', [
      { path: 'cursor', message: 'Invalid cursor' },
    ]);
  const [payload, signature] = cursor.split('.');
  if (!payload || !signature) throw bad();
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorPayload;
    if (parsed.r !== route || !Number.isSafeInteger(parsed.a)) throw bad();
    return parsed.a;
  } catch {
    throw bad();
  }
}
