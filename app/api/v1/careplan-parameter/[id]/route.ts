import { routeHandlers } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

export const { PATCH } = routeHandlers('/careplan-parameter/{id}');
