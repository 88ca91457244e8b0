import { routeHandlers } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

export const { POST } = routeHandlers('/careplan-parameter');
