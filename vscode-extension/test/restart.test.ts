import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RestartScheduler } from "../src/restart";

/** A restart that takes `ms` of (fake) time and records overlaps. */
function recorder(ms = 100, fail = false) {
  const calls: string[][] = [];
  let active = 0;
  let maxActive = 0;
  const restart = async (reasons: string[]) => {
    calls.push(reasons);
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((r) => setTimeout(r, ms));
    active--;
    if (fail) throw new Error("server did not start");
  };
  return { calls, restart, maxActive: () => maxActive };
}

describe("restart debounce", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("folds a burst of setting changes into one restart after the quiet period", async () => {
    const r = recorder();
    const s = new RestartScheduler(r.restart, 500);
    for (let i = 0; i < 5; i++) {
      s.request("settings changed");
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(r.calls).toHaveLength(0); // still inside the quiet period after the last change
    await vi.advanceTimersByTimeAsync(500);
    expect(r.calls).toEqual([["settings changed"]]);
  });

  it("keeps every distinct reason of the folded requests", async () => {
    const r = recorder();
    const s = new RestartScheduler(r.restart, 500);
    s.request("settings changed");
    s.request("interpreter selected in the Python extension");
    await vi.advanceTimersByTimeAsync(600);
    expect(r.calls).toEqual([["settings changed", "interpreter selected in the Python extension"]]);
  });

  it("runs exactly one more restart for requests that arrive during a restart, never two at once", async () => {
    const r = recorder(1000);
    const s = new RestartScheduler(r.restart, 100);
    s.request("a");
    await vi.advanceTimersByTimeAsync(150); // restart "a" is running
    s.request("b");
    await vi.advanceTimersByTimeAsync(150);
    s.request("c");
    await vi.advanceTimersByTimeAsync(150);
    void s.now("command");
    await vi.advanceTimersByTimeAsync(5000);
    expect(r.maxActive()).toBe(1);
    expect(r.calls).toHaveLength(2);
    expect(r.calls[1]).toEqual(expect.arrayContaining(["b", "c", "command"]));
    expect(s.pending).toBe(false);
  });

  it("does not retry a failed restart by itself (no restart loop)", async () => {
    const r = recorder(50, true);
    const s = new RestartScheduler(r.restart, 100);
    s.request("settings changed");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.calls).toHaveLength(1);
    expect(s.pending).toBe(false);
  });

  it("restarts at once on the command and drops the pending debounced request", async () => {
    const r = recorder(10);
    const s = new RestartScheduler(r.restart, 500);
    s.request("settings changed");
    const done = s.now("command");
    await vi.advanceTimersByTimeAsync(20);
    await done;
    expect(r.calls).toEqual([["settings changed", "command"]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.calls).toHaveLength(1);
  });

  it("forgets a pending request when disposed", async () => {
    const r = recorder();
    const s = new RestartScheduler(r.restart, 500);
    s.request("settings changed");
    s.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.calls).toHaveLength(0);
  });
});
