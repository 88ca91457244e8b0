import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { projects } from './projects';

/** One row per operation that has an event, written in the operation's transaction (the outbox). */
export const events = pgTable(
  'event',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    responseData: jsonb('response_data').$type<unknown>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('event_project_idx').on(t.projectId, t.id), index('event_project_name_idx').on(t.projectId, t.name, t.id), index('event_project_created_idx').on(t.projectId, t.createdAt)],
);
