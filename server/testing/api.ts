import { request as undiciRequest } from 'undici';
import { getDb } from '@/db/client';
import { createContext, type ServiceContext } from '@/server/context';
import { dispatch } from '@/server/http/routes';
import { createProject } from '@/server/services/projects/projects';

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T };

type CallOptions = { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; query?: Record<string, string | number> };
/** Sends one request and answers status, headers and raw text. */
type Send = (method: string, url: URL, headers: Record<string, string>, body: string | Buffer | undefined) => Promise<{ status: number; headers: Headers; text: string }>;

function clientWith(send: Send, origin: string, token: string | undefined) {
  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`${origin}/api/v1${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
    let body: string | Buffer | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, opts.headers);
    const res = await send(method, url, headers, body);
    const isJson = /json/.test(res.headers.get('content-type') ?? '');
    return { status: res.status, headers: res.headers, body: res.text && isJson ? JSON.parse(res.text) : res.text || undefined };
  }
  return {
    call,
    get: <T = any>(path: string, query?: CallOptions['query']) => call<T>('GET', path, { query }),
    post: <T = any>(path: string, body?: unknown, query?: CallOptions['query']) => call<T>('POST', path, { body, query }),
    patch: <T = any>(path: string, body?: unknown, query?: CallOptions['query']) => call<T>('PATCH', path, { body, query }),
    del: <T = any>(path: string, query?: CallOptions['query']) => call<T>('DELETE', path, { query }),
  };
}
export type ApiClient = ReturnType<typeof clientWith>;

/** A REST client that drives the same handlers Next serves, through the route table, in process. */
export function apiClient(token: string | undefined): ApiClient {
  return clientWith(
    async (method, url, headers, body) => {
      const res = await dispatch(new Request(url, { method, headers, body: body as BodyInit | undefined }));
      return { status: res.status, headers: res.headers, text: await res.text() };
    },
    'http://carebase.test',
    token,
  );
}

/** The same client over real HTTP to a running server (undici, keep-alive; a `host` header may be set). */
export function httpApiClient(base: string, token: string | undefined): ApiClient {
  return clientWith(
    async (method, url, headers, body) => {
      const res = await undiciRequest(url, { method: method as 'GET', headers, body });
      const h = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
      return { status: res.statusCode, headers: h, text: await res.body.text() };
    },
    base,
    token,
  );
}

/** A fresh project with its own API key: each test works in its own project and shares no rows. */
export async function newProject(name = 'Test project') {
  const db = await getDb();
  const { projectId, apiKey } = await db.transaction((tx) => createProject(tx, { name }));
  const ctx: ServiceContext = createContext(db, projectId, { kind: 'system', role: 'admin' });
  return { projectId, apiKey, api: apiClient(apiKey), ctx, db };
}
