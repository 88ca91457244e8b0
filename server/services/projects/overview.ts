import { eq, sql } from 'drizzle-orm';
import { apiKeys, integrations, members, recordTypes, records } from '@/db/schema';
import { requireReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';

/** Counts for the dashboard tiles. */
export async function projectOverview(ctx: ServiceContext) {
  requireReadEverything(ctx);
  const count = (table: typeof members | typeof records | typeof recordTypes | typeof integrations) =>
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(eq(table.projectId, ctx.projectId))
      .then((r) => r[0]?.n ?? 0);
  const [memberCount, recordCount, recordTypeCount, integrationCount] = await Promise.all([
    count(members),
    count(records),
    count(recordTypes),
    count(integrations),
  ]);
  const [keys] = await ctx.db
    .select({ n: sql<number>`count(*) filter (where ${apiKeys.revokedAt} is null)::int` })
    .from(apiKeys)
    .where(eq(apiKeys.projectId, ctx.projectId));
  return { memberCount, recordCount, recordTypeCount, integrationCount, activeKeyCount: keys?.n ?? 0 };
}
