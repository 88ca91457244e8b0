/**
 * A TCP proxy in front of PostgreSQL that counts round trips: every message after which the client waits
 * for the server is one: a simple Query ('Q'), a Sync ('S') ending an extended-protocol batch, or a Flush
 * ('H'), which postgres.js sends after Parse+Describe of a statement it has not prepared, to learn the
 * parameters' types before it sends Bind+Execute. (Counting the server's ReadyForQuery messages, as this
 * proxy first did, missed that second round trip of every unprepared statement.) The benches point a
 * server at it for a serial pass and read the count between requests; it also keeps the text of each
 * statement executed (Bind 'B' of a parsed statement, or a simple Query 'Q') so a run can print what one
 * request sent.
 */
import net from 'node:net';

export type PgProxy = {
  port: number;
  roundTrips: () => number;
  statements: () => string[];
  /** Texts of the named (prepared) statements parsed since the proxy started, over all connections, and how many times each was parsed. */
  prepared: () => Map<string, number>;
  reset: () => void;
  close: () => Promise<void>;
};

/** Splits a stream of protocol messages (type byte + int32 length) as chunks arrive. */
function messages(onMessage: (type: number, body: Buffer) => void, skipStartup: boolean) {
  let pending: Buffer = Buffer.alloc(0);
  let startup = skipStartup;
  return (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (startup) {
        // The client's first message (StartupMessage or SSLRequest) has no type byte.
        if (pending.length < 4) return;
        const len = pending.readInt32BE(0);
        if (pending.length < len) return;
        const code = pending.readInt32BE(4);
        pending = pending.subarray(len);
        if (code !== 80877103) startup = false; // an SSLRequest is followed by the real startup message
        continue;
      }
      if (pending.length < 5) return;
      const len = pending.readInt32BE(1);
      if (pending.length < len + 1) return;
      onMessage(pending[0]!, pending.subarray(5, len + 1));
      pending = pending.subarray(len + 1);
    }
  };
}

export async function startPgProxy(target = { host: '127.0.0.1', port: 5432 }): Promise<PgProxy> {
  let roundTrips = 0;
  let statements: string[] = [];
  const prepared = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const named = new Map<string, string>();
    const cstring = (b: Buffer, from: number) => b.subarray(from, b.indexOf(0, from)).toString();
    const fromClient = messages((type, body) => {
      if (type === 0x50) {
        // Parse: statement name, then the query text (both cstrings).
        const name = cstring(body, 0);
        const text = cstring(body, name.length + 1);
        named.set(name, text);
        if (name) prepared.set(text, (prepared.get(text) ?? 0) + 1);
      } else if (type === 0x42) {
        // Bind: portal name, then the statement name; one execution of that statement.
        const portal = cstring(body, 0);
        statements.push(named.get(cstring(body, portal.length + 1)) ?? '?');
      } else if (type === 0x51) statements.push(cstring(body, 0));
      // Query, Sync, Flush: the client now waits for the server.
      if (type === 0x51 || type === 0x53 || type === 0x48) roundTrips++;
    }, true);
    client.on('data', (c: Buffer) => (fromClient(c), upstream.write(c)));
    upstream.on('data', (c: Buffer) => client.write(c));
    const end = () => (client.destroy(), upstream.destroy(), sockets.delete(client), sockets.delete(upstream));
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    roundTrips: () => roundTrips,
    statements: () => statements,
    prepared: () => prepared,
    reset: () => ((roundTrips = 0), (statements = [])),
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}
