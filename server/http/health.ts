import { randomUUID } from 'node:crypto';
import { readiness } from '@/server/services/health/readiness';
import { answerJson } from '@/server/core/answer';

const json = (status: number, body: unknown) =>
  answerJson(body, { status, headers: { 'cache-control': 'no-store', 'x-request-id': randomUUID() } });

/** `GET /api/health`: 200 while the process lives (a liveness probe; it asks nothing of the database). */
export const health = async () => json(200, { status: 'ok' });

/** `GET /api/ready`: 200 `{database, migrations, executor}` when all hold, else 503 naming the failing part. */
export async function ready(): Promise<Response> {
  const { ready, checks } = await readiness();
  const response = json(ready ? 200 : 503, checks);
  if (!ready) response.headers.set('retry-after', '5');
  return response;
}
