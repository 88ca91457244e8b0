/** Next calls this once per server process, before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { bootServer } = await import('./server/boot');
    await bootServer();
  }
}
