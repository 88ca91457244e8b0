import { routeHandlers } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

export const { GET, PATCH } = routeHandlers('/notification/{id}');
