import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from './http';
import { BlockedTargetError, checkAddress } from './safety';

const production = { allowLoopback: false, allowed: [] };

describe('outbound address policy', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.10', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
  ])('refuses %s (%s) in production', (address, kind) => {
    expect(() => checkAddress(address, production)).toThrow(BlockedTargetError);
    expect(() => checkAddress(address, production)).toThrow(kind);
  });

  it('allows public unicast addresses, loopback outside production, and WEBHOOK_ALLOWED_CIDRS', async () => {
    const ipaddr = (await import('ipaddr.js')).default;
    expect(() => checkAddress('93.184.215.14', production)).not.toThrow();
    expect(() => checkAddress('2606:2800:220:1::1', production)).not.toThrow();
    expect(() => checkAddress('127.0.0.1', { allowLoopback: true, allowed: [] })).not.toThrow();
    const opened = { allowLoopback: false, allowed: [ipaddr.parseCIDR('10.20.0.0/16')] };
    expect(() => checkAddress('10.20.3.4', opened)).not.toThrow();
    expect(() => checkAddress('10.21.0.1', opened)).toThrow(BlockedTargetError);
  });
});

describe('postJson', () => {
  let server: http.Server;
  let base: string;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits++;
      if (req.url === '/slow') setTimeout(() => res.end('late'), 2_000);
      else if (req.url === '/big') res.end('x'.repeat(2 * 1024 * 1024));
      else res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  it('checks the address actually dialled: a name resolving to a private address is never called', async () => {
    const port = new URL(base).port;
    const before = hits;
    const resolver = async () => ['10.9.8.7'];
    const res = await postJson(`http://hooks.example:${port}/x`, {}, '{}', { timeoutMs: 2_000, resolver });
    expect(res).toMatchObject({ ok: false, blocked: true, statusCode: null });
    expect(!res.ok && res.error).toContain('10.9.8.7');
    expect(hits).toBe(before);
    // The same name resolving to loopback (allowed outside production) is dialled.
    const ok = await postJson(`http://hooks.example:${port}/x`, {}, '{}', { timeoutMs: 2_000, resolver: async () => ['127.0.0.1'] });
    expect(ok).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('times out, and refuses answers over the size cap', async () => {
    const slow = await postJson(`${base}/slow`, {}, '{}', { timeoutMs: 300 });
    expect(slow).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 0.3 s' });
    const big = await postJson(`${base}/big`, {}, '{}', { timeoutMs: 5_000 });
    expect(big).toMatchObject({ ok: false, statusCode: 200 });
    expect(!big.ok && big.error).toContain('larger than');
  });
});
