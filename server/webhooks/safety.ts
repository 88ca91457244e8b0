import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { getEnv } from '@/server/env';

export type Resolver = (hostname: string) => Promise<string[]>;

export class BlockedTargetError extends Error {
  constructor(readonly address: string, reason: string) {
    super(`Refused to call ${address}: ${reason}`);
    this.name = 'BlockedTargetError';
  }
}

export const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

type Policy = { allowLoopback: boolean; allowed: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

let cachedPolicy: Policy | undefined;
export function outboundPolicy(): Policy {
  if (cachedPolicy) return cachedPolicy;
  const env = getEnv();
  cachedPolicy = {
    allowLoopback: !env.isProduction,
    allowed: env.WEBHOOK_ALLOWED_CIDRS.map((c) => ipaddr.parseCIDR(c)),
  };
  return cachedPolicy;
}

/**
 * Only public unicast addresses may be called: loopback, private, link-local, multicast, reserved,
 * carrier-grade NAT and the rest are refused, unless WEBHOOK_ALLOWED_CIDRS opens them (and loopback
 * outside production). IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function checkAddress(address: string, policy: Policy = outboundPolicy()): void {
  if (!ipaddr.isValid(address)) throw new BlockedTargetError(address, 'not an IP address');
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  for (const [range, bits] of policy.allowed) {
    if (range.kind() === ip.kind() && ip.match(range, bits)) return;
  }
  const kind = ip.range();
  if (kind === 'loopback' && policy.allowLoopback) return;
  if (kind !== 'unicast') throw new BlockedTargetError(address, `${kind} addresses are not allowed`);
}

/** Resolves a URL's host and checks every address it may dial (used at registration). */
export async function checkUrlTarget(url: URL, resolver: Resolver = systemResolver): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [host] : await resolver(host).catch(() => {
    throw new BlockedTargetError(host, 'the host name does not resolve');
  });
  if (addresses.length === 0) throw new BlockedTargetError(host, 'the host name does not resolve');
  for (const a of addresses) checkAddress(a);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the socket: the address actually dialled is the one checked, so DNS rebinding between
 * a check and the connection cannot slip through.
 */
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
