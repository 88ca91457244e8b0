import { routeHandlers } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE } = routeHandlers('/event');
