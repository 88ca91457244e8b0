import { and, eq, sql, type SQL } from 'drizzle-orm';
import { recordTypes, records } from '@/db/schema';
import { canReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { AppError } from '@/server/errors';

/**
 * The read rule of CONTRACT 3: admins and staff see every record of the project; any other role sees only
 * its own records, and only of types whose permissions grant that role `read`.
 */
export function recordReadScope(ctx: ServiceContext): SQL | undefined {
  const actor = ctx.actor;
  if (canReadEverything(actor)) return undefined;
  if (actor.kind !== 'member') return sql`false`;
  return and(
    eq(records.memberId, actor.memberId),
    sql`${records.type} in (select ${recordTypes.type} from ${recordTypes}
      where ${recordTypes.projectId} = ${ctx.projectId}
      and (${recordTypes.permissions} -> ${actor.role} ->> 'read') = 'true')`,
  );
}

async function permissionOf(ctx: ServiceContext, type: string, role: string) {
  const [row] = await ctx.db
    .select({ permissions: recordTypes.permissions })
    .from(recordTypes)
    .where(and(eq(recordTypes.projectId, ctx.projectId), eq(recordTypes.type, type)))
    .limit(1);
  return row?.permissions[role] ?? {};
}

/** Whether the actor may write records of `type` belonging to `memberId` (403 when not). */
export async function requireRecordWrite(ctx: ServiceContext, type: string, memberId: number): Promise<void> {
  const actor = ctx.actor;
  if (actor.role === 'admin') return;
  if (actor.kind !== 'member') throw new AppError('forbidden', 'Only admins change records');
  const flags = await permissionOf(ctx, type, actor.role);
  if (!flags.write) throw new AppError('forbidden', `The role ${actor.role} may not write records of type ${type}`);
  if (memberId !== actor.memberId) throw new AppError('forbidden', 'A member may only write its own records');
}
