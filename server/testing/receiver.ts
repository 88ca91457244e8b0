import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
type Reply = { status?: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. `reply` decides each answer (by default 200
 * `{"ok":true}`); every request is kept, and `waitFor` resolves when enough have arrived (before any `delayMs` answer).
 */
export async function startReceiver(reply: (req: Received, n: number) => Reply = () => ({})) {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let replyFn = reply;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(entry);
      const r = replyFn(entry, received.length);
      // Waiters learn of a request when it arrives, not when it is answered: a test that holds the sender
      // open with `delayMs` acts while the call is still out (waking them after the delay let the sender
      // finish first, and a test of what happens meanwhile raced its own sender).
      for (const w of [...waiters]) {
        if (received.length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      const send = () => {
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
        res.end(r.body ?? '{"ok":true}');
      };
      if (r.delayMs) setTimeout(send, r.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    setReply(fn: typeof reply) {
      replyFn = fn;
    },
    waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} requests, got ${received.length}`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
