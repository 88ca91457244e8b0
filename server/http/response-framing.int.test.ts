import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { httpApiClient, newProject } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';

/**
 * How answers are framed on the wire (only a real HTTP server shows it). Route handlers' answers made with
 * server/core/answer.ts are written in one piece with their length by the patch to Next's send path
 * (patches/next+16.4.6.patch, decision 0014's twenty-third and thirty-ninth passes), on every Node the app
 * runs on; any other Response goes Next's own way. Compression for clients that ask for it must still apply.
 */
let server: Awaited<ReturnType<typeof startHttpServer>>;
const agent = new Agent({ keepAliveTimeout: 10_000 });
beforeAll(async () => {
  server = await startHttpServer();
}, 120_000);
afterAll(async () => {
  await agent.close();
  await server.close();
});

async function raw(path: string, apiKey: string, opts: { method?: 'GET' | 'POST' | 'HEAD'; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await request(`${server.url}/api/v1${path}`, {
    method: opts.method ?? 'GET',
    dispatcher: agent,
    headers: { authorization: `Bearer ${apiKey}`, ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, bytes };
}

describe('answers on the wire', () => {
  it('sends a JSON answer with its length in bytes, not chunked, for reads, creates and problems', async () => {
    const { apiKey } = await newProject();
    // Multi-byte characters: the length must count bytes, not UTF-16 units.
    const created = await raw('/member', apiKey, { method: 'POST', body: { name: 'Zoë Ångström 🌸' } });
    expect(created.status).toBe(201);
    const member = JSON.parse(created.bytes.toString('utf8'));
    expect(member.name).toBe('Zoë Ångström 🌸');
    const read = await raw(`/member/${member.id}`, apiKey);
    const problem = await raw('/member/999999999', apiKey);
    expect(read.status).toBe(200);
    expect(problem.status).toBe(404);
    expect(problem.headers['content-type']).toBe('application/problem+json');
    for (const answer of [created, read, problem]) {
      expect(answer.headers['transfer-encoding']).toBeUndefined();
      expect(Number(answer.headers['content-length'])).toBe(answer.bytes.length);
      expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    }
    // A length counted in characters would be short.
    expect(read.bytes.length).toBeGreaterThan(read.bytes.toString('utf8').length);
    expect(JSON.parse(read.bytes.toString('utf8')).name).toBe('Zoë Ångström 🌸');
  });

  it('still compresses a large answer for a client that accepts gzip, and leaves small ones as they are', async () => {
    const { apiKey } = await newProject();
    const api = httpApiClient(server.url, apiKey);
    for (let i = 0; i < 30; i++) await api.post('/member', { name: `Member number ${i} with a name long enough to matter` });
    const plain = await raw('/member?limit=100', apiKey);
    expect(plain.bytes.length).toBeGreaterThan(2048);
    const gzipped = await raw('/member?limit=100', apiKey, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-length']).toBeUndefined();
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length);
    expect(JSON.parse(gunzipSync(gzipped.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    // Under the 1 KiB threshold: sent as is, with its length.
    const small = await raw('/member/999999999', apiKey, { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(Number(small.headers['content-length'])).toBe(small.bytes.length);
  });

  it('leaves a Response made elsewhere (tRPC\'s) to Next\'s own path: streamed, chunked', async () => {
    const res = await request(`${server.url}/api/trpc/projects.mine?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`, { dispatcher: agent });
    const text = await res.body.text();
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(text)[0].error.json.data.code).toBe('UNAUTHORIZED');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    // The openapi document, which the app makes with answer(): one piece, with its length.
    const doc = await request(`${server.url}/api/v1/openapi.json`, { dispatcher: agent });
    const bytes = Buffer.from(await doc.body.arrayBuffer());
    expect(doc.headers['content-type']).toBe('application/json');
    expect(Number(doc.headers['content-length'])).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).openapi).toMatch(/^3\./);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { apiKey } = await newProject();
    const head = await raw('/member', apiKey, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
  });
});
