import type { getMemberCaller } from '@/app/_trpc/server';

const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** The next two weeks of free slots of a schedule, as the member may see them. */
export async function freeTimes(caller: Awaited<ReturnType<typeof getMemberCaller>>, scheduleId: number) {
  return caller.me.slots({ id: scheduleId, from: day(0), to: day(14) });
}
