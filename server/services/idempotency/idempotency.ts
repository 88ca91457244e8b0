import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Queryable } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';
import { AppError, conflict, invalidField } from '@/server/errors';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A key still `running` after this long belongs to a request that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 120_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type StoredAnswer = { status: number; body: string | null; location: string | null };
export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer };

/** 1-255 visible ASCII characters (CONTRACT 1). */
export function checkIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw invalidField('Idempotency-Key', 'Use 1-255 visible ASCII characters');
}

/** What makes two requests "the same": method, path with query, and the exact body bytes. */
export function requestFingerprint(method: string, pathAndQuery: string, body: Buffer): string {
  return createHash('sha256').update(`${method} ${pathAndQuery}\n`).update(body).digest('hex');
}

/**
 * Claims an idempotency key for a request, or answers what to do instead: replay the first answer (same
 * key, same request, finished), or 409 (same key with another request, or the first still running). A
 * key that expired, or whose request died while running, is taken over. One round trip when claimed.
 */
export async function claimIdempotencyKey(db: Queryable, scope: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim> {
  const values = { scope, key, fingerprint, state: 'running' as const, status: null, body: null, location: null, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [idempotencyKeys.scope, idempotencyKeys.key],
      set: values,
      setWhere: sql`${idempotencyKeys.expiresAt} <= ${now.toISOString()}::timestamptz
        or (${idempotencyKeys.state} = 'running' and ${idempotencyKeys.createdAt} < ${new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString()}::timestamptz)`,
    })
    .returning({ scope: idempotencyKeys.scope });
  if (claimed) return { kind: 'claimed' };
  const [existing] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  // Taken over or finished between the two statements: the other request owns it now.
  if (!existing) throw conflict('This Idempotency-Key is in use by another request; retry', 'Idempotency-Key');
  if (existing.fingerprint !== fingerprint) {
    throw conflict('This Idempotency-Key was used with another request (method, path or body)', 'Idempotency-Key');
  }
  if (existing.state === 'running') throw conflict('A request with this Idempotency-Key is still running', 'Idempotency-Key');
  return { kind: 'replay', answer: { status: existing.status!, body: existing.body, location: existing.location } };
}

/** Stores the answer of a request that succeeded, for replays. */
export async function completeIdempotencyKey(db: Queryable, scope: string, key: string, answer: StoredAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', status: answer.status, body: answer.body, location: answer.location })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
}

/**
 * Lets the key go after a request that failed: an error changed nothing (transactions roll back), so the
 * client may send it again with the same key.
 */
export async function releaseIdempotencyKey(db: Queryable, scope: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, 'running')));
}

/** Housekeeping: forgets keys older than 24 h. */
export async function deleteExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  return rows.length;
}

export const isIdempotencyConflict = (e: unknown) => e instanceof AppError && e.code === 'conflict' && e.errors?.[0]?.path === 'Idempotency-Key';
