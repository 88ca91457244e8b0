import { startCeiling } from './records-ceiling';

/**
 * bench/records' ceiling server in a process of its own (bench/lib.ts, startCeilingProcess), so that its
 * event loop is not autocannon's too and the machine's CPU table can tell the two apart. Arguments: the
 * database URL, the port and the pool size. Says 'ready' when listening; closes and exits when told 'stop'.
 */
const [databaseUrl, port, pool] = process.argv.slice(2);
void startCeiling(databaseUrl!, Number(port), Number(pool)).then((ceiling) => {
  process.send?.('ready');
  process.on('message', (m) => {
    if (m !== 'stop') return;
    void ceiling.close().then(() => process.exit(0));
  });
});
