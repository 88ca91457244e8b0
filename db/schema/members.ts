import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { projects, timestamps } from './projects';

export const members = pgTable(
  'member',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('user'),
    name: text('name'),
    email: text('email'),
    externalId: text('external_id'),
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
    /** IANA zone the member reads dates in; null: the project's. */
    timeZone: text('time_zone'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('member_project_email_key').on(t.projectId, sql`lower(${t.email})`).where(sql`${t.email} is not null`),
    index('member_project_id_idx').on(t.projectId, t.id),
    index('member_project_role_idx').on(t.projectId, t.role),
    index('member_project_external_id_idx').on(t.projectId, t.externalId),
  ],
);

/** Bearer tokens that act as one member. Only the SHA-256 of the token is stored. */
export const memberTokens = pgTable(
  'member_token',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamps.createdAt,
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('member_token_hash_key').on(t.tokenHash), index('member_token_member_idx').on(t.memberId)],
);
