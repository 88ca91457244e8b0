import { openApiDocument } from '@/server/http/openapi';
import pkg from '@/package.json';

export const dynamic = 'force-dynamic';

/** The API description, generated from the same zod schemas the routes parse with. Public. */
export function GET(): Response {
  return Response.json(openApiDocument(pkg.version), { headers: { 'x-request-id': crypto.randomUUID() } });
}
