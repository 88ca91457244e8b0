import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { members } from './members';
import { projects, timestamps, users } from './projects';

/** An OpenID Connect provider people of a project sign in with. The client secret is encrypted at rest. */
export const identityProviders = pgTable(
  'identity_provider',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    display: text('display').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretEncrypted: text('client_secret_encrypted').notNull(),
    /** Target field name (name, email, externalId) to claim name. */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
    ...timestamps,
  },
  (t) => [index('identity_provider_project_idx').on(t.projectId, t.id)],
);

/** Who an external account (provider, sub) belongs to: a member or a staff user. */
export const accountLinks = pgTable(
  'account_link',
  {
    providerId: integer('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'cascade' }),
    sub: text('sub').notNull(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.sub] }), index('account_link_member_idx').on(t.memberId), index('account_link_user_idx').on(t.userId)],
);
