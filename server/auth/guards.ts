import type { Actor, ServiceContext } from '@/server/context';
import { AppError } from '@/server/errors';

export const isAdmin = (actor: Actor) => actor.role === 'admin';
/** Staff (admin or coordinator) and admins read everything in the project. */
export const canReadEverything = (actor: Actor) => actor.role === 'admin' || actor.kind === 'user';

export function requireAdmin(ctx: ServiceContext): void {
  if (!isAdmin(ctx.actor)) throw new AppError('forbidden', 'This needs the admin role');
}

/** Staff (admins and coordinators) and integrations manage care plans and activities; members do not. */
export function requireCareManager(ctx: ServiceContext): void {
  if (ctx.actor.role === 'admin' || ctx.actor.kind === 'user') return;
  throw new AppError('forbidden', 'Managing care plans needs the admin or coordinator role');
}

export function requireReadEverything(ctx: ServiceContext): void {
  if (!canReadEverything(ctx.actor)) throw new AppError('forbidden', 'This needs the admin role');
}
