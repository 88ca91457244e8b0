import { getEnv } from '@/server/env';

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin clients called, for `Location` and `Link` (CONTRACT 1): CAREBASE_PUBLIC_URL when set, else
 * the forwarded host and protocol. The server strips client-sent `X-Forwarded-*` headers unless
 * CAREBASE_TRUST_PROXY is set (see installRequestEntryPolicy), and Next fills them from the request's
 * own `Host` and socket, so what is read here is either the proxy's word or the client's `Host`.
 */
export function publicOrigin(req: Request): string {
  const configured = getEnv().CAREBASE_PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const url = new URL(req.url);
  const host = first(req.headers.get('x-forwarded-host')) ?? req.headers.get('host');
  const proto = first(req.headers.get('x-forwarded-proto'));
  const scheme = proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1);
  return host && HOST.test(host) ? `${scheme}://${host}` : url.origin;
}

const first = (v: string | null) => v?.split(',')[0]?.trim() || undefined;
