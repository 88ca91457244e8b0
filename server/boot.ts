import { closeDb, getDb, migrateDb } from '@/db/client';
import { seedIfEmpty } from '@/db/seed';
import { getEnv } from './env';
import { startEmbeddedExecutor, stopExecutor } from './executor';

const BOOTED = Symbol.for('carebase.booted');
type G = typeof globalThis & { [BOOTED]?: boolean };

/**
 * Server start: validate env, open the database (warming PGlite up before the first request), apply
 * migrations, seed an empty database, and close the database cleanly on SIGINT/SIGTERM so a restart of
 * PGlite is not a crash recovery. NEXT_MANUAL_SIG_HANDLE=true leaves the signals to us.
 */
export async function bootServer(): Promise<void> {
  const g = globalThis as G;
  if (g[BOOTED]) return;
  g[BOOTED] = true;
  const env = getEnv();
  if (env.CAREBASE_AUTO_MIGRATE === 'true') await migrateDb();
  await seedIfEmpty(await getDb());
  if (env.CAREBASE_EXECUTOR === 'embedded') startEmbeddedExecutor();
  else (await import('@/inngest/client')).connectInngestNotifier();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing the database…`);
    stopExecutor()
      .then(() => closeDb())
      .catch((e: unknown) => console.error('Error while closing the database', e))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
