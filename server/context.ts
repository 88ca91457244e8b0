import type { Db, Queryable } from '@/db/client';

/** Who is acting. `role` is what permission checks read; `admin` may do everything in its project. */
export type Actor =
  | { kind: 'integration'; integrationId: number; role: 'admin' }
  | { kind: 'user'; userId: number; role: 'admin' | 'coordinator' }
  | { kind: 'member'; memberId: number; role: string }
  | { kind: 'system'; role: 'admin' };

export type ServiceContext = {
  projectId: number;
  actor: Actor;
  db: Queryable;
  clock: () => Date;
  /** Inside a transaction: work to do once it has committed (waking executors about new rows). */
  afterCommit?: (() => void)[];
};

export const systemClock = () => new Date();

export function createContext(db: Db, projectId: number, actor: Actor, clock = systemClock): ServiceContext {
  return { projectId, actor, db, clock };
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
function isTransaction(db: Queryable): boolean {
  return (db as unknown as Record<symbol, boolean>)[TX] === true;
}
