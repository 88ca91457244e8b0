import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';

type QueryOptions = Parameters<PGlite['query']>[2];

/** The error a caller sees while a wedged PGlite is replaced (mapped to 503 by the transports). */
export class DatabaseRestartingError extends Error {
  readonly code = 'CARBASE_DB_RESTARTING';
  constructor(cause: unknown) {
    super('The embedded database failed and is being reopened', { cause });
    this.name = 'DatabaseRestartingError';
  }
}

/** A WebAssembly trap inside PGlite (`memory access out of bounds`, `unreachable`): the instance is dead. */
export function isWedged(e: unknown): boolean {
  if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
  const err = e as { name?: string; message?: string } | null;
  return err?.name === 'RuntimeError' || /memory access out of bounds|^unreachable$/.test(err?.message ?? '');
}

/** Marks the recovery's own queries (migrations on the new instance), which must not wait for it. */
const recovering = new AsyncLocalStorage<boolean>();

const inFailedTransaction = (e: unknown) => (e as { code?: string } | null)?.code === '25P02';

/**
 * The one PGlite connection of the process, behind a stable object that drizzle talks to (drizzle only
 * calls `query` and `transaction`). Two failure modes are repaired here, so no request after them sees
 * the damage:
 * - a WebAssembly trap leaves the instance unusable: it is abandoned and a new one opened on the same data
 *   dir (committed data is kept; PostgreSQL's recovery replays the WAL), migrations are applied again
 *   (an in-memory database starts empty), and the failing call answers DatabaseRestartingError;
 * - a statement outside our transactions finding the shared session in an aborted transaction (someone
 *   ran BEGIN by hand and failed): it is rolled back and the statement retried once.
 */
export class ResilientPglite {
  private current: PGlite;
  private reopening: Promise<void> | undefined;
  /** How many times the instance was replaced (readiness reports it; tests read it). */
  reopened = 0;

  constructor(
    first: PGlite,
    private readonly open: () => Promise<PGlite>,
    private readonly afterReopen: () => Promise<void>,
  ) {
    this.current = first;
  }

  get instance(): PGlite {
    return this.current;
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.run(async (pg) => {
      try {
        return await pg.query<T>(sql, params, options);
      } catch (e) {
        if (!inFailedTransaction(e)) throw e;
        await pg.exec('rollback');
        return pg.query<T>(sql, params, options);
      }
    });
  }

  exec(sql: string) {
    return this.run((pg) => pg.exec(sql));
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.run((pg) => pg.transaction(fn));
  }

  close(): Promise<void> {
    return this.current.close();
  }

  private async run<T>(op: (pg: PGlite) => Promise<T>): Promise<T> {
    if (this.reopening && !recovering.getStore()) await this.reopening;
    const pg = this.current;
    try {
      return await op(pg);
    } catch (e) {
      if (!isWedged(e)) throw e;
      this.replace(pg);
      throw new DatabaseRestartingError(e);
    }
  }

  /** Replaces a wedged instance once, however many calls saw it fail. */
  private replace(dead: PGlite): void {
    if (this.current !== dead || this.reopening) return;
    console.error('[db] the embedded database trapped (WebAssembly); reopening it');
    this.reopening = recovering
      .run(true, async () => {
        this.current = await this.open();
        this.reopened++;
        await this.afterReopen();
      })
      .catch((e: unknown) => console.error('[db] reopening the embedded database failed', (e as Error).name))
      .finally(() => {
        this.reopening = undefined;
      });
  }
}
