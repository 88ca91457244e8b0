import { openApiDocument } from '@/server/http/openapi';
import pkg from '@/package.json';
import { answer } from '@/server/core/answer';

export const dynamic = 'force-dynamic';

/** The API description, generated from the same zod schemas the routes parse with. Public. */
export function GET(): Response {
  return answer(JSON.stringify(openApiDocument(pkg.version)), { headers: { 'content-type': 'application/json', 'x-request-id': crypto.randomUUID() } });
}
