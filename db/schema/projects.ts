import { integer, pgTable, primaryKey, text, timestamp, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { STAFF_ROLES, USER_TOKEN_KINDS } from './enums';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
export { timestamps };
const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const projects = pgTable('project', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull(),
  timeZone: text('time_zone').notNull().default('UTC'),
  ...timestamps,
});

/** Staff who sign in to the admin UI. Members are not users. */
export const users = pgTable(
  'app_user',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash'),
    /** Sessions issued before this moment are over (a password reset ends them at once). */
    sessionsValidAfter: tz('sessions_valid_after'),
    ...timestamps,
  },
  (t) => [uniqueIndex('app_user_email_key').on(sql`lower(${t.email})`)],
);

/** A user's membership of a project, with the role they have there. Deactivated members keep their history. */
export const projectUsers = pgTable(
  'project_user',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    createdAt: timestamps.createdAt,
    /** Set while the user may not work in this project; every request checks it, so sessions end at once. */
    deactivatedAt: tz('deactivated_at'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_user_user_idx').on(t.userId)],
);

/**
 * One-time links for people to set a password: an invitation to join a project with a role (7 days), or
 * a password reset an admin started (24 hours). Only the SHA-256 of the link's token is kept.
 */
export const userTokens = pgTable(
  'user_token',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: USER_TOKEN_KINDS }).notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: STAFF_ROLES }),
    /** The user a reset is for; for an invitation, the user it created or joined once accepted. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamps.createdAt,
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
    revokedAt: tz('revoked_at'),
  },
  (t) => [uniqueIndex('user_token_hash_key').on(t.tokenHash), index('user_token_project_idx').on(t.projectId, t.id)],
);
