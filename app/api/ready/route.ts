import { ready } from '@/server/http/health';

export const dynamic = 'force-dynamic';

export const GET = ready;
