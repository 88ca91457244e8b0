/**
 * A sleep that `wake()` cuts short: the executor loops nap between passes and are woken by new work. A
 * wake while nobody sleeps is kept for the next sleep, which then returns at once: work that arrived
 * while a loop was busy (claiming, say) is not left until the nap's timeout.
 */
export class WakeableSleep {
  private wakeUp: (() => void) | undefined;
  private woken = false;

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
