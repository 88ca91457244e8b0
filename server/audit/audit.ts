import type { AuditChanges } from '@/db/schema';
import { auditEvents } from '@/db/schema';
import { sql } from 'drizzle-orm';
import { deferWrite, inTransaction, type Actor, type ServiceContext } from '@/server/context';

/** The REST names of what the audit trail records changes of. */
export const AUDIT_RESOURCES = [
  'member',
  'member-token',
  'record-type',
  'record',
  'integration',
  'api-key',
  'webhook',
  'webhook-delivery',
  'identity-provider',
  'observation-code',
  'observation',
  'careplan-definition',
  'careplan',
  'careplan-parameter',
  'activity',
  'notification',
  'article',
  'questionnaire',
  'questionnaire-response',
  'schedule',
  'appointment',
  'encounter',
  'user',
  'invitation',
] as const;
export type AuditResource = (typeof AUDIT_RESOURCES)[number];

type Snapshot = Record<string, unknown>;

export type AuditEntry = {
  action: 'create' | 'update' | 'delete';
  resource: AuditResource;
  resourceId: number;
  /** The resource as its API shows it before the change (null for a create). */
  before?: Snapshot | null;
  /** ... and after it (null for a delete). */
  after?: Snapshot | null;
  /** Changes that are not fields of the resource (a bulk recovery's count, a secret rotated). */
  extra?: AuditChanges;
  /** Defaults to the context's project (the scheduler's batches span projects). */
  projectId?: number;
};

/** Fields that are bookkeeping, not something a person changed. */
const IGNORED = new Set(['id', 'createdAt', 'updatedAt']);
/** Secrets, key and token values and password hashes never reach the trail: it says only that they changed. */
const SECRET = new Set(['secret', 'clientSecret', 'key', 'token', 'password', 'passwordHash', 'keyHash', 'tokenHash', 'secretEncrypted', 'prefix']);
export const REDACTED = '[redacted]';

function redact(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (SECRET.has(field)) return REDACTED;
  // Custom webhook headers often carry an integration's credentials: their names are kept, values not.
  if (field === 'headers' && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.keys(value as object).map((k) => [k, REDACTED]));
  }
  return value;
}

/** JSON equality that ignores the order of object keys (jsonb reorders them). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b || (a == null && b == null);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Snapshot)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Snapshot)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Snapshot)[k], (b as Snapshot)[k]));
}

/**
 * `{field: {before, after}}` for every field that differs (all of them for a create or a delete), with
 * secrets redacted. A secret that changed shows as redacted on both sides, so the trail still says so.
 */
export function changesBetween(before: Snapshot | null | undefined, after: Snapshot | null | undefined): AuditChanges {
  const out: AuditChanges = {};
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const field of fields) {
    if (IGNORED.has(field)) continue;
    const b = before?.[field];
    const a = after?.[field];
    if (before && after && sameJson(b, a)) continue;
    // A create lists what the new resource holds; a delete what it held (empty values say nothing).
    if (!before && isEmpty(a)) continue;
    if (!after && isEmpty(b)) continue;
    out[field] = { before: before ? redact(field, b) : null, after: after ? redact(field, a) : null };
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

export function actorColumns(actor: Actor): { actorType: 'user' | 'integration' | 'member' | 'system'; actorId: number | null; actorKeyId: number | null } {
  switch (actor.kind) {
    case 'integration':
      return { actorType: 'integration', actorId: actor.integrationId, actorKeyId: actor.keyId ?? null };
    case 'user':
      return { actorType: 'user', actorId: actor.userId, actorKeyId: null };
    case 'member':
      return { actorType: 'member', actorId: actor.memberId, actorKeyId: actor.keyId ?? null };
    case 'system':
      return { actorType: 'system', actorId: null, actorKeyId: null };
  }
}

/**
 * Writes audit events in the caller's transaction (CONTRACT 11), so they exist exactly when the change
 * committed: a rolled-back change leaves none. Calling it outside a transaction is a programming error.
 */
export async function auditMany(ctx: ServiceContext, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (!inTransaction(ctx)) throw new Error('audit events are written in the transaction of the change they record');
  const actor = actorColumns(ctx.actor);
  const now = ctx.clock().toISOString();
  // Nobody reads the inserted rows back: the insert rides along with the transaction's next statement
  // (the event it records, usually) instead of costing a round trip of its own.
  const rows = entries.map(
    (e) =>
      sql`(${e.projectId ?? ctx.projectId}, ${actor.actorType}, ${actor.actorId}, ${actor.actorKeyId}, ${e.action}, ${e.resource}, ${e.resourceId}, ${JSON.stringify({ ...changesBetween(e.before, e.after), ...e.extra })}::jsonb, ${ctx.requestId ?? null}, ${now}::timestamptz)`,
  );
  const insert = sql`insert into ${auditEvents} (project_id, actor_type, actor_id, actor_key_id, action, resource, resource_id, changes, request_id, created_at) values ${sql.join(rows, sql`, `)}`;
  if (!deferWrite(ctx, insert)) await ctx.db.execute(insert);
}

export const audit = (ctx: ServiceContext, entry: AuditEntry) => auditMany(ctx, [entry]);
