import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { remembered } from '@/server/core/remembered';
import { getEnv, type Cidr } from '@/server/env';

/**
 * Outbound safety (CONTRACT 7) for every address the server itself calls: webhook targets, integration
 * endpoints, identity provider issuers and every endpoint their discovery documents name. Only public
 * unicast addresses may be dialled, unless WEBHOOK_ALLOWED_CIDRS opens a range (and loopback outside
 * production). The address actually dialled is the one checked, so DNS rebinding cannot slip through.
 */
export type Resolver = (hostname: string) => Promise<string[]>;

export class BlockedTargetError extends Error {
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`Refused to call ${address}: ${reason}`);
    this.name = 'BlockedTargetError';
  }
}

export const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export type Policy = { allowLoopback: boolean; allowed: Cidr[] };

let cachedPolicy: Policy | undefined;
export function outboundPolicy(): Policy {
  if (cachedPolicy) return cachedPolicy;
  const env = getEnv();
  cachedPolicy = { allowLoopback: !env.isProduction, allowed: env.WEBHOOK_ALLOWED_CIDRS };
  return cachedPolicy;
}

const v4 = (hi: number, lo: number) => ipaddr.IPv4.parse(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that route to it: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated but still parsed by stacks), 6to4
 * (2002:AABB:CCDD::/16) and the NAT64 well-known prefix (64:ff9b::/96).
 */
export function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zeros(0, 6) && !(p[6] === 0 && p[7]! <= 1)) return v4(p[6]!, p[7]!); // not :: or ::1
  if (p[0] === 0x2002) return v4(p[1]!, p[2]!);
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return v4(p[6]!, p[7]!);
  return null;
}

/** Refuses an address the policy does not allow; IPv6 forms that embed an IPv4 address are judged by it. */
export function checkAddress(address: string, policy: Policy = outboundPolicy()): void {
  if (!ipaddr.isValid(address)) throw new BlockedTargetError(address, 'not an IP address');
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const inner = embeddedIPv4(ip as ipaddr.IPv6);
    if (inner) {
      try {
        checkAddress(inner.toString(), policy);
        return;
      } catch (e) {
        if (e instanceof BlockedTargetError) throw new BlockedTargetError(address, `it embeds ${inner.toString()}: ${e.message.replace(/^Refused to call [^:]+: /, '')}`);
        throw e;
      }
    }
  }
  for (const [range, bits] of policy.allowed) {
    if (range.kind() === ip.kind() && ip.match(range, bits)) return;
  }
  const kind = ip.range();
  if (kind === 'loopback' && policy.allowLoopback) return;
  if (kind !== 'unicast') throw new BlockedTargetError(address, `${kind} addresses are not allowed`);
}

/** Resolves a URL's host and checks every address it may dial (at registration: a clear 400). */
export async function checkUrlTarget(url: URL, resolver: Resolver = systemResolver): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedTargetError(url.protocol, 'only http and https are called');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [host]
    : await resolver(host).catch(() => {
        throw new BlockedTargetError(host, 'the host name does not resolve');
      });
  if (addresses.length === 0) throw new BlockedTargetError(host, 'the host name does not resolve');
  for (const a of addresses) checkAddress(a);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A socket `lookup` that refuses non-public addresses: the address dialled is the address checked. */
export function filteringLookup(resolver: Resolver = systemResolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolver(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new BlockedTargetError(hostname, 'the host name does not resolve');
        for (const a of addresses) checkAddress(a);
        const list = addresses.map((address) => ({ address, family: net.isIP(address) }));
        if (options.all) callback(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      })
      .catch((e: NodeJS.ErrnoException) => callback(e, ''));
  };
}

/**
 * Hosts already judged: null when allowed (or not an IP literal), else why not. The policy is fixed for
 * the process, and a webhook's host is checked on every delivery; parsing it each time was 2 % of the
 * executor's CPU. At most 1,000 hosts are kept.
 */
const literalVerdicts = new Map<string, { address: string; reason: string } | null>();

function judgeLiteralHost(hostname: string): { address: string; reason: string } | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  try {
    if (net.isIP(host)) checkAddress(host);
    return null;
  } catch (e) {
    if (!(e instanceof BlockedTargetError)) throw e;
    return { address: e.address, reason: e.reason };
  }
}

/** Sockets skip `lookup` for IP literals, so those are checked before dialling. */
export function checkLiteralHost(url: URL): void {
  const verdict = remembered(literalVerdicts, url.hostname, () => judgeLiteralHost(url.hostname));
  // A new error each time, so its stack is the caller's.
  if (verdict) throw new BlockedTargetError(verdict.address, verdict.reason);
}

let guardedAgent: Agent | undefined;

/**
 * `fetch` under the outbound policy, for libraries that call out on our behalf (Auth.js fetches an
 * identity provider's discovery document, JWKS, token and userinfo endpoints through this): every
 * connection goes through the filtering lookup, IP literals are checked first, redirects are not
 * followed, and a request never takes longer than 10 s.
 */
export const guardedFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedTargetError(url.protocol, 'only http and https are called');
  checkLiteralHost(url);
  guardedAgent ??= new Agent({ connect: { lookup: filteringLookup(), timeout: 10_000 }, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const request = input instanceof Request ? input : undefined;
  const response = await undiciFetch(url, {
    method: init?.method ?? request?.method,
    headers: Object.fromEntries(new Headers(init?.headers ?? request?.headers)),
    body: (init?.body ?? (request?.body ? await request.arrayBuffer() : undefined)) as never,
    redirect: 'manual',
    signal: init?.signal ?? AbortSignal.timeout(10_000),
    dispatcher: guardedAgent,
  });
  return response as unknown as Response;
};
