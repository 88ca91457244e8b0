import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { activities } from './careplans';
import { NOTIFICATION_STATUSES } from './enums';
import { members } from './members';
import { projects } from './projects';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });


/** A message for a member, written by a reminder (CONTRACT 6). */
export const notifications = pgTable(
  'notification',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').references(() => activities.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    body: text('body'),
    topic: text('topic'),
    medium: jsonb('medium').$type<string | string[]>(),
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    readAt: tz('read_at'),
  },
  (t) => [
    index('notification_project_idx').on(t.projectId, t.id),
    index('notification_member_idx').on(t.memberId, t.id),
    index('notification_activity_idx').on(t.activityId),
  ],
);
