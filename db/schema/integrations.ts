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
    createdAt: timestamps.createdAt,
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_key_hash_key').on(t.keyHash), index('api_key_integration_idx').on(t.integrationId)],
);
