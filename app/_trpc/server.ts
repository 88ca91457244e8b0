import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { createTrpcContext } from '@/server/trpc/init';
import { createCaller } from '@/server/trpc/root';

/**
 * The tRPC server caller for server components: same procedures and guards as the browser uses. Pages
 * render in parallel with the layout, so each caller sends a signed-out visitor to the login page itself.
 */
export async function getCaller() {
  const projectCookie = (await cookies()).get('cb_project')?.value;
  const ctx = await createTrpcContext({ projectCookie });
  if (!ctx.userId) redirect(ctx.memberId ? '/me' : '/login');
  return createCaller(ctx);
}

/** The caller for a member's own pages (`/me`): staff go to the console, visitors to the login page. */
export async function getMemberCaller() {
  const ctx = await createTrpcContext({});
  if (!ctx.memberId) redirect(ctx.userId ? '/' : '/login');
  return createCaller(ctx);
}
