import { getEnv } from '@/server/env';
import { answer } from '@/server/core/answer';

export const dynamic = 'force-dynamic';

/**
 * bench/records' floor of Next itself: the production build answering a fixed JSON body. Exists only when
 * the server runs with CAREBASE_BENCH_ROUTES=1 (the benchmarks); otherwise 404 like any unknown path.
 */
const BODY = JSON.stringify([{ id: 1, type: 'profile', memberId: 1, fields: { n: 1 }, createdAt: '2026-11-24T00:00:00.000Z', updatedAt: '2026-11-24T00:00:00.000Z' }]);

export function GET(): Response {
  if (!getEnv().CAREBASE_BENCH_ROUTES) return new Response(null, { status: 404 });
  return answer(BODY, { headers: { 'content-type': 'application/json' } });
}
