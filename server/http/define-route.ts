import { z } from 'zod';
import type { ServiceContext } from '@/server/context';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Page = { limit: number; afterId: number };

/** A handler may pick its success status at run time (e.g. 201 when it created, 200 when it filled). */
export class ApiResult<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

type Input<P, Q, B> = { params: P; query: Q; body: B; page: Page };

export type RouteSpec<P = unknown, Q = unknown, B = unknown> = {
  method: Method;
  /** OpenAPI-style path relative to /api/v1, e.g. `/member/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params?: z.ZodType<P>;
  query?: z.ZodObject;
  body?: z.ZodType<B>;
  response?: z.ZodType;
  status?: 200 | 201 | 204;
  /** Lists: `limit` + `cursor` are accepted, the handler gets `page` and returns up to limit+1 rows. */
  paginated?: boolean;
  /** Where a created resource lives, for the Location header. */
  location?: (result: never, params: never) => string;
  handler: (ctx: ServiceContext, input: Input<P, Q, B>) => Promise<unknown>;
};

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  spec: Omit<RouteSpec<P, Q, B>, 'query' | 'location'> & {
    query?: z.ZodObject & z.ZodType<Q>;
    location?: (result: never, params: P) => string;
  },
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** Path ids: anything that is not a positive integer names nothing, so it is a 404, not a 400. */
export const idParam = z.coerce.number().int().positive().max(2147483647);
export const idSchema = z.number().int().positive().max(2147483647);
export const timestampSchema = z.string().meta({ format: 'date-time', example: '2026-01-31T09:30:00.000Z' });

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
  projectId: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .meta({ description: "Optional; when given it must be the token's project (else 403)" }),
  actorId: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .meta({ description: 'With an integration key: evaluate the request as this member' }),
};
