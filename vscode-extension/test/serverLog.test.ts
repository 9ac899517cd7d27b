import { describe, expect, it } from "vitest";
import { stderrLevel, stderrMessage } from "../src/serverLog";

describe("the server's stderr in the log", () => {
  it("keeps the server's level instead of logging every line as an error", () => {
    expect(stderrLevel("2026-11-30 15:43:02,044 citelens INFO citelens 0.1.0: utf-16 positions", "error")).toBe("info");
    expect(stderrLevel("2026-11-30 15:43:02,044 citelens WARNING settings: strict must be true or false", "info")).toBe("warn");
    expect(stderrLevel("2026-11-30 15:43:02,044 citelens DEBUG checked in 3 ms", "info")).toBe("debug");
    expect(stderrLevel("2026-11-30 15:43:02,044 citelens ERROR hover failed", "info")).toBe("error");
  });

  it("logs a traceback's lines as errors, and a continuation at the level before it", () => {
    expect(stderrLevel("Traceback (most recent call last):", "info")).toBe("error");
    expect(stderrLevel('  File "/x/hover.py", line 3, in hover', "info")).toBe("error");
    expect(stderrLevel("KeyError: 'doc'", "info")).toBe("error");
    expect(stderrLevel("  a wrapped second line", "warn")).toBe("warn");
  });

  it("drops the server's timestamp and level (the channel has its own)", () => {
    expect(stderrMessage("2026-11-30 15:43:02,044 citelens INFO no conversion to rag24")).toBe("no conversion to rag24");
    expect(stderrMessage("Traceback (most recent call last):")).toBe("Traceback (most recent call last):");
  });
});
