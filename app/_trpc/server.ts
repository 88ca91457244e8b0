import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { currentMemberId } from '@/server/auth/next-auth';
import { createTrpcContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';

/**
 * The tRPC server caller for server components: same procedures and guards as the browser uses. Pages
 * render in parallel with the layout, so each caller sends a signed-out visitor to the login page itself.
 */
export async function getCaller() {
  const projectCookie = (await cookies()).get('cb_project')?.value;
  const ctx = await createTrpcContext({ projectCookie });
  if (!ctx.userId) redirect((await currentMemberId()) ? '/me' : '/login');
  return createCaller(ctx);
}
