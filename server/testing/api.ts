import { getDb } from '@/db/client';
import { createContext, type ServiceContext } from '@/server/context';
import { dispatch } from '@/server/http/routes';
import { createProject } from '@/server/services/projects/projects';

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T };

type CallOptions = { body?: unknown; rawBody?: string; headers?: Record<string, string>; query?: Record<string, string | number> };

/** A REST client that drives the same handlers Next serves, through the route table. */
export function apiClient(token: string | undefined) {
  async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`http://carebase.test/api/v1${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, opts.headers);
    const res = await dispatch(new Request(url, { method, headers, body }));
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }
  return {
    call,
    get: <T = any>(path: string, query?: CallOptions['query']) => call<T>('GET', path, { query }),
    post: <T = any>(path: string, body?: unknown, query?: CallOptions['query']) => call<T>('POST', path, { body, query }),
    patch: <T = any>(path: string, body?: unknown, query?: CallOptions['query']) => call<T>('PATCH', path, { body, query }),
    del: <T = any>(path: string, query?: CallOptions['query']) => call<T>('DELETE', path, { query }),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** A fresh project with its own API key: each test works in its own project and shares no rows. */
export async function newProject(name = 'Test project') {
  const db = await getDb();
  const { projectId, apiKey } = await db.transaction((tx) => createProject(tx, { name }));
  const ctx: ServiceContext = createContext(db, projectId, { kind: 'system', role: 'admin' });
  return { projectId, apiKey, api: apiClient(apiKey), ctx, db };
}
