import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startReceiver } from '@/server/testing/receiver';
import { apiClient, httpApiClient, newProject } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';

/**
 * The defects of issue 10 that only a client over HTTP meets, each tried the way it was found (every test
 * here failed before its fix), and the rules of CONTRACT 1 that go with them.
 */
let server: Awaited<ReturnType<typeof startHttpServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  server = await startHttpServer();
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function project() {
  const p = await newProject();
  return { ...p, http: httpApiClient(server.url, p.apiKey) };
}

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('bodies and methods over HTTP', () => {
  it('accepts a POST with no body, with or without Content-Length: 0, where the body is optional (defect 4)', async () => {
    const { http: api } = await project();
    const member = (await api.post('/member', { name: 'Token' })).body;
    const integration = (await api.get('/integration')).body[0];
    const webhook = (await api.post('/webhook', { display: 'W', url: `${receiver.url}/h`, triggers: [{ event: 'member_update' }] })).body;
    await api.patch(`/member/${member.id}`, { name: 'Token 2' });
    const delivery = (await api.get(`/webhook/${webhook.id}/delivery`)).body[0];
    const paths = [`/member/${member.id}/token`, `/webhook/${webhook.id}/secret/rotate`, `/webhook/${webhook.id}/delivery/${delivery.id}/retry`, `/integration/${integration.id}/key`];
    for (const path of paths) {
      const variants: Record<string, string>[] = [{}, { 'content-length': '0' }, { 'content-type': 'application/json', 'content-length': '0' }];
      for (const headers of variants) {
        const res = await api.call('POST', path, { headers });
        expect([200, 201], `${path} ${JSON.stringify(headers)}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
    }
    // A body that is there but not JSON is still 415.
    expect((await api.call('POST', `/member/${member.id}/token`, { rawBody: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('closes the connection after answering 413 before reading the body, so the next request on it works (defect 5)', async () => {
    const { apiKey } = await project();
    const agent = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 10_000 });
    try {
      const big = Buffer.alloc(3 * 1024 * 1024, 'a');
      const first = await request(`${server.url}/api/v1/member`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: big,
      });
      expect(first.statusCode).toBe(413);
      expect(first.headers.connection).toBe('close');
      await first.body.text();
      const started = Date.now();
      const second = await request(`${server.url}/api/v1/member`, { dispatcher: agent, headers: { authorization: `Bearer ${apiKey}` } });
      expect(second.statusCode).toBe(200);
      await second.body.text();
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await agent.close();
    }
  });

  it('names the origin the client called in Location and Link, not localhost (defect 6)', async () => {
    const { http: api } = await project();
    const created = await api.call('POST', '/member', { body: { name: 'Host' }, headers: { host: 'care.example.test' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`http://care.example.test/api/v1/member/${created.body.id}`);
    await api.post('/member', { name: 'Second' });
    const page = await api.call('GET', '/member', { query: { limit: 1 }, headers: { host: 'care.example.test:8443' } });
    expect(page.headers.get('link')).toMatch(/^<http:\/\/care\.example\.test:8443\/api\/v1\/member\?limit=1&cursor=[^>]+>; rel="next"$/);
    // Without CAREBASE_TRUST_PROXY a client's X-Forwarded-Host is not believed.
    const spoofed = await api.call('POST', '/member', { body: { name: 'Spoof' }, headers: { host: 'care.example.test', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers.get('location')).toBe(`http://care.example.test/api/v1/member/${spoofed.body.id}`);
  });

  it('answers unknown methods with 405 problem+json, Allow and X-Request-Id (defect 9)', async () => {
    const { http: api } = await project();
    for (const [method, path, allow] of [
      ['PUT', '/member', 'POST, GET'],
      ['DELETE', '/member', 'POST, GET'],
      ['POST', '/member/1', 'GET, PATCH, DELETE'],
      ['PUT', '/webhook/1/secret/rotate', 'POST'],
    ] as const) {
      const res = await api.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body).toMatchObject({ status: 405, code: 'method_not_allowed', requestId: res.headers.get('x-request-id') });
    }
    const unknown = await api.call('PATCH', '/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers paths that are not valid percent-encoded UTF-8 with 404 problem+json, not a bare 500, and stores nothing', async () => {
    const { http: api, apiKey } = await project();
    const before = (await api.get('/member')).body.length;
    for (const [method, path] of [
      ['GET', '/api/v1/member/%FF'],
      ['GET', '/api/v1/member/%ED%A0%80?x=1'],
      ['PATCH', '/api/v1/member/%E0%A4%A'],
      ['POST', '/api/v1/%FF/member'],
    ] as const) {
      const res = await request(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : JSON.stringify({ name: 'Never' }),
      });
      const body = (await res.body.json()) as Record<string, unknown>;
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(body).toMatchObject({ status: 404, code: 'not_found', requestId: res.headers['x-request-id'] });
      expect(String(body.detail)).toMatch(/percent-encoded/);
    }
    // A path that decodes goes on to its route as before.
    const spaced = await api.call('GET', '/member/a%20b');
    expect(spaced.status).toBe(404);
    expect(String(spaced.body.detail)).not.toMatch(/percent-encoded/);
    expect((await api.get('/member')).body.length).toBe(before);
  });
});

describe('values that cannot be stored', () => {
  it('refuses JSON nested deeper than 64 in the fields filter and in bodies, for any token, and keeps serving (defect 1)', async () => {
    const { http: api, apiKey } = await project();
    const member = (await api.post('/member', { name: 'Deep' })).body;
    const memberToken = (await api.post(`/member/${member.id}/token`)).body.token;
    for (const client of [api, httpApiClient(server.url, memberToken)]) {
      const res = await client.get('/record', { fields: `{"a":${deep(2000)}}` });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ path: expect.stringMatching(/^fields\.a(\.0)*$/), message: 'Nested deeper than 64 levels' });
    }
    const bodyRes = await api.post('/member', { name: 'M', meta: { x: JSON.parse(deep(2000)) } });
    expect(bodyRes.status).toBe(400);
    expect(bodyRes.body.errors[0].path).toMatch(/^meta\.x(\.0)*$/);
    // 64 levels are fine; the service answers as usual afterwards.
    expect((await api.get('/record', { fields: `{"a":${deep(60)}}` })).status).toBe(200);
    expect((await api.post('/member', { name: 'Fine', meta: { x: JSON.parse(deep(60)) } })).status).toBe(201);
    expect((await httpApiClient(server.url, apiKey).get('/member')).status).toBe(200);
  });

  it('refuses NUL and unpaired surrogates anywhere in a body or the query, naming the place (defect 7)', async () => {
    const { http: api } = await project();
    const nul = await api.call('POST', '/member', { rawBody: '{"name":"a\\u0000b","meta":{"k\\u0000":"v"}}', headers: { 'content-type': 'application/json' } });
    expect(nul.status).toBe(400);
    expect(nul.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['meta.k\uFFFD', 'name']);
    const surrogate = await api.call('POST', '/member', { rawBody: '{"name":"x","meta":{"s":"\\ud800"}}', headers: { 'content-type': 'application/json' } });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.errors).toEqual([{ path: 'meta.s', message: 'Contains an unpaired UTF-16 surrogate' }]);
    const inQuery = await api.get('/member', { search: 'a\u0000b' });
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.errors[0].path).toBe('search');
    const inFields = await api.get('/record', { fields: '{"a":"\\u0000"}' });
    expect(inFields.status).toBe(400);
    expect(inFields.body.errors[0].path).toBe('fields.a');
    expect((await api.get('/member')).body).toEqual([]);
  });

  it('lists at most 100 errors for a body with 60,000 unknown keys (defect 10)', async () => {
    const { http: api } = await project();
    const body = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 1]));
    const res = await api.post('/member', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(100);
    expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
  });

  it('answers 502 when a handle webhook answers null, an array, or JSON that cannot be stored, and stores nothing (defect 7)', async () => {
    const { http: api } = await project();
    await api.post('/webhook', { display: 'H', url: `${receiver.url}/handle-member`, triggers: [{ event: 'member_create', strategy: 'handle' }] });
    for (const answer of ['null', '[1]', '"text"', '{"a":"\\u0000"}', `{"a":${deep(100)}}`]) {
      receiver.setReply((r) => (r.path === '/handle-member' ? { body: answer } : {}));
      const res = await api.post('/member', { name: 'Handled' });
      expect(res.status, answer).toBe(502);
      expect(res.body.code).toBe('webhook_failed');
    }
    receiver.setReply((r) => (r.path === '/handle-member' ? { body: '{"id":77,"name":"From CRM"}' } : {}));
    expect((await api.post('/member', { name: 'Handled' })).body).toEqual({ id: 77, name: 'From CRM' });
    receiver.setReply(() => ({}));
    expect((await api.get('/member')).body).toEqual([]);
  });
});

