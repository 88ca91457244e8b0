import net from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on now: for a server a test starts, or to be refused. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
