import { closeDb } from '@/db/client';
import { startEmbeddedExecutor, stopExecutor } from '@/server/executor';

/**
 * A second app instance's executor for bench/webhooks' fairness case: the embedded executor on the bench
 * database (DATABASE_URL and EXECUTOR_* from the parent's environment), until the parent says stop.
 */
startEmbeddedExecutor();
process.send?.('ready');
process.on('message', (m) => {
  if (m !== 'stop') return;
  void stopExecutor()
    .then(() => closeDb())
    .then(() => process.exit(0));
});
