import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { DELIVERY_STATUSES, WEBHOOK_STRATEGIES } from './enums';
import { events } from './events';
import { integrations } from './integrations';
import { projects, timestamps } from './projects';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const webhooks = pgTable(
  'webhook',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    display: text('display').notNull(),
    url: text('url').notNull(),
    configurationId: integer('configuration_id').references(() => integrations.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** Start of the current run of failed attempts; cleared by any success. Five days of it disables. */
    failingSince: tz('failing_since'),
    /** Custom request headers sent on every call (CONTRACT 11), e.g. an integration's own API key. */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('webhook_project_idx').on(t.projectId, t.id), index('webhook_configuration_idx').on(t.configurationId)],
);

/** One row per (webhook, event): the database itself keeps "at most one handle per event per project". */
export const webhookTriggers = pgTable(
  'webhook_trigger',
  {
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').notNull(),
    event: text('event').notNull(),
    strategy: text('strategy', { enum: WEBHOOK_STRATEGIES }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.webhookId, t.event] }),
    index('webhook_trigger_lookup_idx').on(t.projectId, t.event, t.strategy),
    uniqueIndex('webhook_trigger_one_handle_key').on(t.projectId, t.event).where(sql`${t.strategy} = 'handle'`),
  ],
);

/** Signing secrets, encrypted at rest. A rotated-out secret keeps signing until `expiresAt`. */
export const webhookSecrets = pgTable(
  'webhook_secret',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    secretEncrypted: text('secret_encrypted').notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    expiresAt: tz('expires_at'),
  },
  (t) => [index('webhook_secret_webhook_idx').on(t.webhookId)],
);

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Pending work: written in the operation's transaction, moved by an executor. */
export const webhookDeliveries = pgTable(
  'webhook_delivery',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    projectId: integer('project_id').notNull(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).references(() => events.id, { onDelete: 'set null' }),
    event: text('event').notNull(),
    /** The exact body sent, so every attempt sends the same bytes. */
    payload: text('payload').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at'),
    leaseUntil: tz('lease_until'),
    createdAt: tz('created_at').notNull().defaultNow(),
    deliveredAt: tz('delivered_at'),
  },
  (t) => [
    // The fair claim: each webhook's oldest due rows. The only index on the due time: with a second one on
    // next_attempt_at alone, the claim's generic plan walked it past every other webhook's rows (decision 0014).
    index('webhook_delivery_webhook_due_idx').on(t.webhookId, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_delivery_webhook_idx').on(t.webhookId, t.id),
    index('webhook_delivery_webhook_created_idx').on(t.webhookId, t.createdAt),
    index('webhook_delivery_event_idx').on(t.eventId),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempt',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: tz('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    response: text('response'),
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull(),
    url: text('url').notNull(),
  },
  (t) => [index('webhook_attempt_delivery_idx').on(t.deliveryId, t.attempt)],
);
