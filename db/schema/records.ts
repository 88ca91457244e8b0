import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects, timestamps } from './projects';
import { members } from './members';

export type Permissions = Record<string, { read?: boolean; write?: boolean }>;

export const recordTypes = pgTable(
  'record_type',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    permissions: jsonb('permissions').$type<Permissions>().notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex('record_type_project_type_key').on(t.projectId, t.type)],
);

export const records = pgTable(
  'record',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [
    index('record_project_id_idx').on(t.projectId, t.id),
    index('record_project_type_idx').on(t.projectId, t.type, t.id),
    index('record_member_idx').on(t.memberId, t.id),
    // jsonb_path_ops serves `fields @> $1` (the `fields` filter) and is smaller than the default opclass.
    index('record_fields_gin_idx').using('gin', t.fields.op('jsonb_path_ops')),
  ],
);
