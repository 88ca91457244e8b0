/**
 * The client's address, for limits on failed authentication: the last `X-Forwarded-For` entry, which is
 * the address the nearest trusted hop saw. Client-sent forwarding headers are removed where requests
 * enter the process unless CAREBASE_TRUST_PROXY is set, and Next then fills the header from the socket.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for');
  const last = forwarded?.split(',').at(-1)?.trim();
  return last ? last.replace(/^::ffff:/, '') : 'unknown';
}
