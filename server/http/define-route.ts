import { z } from 'zod';
import { idFilter } from '@/server/core/ids';
import type { ServiceContext } from '@/server/context';
import type { Page, Paged } from '@/server/core/page';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'DELETE'];

/** A handler may pick its success status at run time (e.g. 201 when it created, 200 when it filled). */
export class ApiResult<T> {
  constructor(
    readonly status: 200 | 201,
    readonly body: T,
  ) {}
}

export type RouteInput<P, Q, B> = { params: P; query: Q; body: B; page: Page };
type Handler<P, Q, B, R> = (ctx: ServiceContext, input: RouteInput<P, Q, B>) => Promise<R>;

type Common<P, Q, B> = {
  method: Method;
  /** OpenAPI-style path relative to /api/v1, e.g. `/member/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params?: z.ZodType<P>;
  query?: z.ZodObject & z.ZodType<Q>;
  body?: z.ZodType<B>;
};

/** One resource (or an answer object): the handler's result must be what `response` documents. */
type ObjectRoute<P, Q, B, R> = Common<P, Q, B> & {
  response: z.ZodType<R>;
  status?: 200 | 201;
  paginated?: false;
  /** Where a created resource lives, for the Location header. */
  location?: (result: NoInfer<R>, params: P) => string;
  handler: Handler<P, Q, B, NoInfer<R> | ApiResult<NoInfer<R>>>;
};

/** A list: `response` is the item; `limit` and `cursor` are accepted and the handler answers one page. */
type ListRoute<P, Q, B, R> = Common<P, Q, B> & {
  response: z.ZodType<R>;
  paginated: true;
  handler: Handler<P, Q, B, Paged<NoInfer<R>>>;
};

type EmptyRoute<P, Q, B> = Common<P, Q, B> & { status: 204; handler: Handler<P, Q, B, unknown> };

/** The route table's erased form, read by withApi, the OpenAPI document and the tests. */
export type RouteSpec = Common<unknown, unknown, unknown> & {
  response?: z.ZodType;
  status?: 200 | 201 | 204;
  paginated?: boolean;
  location?: (result: unknown, params: unknown) => string;
  handler: Handler<unknown, unknown, unknown, unknown>;
};

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined, R = unknown>(spec: ListRoute<P, Q, B, R>): RouteSpec;
export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined, R = unknown>(spec: ObjectRoute<P, Q, B, R>): RouteSpec;
export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(spec: EmptyRoute<P, Q, B>): RouteSpec;
export function defineRoute(spec: unknown): RouteSpec {
  return spec as RouteSpec;
}

export const listQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: 'Page size, 1-1000 (default 100)' }),
  cursor: z.string().optional().meta({ description: 'Opaque cursor from a previous Link: rel="next"' }),
};

export const commonQuery = {
  projectId: idFilter.meta({ description: "Optional; when given it must be the token's project (else 403)" }),
  actorId: idFilter.meta({ description: 'With an integration key: evaluate the request as this member' }),
};
