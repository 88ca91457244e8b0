/**
 * bench/send-path: the CPU one signed webhook POST costs the sending process, for the executor's send
 * path (server/webhooks/http.ts `postJson`, a dispatch handler of its own) beside bare undici requests
 * (`request`, and `dispatch` with a bare handler, bench/webhooks' second ceiling) and the pieces that differ. The
 * executor's drain is CPU-bound on this machine, so a microsecond per post here is a microsecond per
 * delivery there. Every variant posts the same signed bodies to a receiver in another process, 64 at once,
 * rounds interleaved; the table shows the fastest and median round (this machine's neighbours are noisy).
 */
import { EventEmitter } from 'node:events';
import { Agent, request } from 'undici';
import { dispatchPost, percentile, printTable, startReceiverProcess } from './lib';

const PORT = 3302;
const CONCURRENCY = 64;
const POSTS = 15_000;
const ROUNDS = 5;

export async function benchSendPath(): Promise<void> {
  const { postJson } = await import('@/server/webhooks/http');
  const { signatureHeader } = await import('@/server/webhooks/signing');
  const body = JSON.stringify({ event: 'member_create', projectId: 1, params: { name: 'x' }, responseData: { id: 1, name: 'x' } });
  const headers = (i: number) => {
    const ts = Math.floor(Date.now() / 1000);
    const id = String(i);
    return { 'content-type': 'application/json', 'user-agent': 'Carebase/bench', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], id, ts, body) };
  };
  const url = (i: number) => `http://127.0.0.1:${PORT}/w${i % 10}`;
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 128 });
  const post = (i: number, signal?: AbortSignal | EventEmitter) => request(url(i), { method: 'POST', dispatcher: agent, headers: headers(i), body, signal });

  const variants: [string, (i: number) => Promise<unknown>][] = [
    ['undici request, body dumped (the request ceiling)', async (i) => (await post(i)).body.dump()],
    ['+ AbortSignal.timeout', async (i) => (await post(i, AbortSignal.timeout(15_000))).body.dump()],
    [
      '+ EventEmitter signal and one timer',
      async (i) => {
        const signal = new EventEmitter();
        const timer = setTimeout(() => signal.emit('abort'), 15_000);
        try {
          await (await post(i, signal)).body.dump();
        } finally {
          clearTimeout(timer);
        }
      },
    ],
    ['undici dispatch, a bare handler (the dispatch ceiling)', (i) => dispatchPost(agent, new URL(url(i)), headers(i), body)],
    ['postJson (the executor\'s send)', (i) => postJson(url(i), headers(i), body, { timeoutMs: 15_000 })],
  ];

  const receiver = await startReceiverProcess(PORT);
  const runOnce = async (fn: (i: number) => Promise<unknown>, total: number) => {
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) await fn(++next);
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    return { usPerPost: (cpu.user + cpu.system) / total, postsPerS: total / ((performance.now() - t0) / 1000) };
  };
  for (const [, fn] of variants) await runOnce(fn, 3_000); // warm-up: JIT, connections
  const results = new Map<string, { usPerPost: number; postsPerS: number }[]>(variants.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [name, fn] of variants) results.get(name)!.push(await runOnce(fn, POSTS));
  receiver.stop();
  await agent.close();

  printTable(
    `send path: CPU of the sending process per POST (${ROUNDS} rounds of ${POSTS.toLocaleString('en')}, ${CONCURRENCY} at once)`,
    [...results].map(([name, runs]) => ({
      variant: name,
      'µs/post best': Math.round(Math.min(...runs.map((r) => r.usPerPost))),
      'µs/post median': Math.round(percentile(runs.map((r) => r.usPerPost), 50)),
      'posts/s median': Math.round(percentile(runs.map((r) => r.postsPerS), 50)),
    })),
  );
}
