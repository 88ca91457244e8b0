import { z } from 'zod';
import { defineRoute } from '@/server/http/define-route';
import { idParam } from '@/server/core/ids';
import { getAuditEvent, listAuditEvents } from '@/server/services/audit/audit-events';
import { auditEventSchema, listAuditEventsQuery } from '@/server/services/audit/schemas';
import { getEvent, listEvents } from '@/server/services/events/event-log';
import { eventSchema, eventWithDeliveriesSchema, listEventsQuery } from '@/server/services/events/schemas';

const idParams = z.object({ id: idParam });

/** The event log and the audit trail (CONTRACT 11): read-only, admin. */
export const logRoutes = [
  defineRoute({
    method: 'GET',
    path: '/event',
    tag: 'Event log',
    summary: 'List recorded events',
    description: 'Every event Carebase recorded, whether or not a webhook listened, id ascending.',
    query: listEventsQuery,
    paginated: true,
    response: eventSchema,
    handler: (ctx, { query, page }) => listEvents(ctx, query, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/event/{id}',
    tag: 'Event log',
    summary: 'Get an event with the deliveries it caused',
    params: idParams,
    response: eventWithDeliveriesSchema,
    handler: (ctx, { params }) => getEvent(ctx, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/audit-event',
    tag: 'Audit trail',
    summary: 'List audit events',
    description:
      'Who changed what and when: every change made through the API, the console or background work, written in the same transaction as the change. There is no way to change or delete one.',
    query: listAuditEventsQuery,
    paginated: true,
    response: auditEventSchema,
    handler: (ctx, { query, page }) => listAuditEvents(ctx, query, page),
  }),
  defineRoute({
    method: 'GET',
    path: '/audit-event/{id}',
    tag: 'Audit trail',
    summary: 'Get an audit event',
    params: idParams,
    response: auditEventSchema,
    handler: (ctx, { params }) => getAuditEvent(ctx, params.id),
  }),
];
