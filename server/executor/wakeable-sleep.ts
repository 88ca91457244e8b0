/** A sleep that `wake()` cuts short: the executor loops nap between passes and are woken by new work. */
export class WakeableSleep {
  private wakeUp: (() => void) | undefined;

  wake(): void {
    this.wakeUp?.();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }
}
