/**
 * A request body read to its end, or null as soon as it passes `maxBytes` (the rest is not read; the
 * caller answers 413 and closes the connection). Route handlers have no size limit of their own, so
 * bytes are counted as they stream in, whatever Content-Length claims.
 */
export async function readBoundedBody(req: Request, maxBytes: number): Promise<Buffer | null> {
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
