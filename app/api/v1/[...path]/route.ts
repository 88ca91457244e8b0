import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors';
import { problemResponse } from '@/server/http/problem';

export const dynamic = 'force-dynamic';

/** Unknown paths under /api/v1 answer problem+json like every other API error, not an HTML page. */
function notFound(): Response {
  return problemResponse(new AppError('not_found', 'No such API route; see /api/v1/openapi.json'), randomUUID());
}

export { notFound as GET, notFound as POST, notFound as PATCH, notFound as PUT, notFound as DELETE };
