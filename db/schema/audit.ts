import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from './enums';

export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/**
 * Who changed what, written in the same transaction as the change (CONTRACT 11). Append-only: a trigger
 * (migration 0008) refuses UPDATE and DELETE, and there is no foreign key to the project, so nothing
 * cascades into it. `resource` is the REST name of what changed (`member`, `careplan-parameter`, ...).
 */
export const auditEvents = pgTable(
  'audit_event',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id').notNull(),
    actorType: text('actor_type', { enum: AUDIT_ACTOR_TYPES }).notNull(),
    /** The user, integration or member id; null for the system. */
    actorId: integer('actor_id'),
    /** The API key a request came with (an integration's, also when it acted as a member through actorId). */
    actorKeyId: integer('actor_key_id'),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    resource: text('resource').notNull(),
    resourceId: bigint('resource_id', { mode: 'number' }).notNull(),
    changes: jsonb('changes').$type<AuditChanges>().notNull(),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_event_project_idx').on(t.projectId, t.id),
    index('audit_event_resource_idx').on(t.projectId, t.resource, t.resourceId, t.id),
    index('audit_event_actor_idx').on(t.projectId, t.actorType, t.actorId, t.id),
    index('audit_event_created_idx').on(t.projectId, t.createdAt),
  ],
);
