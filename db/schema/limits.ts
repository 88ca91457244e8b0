import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * `Idempotency-Key` of POST requests (CONTRACT 1), per credential: the request's fingerprint, and once it
 * has finished, its answer to replay. Kept in the database so every instance sees it; expires after 24 h.
 */
export const idempotencyKeys = pgTable(
  'idempotency_key',
  {
    /** The credential that sent it (`key:<apiKeyId>`, `member-token:<id>`): keys of different tokens never meet. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path with query, and body bytes. */
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['running', 'done'] }).notNull(),
    status: integer('status'),
    body: text('body'),
    location: text('location'),
    createdAt: tz('created_at').notNull(),
    expiresAt: tz('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_key_expires_idx').on(t.expiresAt)],
);

/** Counters of the shared rate limits (rate-limiter-flexible's Drizzle store) when PostgreSQL is used. */
export const rateLimits = pgTable('rate_limit', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: tz('expire'),
});
