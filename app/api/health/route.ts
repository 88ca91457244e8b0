import { health } from '@/server/http/health';

export const dynamic = 'force-dynamic';

export const GET = health;
