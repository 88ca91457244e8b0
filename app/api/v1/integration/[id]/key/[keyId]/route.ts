import { routeHandlers } from '@/server/http/routes';

export const dynamic = 'force-dynamic';

export const { DELETE } = routeHandlers('/integration/{id}/key/{keyId}');
