import { cookies } from 'next/headers';
import { trpcRequestHandler } from '@/server/trpc/handler';
import { createTrpcContext } from '@/server/trpc/init';

export const dynamic = 'force-dynamic';

const handler = (req: Request) => trpcRequestHandler(req, async () => createTrpcContext({ projectCookie: (await cookies()).get('cb_project')?.value }));

export { handler as GET, handler as POST };
