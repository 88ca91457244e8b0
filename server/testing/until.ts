/**
 * Runs `check` every 20 ms until it answers something other than undefined or false, and answers that;
 * throws `timed out waiting for <what>` after `timeoutMs`.
 */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
