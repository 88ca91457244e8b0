import { routeHandlers } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

export const { DELETE, GET, PATCH } = routeHandlers('/activity/{id}');
