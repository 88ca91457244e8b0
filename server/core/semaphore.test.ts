import { describe, expect, it } from 'vitest';
import { Semaphore, type SemaphoreState } from './semaphore';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('Semaphore', () => {
  it('runs at most its capacity at once and hands slots over in arrival order', async () => {
    const s = new Semaphore(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const runs = gates.map((g, i) =>
      s.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await g.promise;
        running--;
        return i;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect(s.queued).toBe(2);
    gates[1]!.resolve();
    await new Promise((r) => setImmediate(r));
    // A caller arriving while every slot is held waits behind the ones already queued.
    const late = s.run(async () => {
      started.push(9);
      return 9;
    });
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    gates[3]!.resolve();
    expect(await Promise.all([...runs, late])).toEqual([0, 1, 2, 3, 9]);
    expect(started).toEqual([0, 1, 2, 3, 9]);
    expect(most).toBe(2);
    expect(s.state()).toEqual({ active: 0, capacity: 2, queued: 0, oldestHeldMs: 0 });
  });

  it('refuses a caller that waits past its timeout, telling how the slots stood, and frees nothing it did not hold', async () => {
    const s = new Semaphore(1);
    const hold = deferred();
    const holding = s.run(() => hold.promise);
    let seen: SemaphoreState | undefined;
    const refused = s.run(async () => 'ran', {
      timeoutMs: 30,
      onTimeout: (state) => {
        seen = state;
        return new Error('busy');
      },
    });
    await expect(refused).rejects.toThrow('busy');
    expect(seen).toMatchObject({ active: 1, capacity: 1, queued: 0 });
    expect(seen!.oldestHeldMs).toBeGreaterThanOrEqual(25);
    // The refused caller left the queue: the next one gets the slot when the holder lets go.
    const next = s.run(async () => 'next');
    expect(s.queued).toBe(1);
    hold.resolve();
    await holding;
    expect(await next).toBe('next');
    expect(s.state().active).toBe(0);
  });

  it('gives the slot back when the work throws', async () => {
    const s = new Semaphore(1);
    await expect(s.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await s.run(async () => 'after')).toBe('after');
    expect(s.state().active).toBe(0);
  });
});
