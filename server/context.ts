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
};

export const systemClock = () => new Date();

export function createContext(db: Db, projectId: number, actor: Actor, clock = systemClock, requestId?: string): ServiceContext {
  return { projectId, actor, db, clock, ...(requestId ? { requestId } : {}) };
}

/** Runs `fn` in one transaction; nested calls reuse the open transaction. */
export async function withTransaction<T>(ctx: ServiceContext, fn: (tx: ServiceContext) => Promise<T>): Promise<T> {
  if (isTransaction(ctx.db)) return fn(ctx);
  const afterCommit: (() => void)[] = [];
  const result = await (ctx.db as Db).transaction((tx) => fn({ ...ctx, db: markTransaction(tx), afterCommit }));
  for (const task of afterCommit) task();
  return result;
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
