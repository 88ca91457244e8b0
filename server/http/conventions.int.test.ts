import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, httpApiClient, newProject as newProjectInProcess, type ApiClient } from '@/server/testing/api';
import { startHttpServer } from '@/server/testing/http-server';

/**
 * CONTRACT 1 and 2, run twice: through the route table in process, and over real HTTP against the
 * production build (Next's own request handling once hid a 415 that the in-process dispatcher could not).
 */
let server: Awaited<ReturnType<typeof startHttpServer>>;
beforeAll(async () => {
  server = await startHttpServer();
}, 120_000);
afterAll(() => server.close());

const transports: [string, () => { client: (token: string | undefined) => ApiClient; origin: string }][] = [
  ['in process', () => ({ client: apiClient, origin: 'http://carebase.test' })],
  ['over HTTP', () => ({ client: (token) => httpApiClient(server.url, token), origin: server.url })],
];

describe.each(transports)('%s', (_name, transport) => {
const client = (token: string | undefined) => transport().client(token);
const newProject = async () => {
  const project = await newProjectInProcess();
  return { ...project, api: client(project.apiKey) };
};

const expectProblem = (res: { status: number; headers: Headers; body: any }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
};

describe('authentication (CONTRACT 2)', () => {
  it('refuses missing, malformed and unknown tokens with 401', async () => {
    expectProblem(await client(undefined).get('/member'), 401, 'unauthenticated');
    expectProblem(await client('short').get('/member'), 401, 'unauthenticated');
    expectProblem(await client('cb_key_doesnotexistdoesnotexistdoesnotexist').get('/member'), 401, 'unauthenticated');
    const { api } = await newProject();
    const basic = await api.call('GET', '/member', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectProblem(basic, 401, 'unauthenticated');
  });

  it('refuses a token in the query string even beside a valid header', async () => {
    const { api, apiKey } = await newProject();
    for (const name of ['access_token', 'token', 'apiKey']) {
      expectProblem(await api.get('/member', { [name]: apiKey }), 401, 'unauthenticated');
    }
    expect((await api.get('/member')).status).toBe(200);
  });

  it('stops accepting a revoked key at once', async () => {
    const { api } = await newProject();
    const [integration] = (await api.get('/integration')).body;
    const created = await api.post(`/integration/${integration.id}/key`);
    expect(created.status).toBe(201);
    const second = client(created.body.key);
    expect((await second.get('/member')).status).toBe(200);
    expect((await api.del(`/integration/${integration.id}/key/${created.body.id}`)).status).toBe(204);
    expectProblem(await second.get('/member'), 401, 'unauthenticated');
  });

  it('checks projectId against the token: 403 for another project', async () => {
    const a = await newProject();
    const b = await newProject();
    expect((await a.api.get('/member', { projectId: a.projectId })).status).toBe(200);
    expectProblem(await a.api.get('/member', { projectId: b.projectId }), 403, 'forbidden');
  });

  it('answers 404, never 403, for a resource of another project', async () => {
    const a = await newProject();
    const b = await newProject();
    const member = (await b.api.post('/member', { name: 'Bea' })).body;
    expectProblem(await a.api.get(`/member/${member.id}`), 404, 'not_found');
    expectProblem(await a.api.patch(`/member/${member.id}`, { name: 'X' }), 404, 'not_found');
    expectProblem(await a.api.del(`/member/${member.id}`), 404, 'not_found');
    expect((await b.api.get(`/member/${member.id}`)).body.name).toBe('Bea');
  });

  it('evaluates actorId: unknown actor 400, member tokens may only name themselves', async () => {
    const { api } = await newProject();
    const m1 = (await api.post('/member', { name: 'One' })).body;
    const m2 = (await api.post('/member', { name: 'Two' })).body;
    const res = await api.get('/record', { actorId: 999999 });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors[0].path).toBe('actorId');
    const other = await newProject();
    const foreign = (await other.api.post('/member', { name: 'Else' })).body;
    expectProblem(await api.get('/record', { actorId: foreign.id }), 400, 'invalid_request');

    const token = (await api.post(`/member/${m1.id}/token`)).body.token as string;
    const asMember = client(token);
    expect((await asMember.get('/record', { actorId: m1.id })).status).toBe(200);
    expectProblem(await asMember.get('/record', { actorId: m2.id }), 403, 'forbidden');
  });
});

describe('request conventions (CONTRACT 1)', () => {
  it('answers 415 for a body that is not declared JSON, and stores nothing', async () => {
    const { api } = await newProject();
    const res = await api.call('POST', '/member', { rawBody: '{"name":"X"}', headers: { 'content-type': 'text/plain' } });
    expectProblem(res, 415, 'unsupported_media_type');
    const none = await api.call('POST', '/member', { rawBody: '{"name":"X"}' });
    expectProblem(none, 415, 'unsupported_media_type');
    const withCharset = await api.call('POST', '/member', {
      rawBody: '{"name":"X"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(withCharset.status).toBe(201);
    expect((await api.get('/member')).body).toHaveLength(1);
  });

  it('answers 413 for bodies over 1 MiB and stores nothing', async () => {
    const { api } = await newProject();
    const big = JSON.stringify({ name: 'Big', meta: { blob: 'x'.repeat(1024 * 1024) } });
    expectProblem(await api.call('POST', '/member', { rawBody: big, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large');
    expect((await api.get('/member')).body).toHaveLength(0);
  });

  it('answers 400 for invalid JSON and names unknown and server-owned fields', async () => {
    const { api } = await newProject();
    expectProblem(await api.call('POST', '/member', { rawBody: '{nope', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    const res = await api.post('/member', { name: 'A', id: 5, projectId: 1, createdAt: 'x', colour: 'red' });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(['colour', 'createdAt', 'id', 'projectId']);
    const invalid = await api.post('/member', { email: 'not-an-email', role: '9bad' });
    expect(invalid.body.errors.map((e: any) => e.path).sort()).toEqual(['email', 'role']);
    expect((await api.get('/member')).body).toHaveLength(0);
  });

  it('answers 404 for ids that name nothing and for unknown routes', async () => {
    const { api } = await newProject();
    expectProblem(await api.get('/member/123456789'), 404, 'not_found');
    expectProblem(await api.get('/member/abc'), 404, 'not_found');
    expectProblem(await api.get('/member/0'), 404, 'not_found');
  });

  it('creates with 201 and Location, reads with 200, deletes with 204, and always sends X-Request-Id', async () => {
    const { api } = await newProject();
    const created = await api.post('/member', { name: 'Loc' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${transport().origin}/api/v1/member/${created.body.id}`);
    expect(created.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const read = await api.get(`/member/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(read.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const deleted = await api.del(`/member/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('x-request-id')).toBeTruthy();
  });

  it('rejects unknown query parameters', async () => {
    const { api } = await newProject();
    const res = await api.get('/member', { colour: 'red' });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors[0].path).toBe('colour');
  });
});

describe('pagination (CONTRACT 1)', () => {
  it('returns id-ordered pages with a signed cursor in Link', async () => {
    const { api } = await newProject();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post('/member', { name: `M${i}` })).body.id);
    const seen: number[] = [];
    let url: string | null = '/member?limit=2';
    let pages = 0;
    while (url) {
      const u: URL = new URL(url, `${transport().origin}/api/v1/`);
      expect(u.origin).toBe(transport().origin);
      const res = await api.get(u.pathname.replace('/api/v1', ''), Object.fromEntries(u.searchParams));
      expect(res.status).toBe(200);
      seen.push(...res.body.map((m: any) => m.id));
      const link = res.headers.get('link');
      url = link ? /<([^>]+)>; rel="next"/.exec(link)![1]! : null;
      pages++;
    }
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
    const all = await api.get('/member');
    expect(all.headers.get('link')).toBeNull();
  });

  it('refuses edited or foreign cursors and limits over 1000', async () => {
    const { api } = await newProject();
    for (let i = 0; i < 3; i++) await api.post('/member', { name: `M${i}` });
    const first = await api.get('/member', { limit: 1 });
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.get('link')!)![1]!).searchParams.get('cursor')!;
    expect((await api.get('/member', { limit: 1, cursor })).status).toBe(200);
    const [payload, mac] = cursor.split('.');
    const edited = Buffer.from(JSON.stringify({ r: '/member', a: 0 })).toString('base64url');
    expectProblem(await api.get('/member', { cursor: `${edited}.${mac}` }), 400, 'invalid_request');
    expectProblem(await api.get('/member', { cursor: `${payload}.AAAA` }), 400, 'invalid_request');
    expectProblem(await api.get('/member', { cursor: 'garbage' }), 400, 'invalid_request');
    expectProblem(await api.get('/integration', { cursor }), 400, 'invalid_request');
    expectProblem(await api.get('/member', { limit: 1001 }), 400, 'invalid_request');
    expect((await api.get('/member', { limit: 1000 })).status).toBe(200);
  });
});
});
