import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects, timestamps } from './projects';

export const integrations = pgTable(
  'integration',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    display: text('display').notNull(),
    slug: text('slug').notNull(),
    endpointUrl: text('endpoint_url'),
    ...timestamps,
  },
  (t) => [uniqueIndex('integration_project_slug_key').on(t.projectId, t.slug)],
);

/** Integration API keys. Only the SHA-256 of the key is stored; `prefix` lets people recognise a key. */
export const apiKeys = pgTable(
  'api_key',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    name: text('name').notNull().default('Key'),
    /** Who made it: a staff user in the console, or an integration through the API (`user` / `integration`). */
    createdByType: text('created_by_type', { enum: ['user', 'integration', 'system'] }),
    createdById: integer('created_by_id'),
    createdAt: timestamps.createdAt,
    /** Kept to within a minute: a request updates it only when the stored value is older than that. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_key_hash_key').on(t.keyHash), index('api_key_integration_idx').on(t.integrationId)],
);
