import { sql, type SQL } from 'drizzle-orm';
import type { Db, Queryable } from '@/db/client';

/** Who is acting. `role` is what permission checks read; `admin` may do everything in its project. */
export type Actor =
  | { kind: 'integration'; integrationId: number; role: 'admin'; keyId?: number }
  | { kind: 'user'; userId: number; role: 'admin' | 'coordinator' }
  /** `keyId`: an integration's key acting as this member (`actorId`). */
  | { kind: 'member'; memberId: number; role: string; keyId?: number }
  | { kind: 'system'; role: 'admin' };

export type ServiceContext = {
  projectId: number;
  actor: Actor;
  db: Queryable;
  clock: () => Date;
  /** The id the client got as X-Request-Id (REST), or the console request's; recorded in the audit trail. */
  requestId?: string;
  /** Inside a transaction: work to do once it has committed (waking executors about new rows). */
  afterCommit?: (() => void)[];
  /**
   * Inside a transaction: writes whose result nobody reads (audit entries), sent as common table
   * expressions with the transaction's next statement that takes them (`takePendingWrites`), and at the
   * latest just before commit: the same rows in the same transaction, one round trip fewer.
   */
  pendingWrites?: SQL[];
  /** Inside a transaction: the webhooks of events it records, read with the operation's own (emit). */
  knownHooks?: Map<string, unknown[]>;
};

export const systemClock = () => new Date();

export function createContext(db: Db, projectId: number, actor: Actor, clock = systemClock, requestId?: string): ServiceContext {
  return { projectId, actor, db, clock, ...(requestId ? { requestId } : {}) };
}

/** Runs `fn` in one transaction; nested calls reuse the open transaction. */
export async function withTransaction<T>(ctx: ServiceContext, fn: (tx: ServiceContext) => Promise<T>): Promise<T> {
  if (isTransaction(ctx.db)) return fn(ctx);
  const afterCommit: (() => void)[] = [];
  const result = await (ctx.db as Db).transaction(async (tx) => {
    const txCtx: ServiceContext = { ...ctx, db: markTransaction(tx), afterCommit, pendingWrites: [] };
    const out = await fn(txCtx);
    const rest = takePendingWrites(txCtx);
    if (rest) await txCtx.db.execute(sql`${rest} select 1`);
    return out;
  });
  for (const task of afterCommit) task();
  return result;
}

/** Queues a write to ride along with the transaction's next statement that takes pending writes. */
export function deferWrite(ctx: ServiceContext, write: SQL): boolean {
  if (!ctx.pendingWrites) return false;
  ctx.pendingWrites.push(write);
  return true;
}

/**
 * The pending writes as a `with pending_0 as (...), pending_1 as (...)` prefix for the caller's statement
 * (PostgreSQL runs every data-modifying CTE, read or not), emptying the queue, followed by the caller's own
 * named CTEs `more` (a later one may read an earlier one); undefined when there are none of either.
 */
export function takePendingWrites(ctx: ServiceContext, more: [name: string, query: SQL][] = []): SQL | undefined {
  const writes = ctx.pendingWrites?.splice(0) ?? [];
  const ctes = [...writes.map((w, i): [string, SQL] => [`pending_${i}`, w]), ...more];
  if (ctes.length === 0) return undefined;
  return sql`with ${sql.join(
    ctes.map(([name, query]) => sql`${sql.raw(name)} as (${query})`),
    sql`, `,
  )}`;
}

/** Runs `task` once the surrounding transaction commits, or now when there is none. */
export function onCommit(ctx: ServiceContext, task: () => void): void {
  if (ctx.afterCommit) ctx.afterCommit.push(task);
  else task();
}

const TX = Symbol('carebase.tx');
function markTransaction<T extends object>(tx: T): T {
  (tx as Record<symbol, boolean>)[TX] = true;
  return tx;
}
/** Whether `ctx` runs inside a transaction (writes that must commit with a change check this). */
export function inTransaction(ctx: ServiceContext): boolean {
  return isTransaction(ctx.db);
}
function isTransaction(db: Queryable): boolean {
  return (db as unknown as Record<symbol, boolean>)[TX] === true;
}
