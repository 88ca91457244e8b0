import { z } from 'zod';
import { idSchema } from '@/server/core/ids';
import { getAuditEvent, listAuditEvents } from '@/server/services/audit/audit-events';
import { listAuditEventsQuery } from '@/server/services/audit/schemas';
import { deliverySummaries, getEvent, listEvents } from '@/server/services/events/event-log';
import { listEventsQuery } from '@/server/services/events/schemas';
import { adminProcedure, router, staffProcedure } from '@/server/trpc/init';
import { byId, pageInput, pageOf } from './shared';

/** The audit trail, newest first: the Audit page (admins) and the history on detail pages (staff). */
export const auditRouter = router({
  list: staffProcedure.input(listAuditEventsQuery.extend(pageInput)).query(({ ctx, input }) => listAuditEvents(ctx.svc, input, pageOf(input, true))),
  get: staffProcedure.input(byId).query(({ ctx, input }) => getAuditEvent(ctx.svc, input.id)),
});

/** The event log, newest first, each event with how its deliveries stand. */
export const eventsRouter = router({
  list: adminProcedure.input(listEventsQuery.extend(pageInput)).query(async ({ ctx, input }) => {
    const page = await listEvents(ctx.svc, input, pageOf(input, true));
    const summaries = await deliverySummaries(ctx.svc, page.items.map((e) => e.id));
    return { items: page.items.map((e) => ({ ...e, deliveries: summaries[e.id] ?? { total: 0, delivered: 0, failed: 0, pending: 0 } })), next: page.next };
  }),
  get: adminProcedure.input(z.object({ id: idSchema })).query(({ ctx, input }) => getEvent(ctx.svc, input.id)),
});
