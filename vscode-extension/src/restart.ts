/**
 * Coalesces restart requests: many requests inside `delayMs` make one restart; a request
 * arriving while a restart runs makes exactly one more afterwards (never two at once);
 * a failed restart is not retried on its own (no restart loops).
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class RestartScheduler {
  private timer: unknown;
  private running: Promise<void> | undefined;
  private again = false;
  private reasons: string[] = [];

  constructor(
    private readonly restart: (reasons: string[]) => Promise<void>,
    private readonly delayMs = 500,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Ask for a restart `delayMs` from now; earlier pending requests fold into it. */
  request(reason: string): void {
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.fire();
    }, this.delayMs);
  }

  /** Restart now (the command), still never overlapping a running restart. */
  now(reason: string): Promise<void> {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
    return this.fire();
  }

  get pending(): boolean {
    return this.timer !== undefined || this.running !== undefined;
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async fire(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const reasons = this.reasons;
    this.reasons = [];
    this.running = (async () => {
      try {
        await this.restart(reasons);
      } catch {
        // reported by `restart` itself; a failure waits for the next request
      } finally {
        this.running = undefined;
      }
      if (this.again) {
        this.again = false;
        await this.fire();
      }
    })();
    return this.running;
  }
}
