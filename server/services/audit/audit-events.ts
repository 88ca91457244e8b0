import { and, asc, desc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { auditEvents, integrations, members, users } from '@/db/schema';
import { requireReadEverything } from '@/server/auth/guards';
import type { ServiceContext } from '@/server/context';
import { FIRST_PAGE, fetchSize, toPaged, type Page, type Paged } from '@/server/core/page';
import { iso } from '@/server/core/time';
import { notFound } from '@/server/errors';
import type { AuditEventDto, ListAuditEventsQuery } from './schemas';

type Row = typeof auditEvents.$inferSelect;

/** Names of the people and integrations in a page of audit events, looked up together. */
async function actorNames(ctx: ServiceContext, rows: Row[]): Promise<Map<string, string>> {
  const ids = (type: Row['actorType']) => [...new Set(rows.filter((r) => r.actorType === type && r.actorId !== null).map((r) => r.actorId!))];
  const [userRows, integrationRows, memberRows] = await Promise.all([
    ids('user').length ? ctx.db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids('user'))) : [],
    ids('integration').length
      ? ctx.db.select({ id: integrations.id, name: integrations.display }).from(integrations).where(and(eq(integrations.projectId, ctx.projectId), inArray(integrations.id, ids('integration'))))
      : [],
    ids('member').length
      ? ctx.db.select({ id: members.id, name: members.name, email: members.email }).from(members).where(and(eq(members.projectId, ctx.projectId), inArray(members.id, ids('member'))))
      : [],
  ]);
  const out = new Map<string, string>();
  for (const u of userRows) out.set(`user:${u.id}`, u.name ?? u.email);
  for (const i of integrationRows) out.set(`integration:${i.id}`, i.name);
  for (const m of memberRows) out.set(`member:${m.id}`, m.name ?? m.email ?? `Member ${m.id}`);
  return out;
}

const toDto = (r: Row, names: Map<string, string>): AuditEventDto => ({
  id: r.id,
  actor: { type: r.actorType, id: r.actorId, keyId: r.actorKeyId, name: r.actorType === 'system' ? 'Carebase' : (names.get(`${r.actorType}:${r.actorId}`) ?? null) },
  action: r.action,
  resource: r.resource,
  resourceId: r.resourceId,
  changes: r.changes,
  requestId: r.requestId,
  createdAt: iso(r.createdAt),
});

/**
 * The audit trail (CONTRACT 11), id ascending like every list (REST); the console reads it newest first.
 * Read-only: nothing in Carebase changes or deletes an audit event.
 */
export async function listAuditEvents(ctx: ServiceContext, query: ListAuditEventsQuery, page: Page = FIRST_PAGE): Promise<Paged<AuditEventDto>> {
  requireReadEverything(ctx);
  const where: SQL[] = [eq(auditEvents.projectId, ctx.projectId)];
  if (page.newestFirst) {
    if (page.afterId) where.push(lt(auditEvents.id, page.afterId));
  } else where.push(gt(auditEvents.id, page.afterId));
  if (query.resource) where.push(eq(auditEvents.resource, query.resource));
  if (query.resourceId) where.push(eq(auditEvents.resourceId, query.resourceId));
  if (query.actorType) where.push(eq(auditEvents.actorType, query.actorType));
  if (query.actorId) where.push(eq(auditEvents.actorId, query.actorId));
  if (query.from) where.push(gte(auditEvents.createdAt, new Date(query.from)));
  if (query.to) where.push(lt(auditEvents.createdAt, new Date(query.to)));
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(page.newestFirst ? desc(auditEvents.id) : asc(auditEvents.id))
    .limit(fetchSize(page));
  const names = await actorNames(ctx, rows.slice(0, page.limit));
  return toPaged(rows, page, (r) => toDto(r, names));
}

export async function getAuditEvent(ctx: ServiceContext, id: number): Promise<AuditEventDto> {
  requireReadEverything(ctx);
  const [row] = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.id, id), eq(auditEvents.projectId, ctx.projectId)));
  if (!row) throw notFound('Audit event');
  return toDto(row, await actorNames(ctx, [row]));
}