describe('tRPC limits (defect 3)', () => {
  const trpc = (path: string, init?: RequestInit) => fetch(`${server.url}/api/trpc/${path}`, init);

  it('refuses more than 50 calls in one batch and bodies over 1 MiB with 413, running nothing', async () => {
    const fifty = Array.from({ length: 50 }, () => 'projects.mine').join(',');
    // Not signed in: each call answers UNAUTHORIZED, but the batch is accepted.
    const ok = await trpc(`${fifty}?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`);
    expect(ok.status).toBe(401);
    const tooMany = await trpc(`${fifty},projects.mine?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`);
    expect(tooMany.status).toBe(413);
    const big = await trpc('members.create?batch=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 0: { json: { name: 'x'.repeat(2 * 1024 * 1024) } } }) });
    expect(big.status).toBe(413);
    expect(big.headers.get('connection')).toBe('close');
  });
});

describe('health and readiness (CONTRACT 1)', () => {
  it('answers /api/health 200, and /api/ready with each part (503 naming the executor when none runs)', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // This test server moves no background work, so it is not ready, and says why.
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ database: 'ok', migrations: 'ok', executor: 'stopped' });
  });

  it('does not serve the benchmarks\' floor routes unless CAREBASE_BENCH_ROUTES is set', async () => {
    for (const path of ['/api/bench-floor/fixed', '/api/bench-floor/records?type=profile&actorId=1']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });
});

describe('in process and over HTTP agree', () => {
  it('answers the same status for the same bad inputs', async () => {
    const { apiKey } = await project();
    const inProcess = apiClient(apiKey);
    const overHttp = httpApiClient(server.url, apiKey);
    for (const [method, path, opts] of [
      ['POST', '/member', { rawBody: '', headers: {} }],
      ['POST', '/member', { rawBody: '{}', headers: { 'content-type': 'text/plain' } }],
      ['GET', '/member', { query: { limit: 5000 } }],
      ['GET', '/record', { query: { fields: '[1]' } }],
    ] as const) {
      const a = await inProcess.call(method, path, opts);
      const b = await overHttp.call(method, path, opts);
      expect(b.status, `${method} ${path}`).toBe(a.status);
    }
  });
});

