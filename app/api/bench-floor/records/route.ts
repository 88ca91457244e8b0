import { recordsFloor } from '@/server/http/bench-floor';

export const dynamic = 'force-dynamic';

/** bench/records' floor of Next with the records SQL (server/http/bench-floor.ts); 404 unless CAREBASE_BENCH_ROUTES=1. */
export const GET = recordsFloor;
