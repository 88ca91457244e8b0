import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from './http';
import { BlockedTargetError, checkAddress, guardedFetch } from './safety';

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

  it.each([
    ['::7f00:2', '127.0.0.2', 'IPv4-compatible'],
    ['::a9fe:a9fe', '169.254.169.254', 'IPv4-compatible'],
    ['::ffff:169.254.169.254', '169.254.169.254', 'IPv4-mapped'],
    ['2002:a9fe:a9fe::1', '169.254.169.254', '6to4'],
    ['2002:7f00:2::', '127.0.0.2', '6to4'],
    ['64:ff9b::a00:1', '10.0.0.1', 'NAT64'],
    ['64:ff9b::7f00:1', '127.0.0.1', 'NAT64'],
  ])('judges %s by the IPv4 address it embeds (%s, %s) (defect 2)', (address, inner) => {
    expect(() => checkAddress(address, production)).toThrow(`it embeds ${inner}`);
  });

  it('allows IPv6 forms embedding a public IPv4 address, and refuses Teredo and local NAT64 wholesale', () => {
    expect(() => checkAddress('2002:5db8:d70e::1', production)).not.toThrow(); // 6to4 of 93.184.215.14
    expect(() => checkAddress('64:ff9b::5db8:d70e', production)).not.toThrow();
    expect(() => checkAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2', production)).toThrow(BlockedTargetError);
    expect(() => checkAddress('64:ff9b:1::a00:1', production)).toThrow(BlockedTargetError);
  });

  it('refuses 127.0.0.2 in production even where loopback is opened for 127.0.0.1 only', async () => {
    const ipaddr = (await import('ipaddr.js')).default;
    const e2e = { allowLoopback: false, allowed: [ipaddr.parseCIDR('127.0.0.1/32')] };
    expect(() => checkAddress('127.0.0.1', e2e)).not.toThrow();
    expect(() => checkAddress('127.0.0.2', e2e)).toThrow(BlockedTargetError);
    expect(() => checkAddress('::7f00:2', e2e)).toThrow(BlockedTargetError);
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
      else if (req.url === '/drip') {
        // Headers at once, then a byte every 100 ms for 3 s: no idle gap, so only the total limit stops it.
        res.writeHead(200);
        const drip = setInterval(() => res.write('x'), 100);
        setTimeout(() => (clearInterval(drip), res.end()), 3_000);
        res.on('close', () => clearInterval(drip));
      }
      else if (req.url === '/big') res.end('x'.repeat(2 * 1024 * 1024));
      else if (req.url === '/moved') res.writeHead(302, { location: `${base}/x` }).end('moved');
      else if (req.url?.startsWith('/hints')) {
        // An informational answer first (103 Early Hints), then the final one.
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        res.writeHead(503, { 'retry-after': '7' }).end(`busy ${req.url}`);
      } else res.end('{"ok":true}');
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

  it('refuses an IP literal host on every call, not only the first (the verdict is kept per host), and allows a loopback one', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await postJson('http://169.254.169.254/latest/meta-data/', {}, '{}', { timeoutMs: 2_000 });
      expect(refused).toMatchObject({ ok: false, blocked: true, statusCode: null });
      expect(!refused.ok && refused.error).toContain('linkLocal');
      const embedded = await postJson('http://[::ffff:10.0.0.1]:8080/x', {}, '{}', { timeoutMs: 2_000 });
      expect(!embedded.ok && embedded.error).toContain('it embeds 10.0.0.1');
    }
    const before = hits;
    for (let i = 0; i < 2; i++) expect(await postJson(`${base}/ok`, {}, '{}', { timeoutMs: 2_000 })).toMatchObject({ ok: true, statusCode: 200 });
    expect(hits - before).toBe(2);
  });

  it('times out, and cuts answers at the read cap without counting them as failures (CONTRACT 7)', async () => {
    const slow = await postJson(`${base}/slow`, {}, '{}', { timeoutMs: 300 });
    expect(slow).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 0.3 s' });
    // The limit is on the whole call: an answer that keeps dripping is cut off at it too.
    const drip = await postJson(`${base}/drip`, {}, '{}', { timeoutMs: 500 });
    expect(drip).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 0.5 s' });
    expect(drip.durationMs).toBeLessThan(1_500);
    const big = await postJson(`${base}/big`, {}, '{}', { timeoutMs: 5_000 });
    expect(big).toMatchObject({ ok: true, statusCode: 200, truncated: true });
    expect(big.ok && big.body.length).toBe(1024 * 1024);
    // The connection is not reused for the answer it did not finish reading; the next call still works.
    expect(await postJson(`${base}/x`, {}, '{}', { timeoutMs: 2_000 })).toMatchObject({ ok: true, statusCode: 200, body: '{"ok":true}' });
  });

  it('does not follow redirects, reads the final answer after a 1xx, and reports refused connections', async () => {
    const before = hits;
    const moved = await postJson(`${base}/moved`, {}, '{}', { timeoutMs: 2_000 });
    expect(moved).toMatchObject({ ok: false, statusCode: 302, error: 'redirect (302) not followed', body: 'moved' });
    expect(hits).toBe(before + 1);
    const hinted = await postJson(`${base}/hints?attempt=1`, {}, '{}', { timeoutMs: 2_000 });
    expect(hinted).toMatchObject({ ok: false, statusCode: 503, error: 'HTTP 503', body: 'busy /hints?attempt=1' });
    expect(!hinted.ok && hinted.headers?.['retry-after']).toBe('7');
    // A port nothing listens on: the connection is refused, and said so.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refused = await postJson(`http://127.0.0.1:${port}/x`, {}, '{}', { timeoutMs: 2_000 });
    expect(refused).toMatchObject({ ok: false, statusCode: null, blocked: false });
    expect(!refused.ok && refused.error).toContain('ECONNREFUSED');
  });
});

describe('guardedFetch (identity provider calls, defect 2)', () => {
  it('never connects to a refused address: metadata service, private ranges, embedded forms, other schemes', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::a9fe:a9fe]/', 'http://10.0.0.1/.well-known/openid-configuration', 'file:///etc/passwd']) {
      await expect(guardedFetch(url)).rejects.toBeInstanceOf(BlockedTargetError);
    }
  });

  it('fetches from an allowed address and does not follow redirects', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"issuer":"x"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await guardedFetch(`${base}/.well-known/openid-configuration`)).json()).toEqual({ issuer: 'x' });
      const redirected = await guardedFetch(`${base}/redirect`);
      expect(redirected.status).toBe(302);
    } finally {
      server.close();
    }
  });
});
