import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { cookies } from 'next/headers';
import { appRouter } from '@/server/trpc/root';
import { createTrpcContext } from '@/server/trpc/init';

export const dynamic = 'force-dynamic';

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: async () => createTrpcContext({ projectCookie: (await cookies()).get('cb_project')?.value }),
  });

export { handler as GET, handler as POST };
