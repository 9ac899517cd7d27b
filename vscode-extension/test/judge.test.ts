import { describe, expect, it } from "vitest";
import { judgeMessage, OWN_COMMANDS, SERVER_COMMAND } from "../src/serverCommands";

describe("judging with the model", () => {
  it("says what the model judged", () => {
    expect(judgeMessage({ ok: true, judge: "llm:qwen", calls: 3, answered: 3 }, "the file")).toEqual({
      ok: true,
      text: "CiteLens: llm:qwen judged the file: 3 of 3 call(s) answered.",
    });
  });

  it("says which calls failed and that a cancel keeps the answers", () => {
    const m = judgeMessage({ ok: true, judge: "llm:q", calls: 4, answered: 1, failed: 2, cancelled: true }, "the file");
    expect(m?.text).toContain("2 call(s) failed");
    expect(m?.text).toContain("cancelled; the answers so far are kept");
  });

  it("passes on why the server could not judge", () => {
    expect(judgeMessage({ ok: false, reason: "no model judge is set up" }, "the citation")).toEqual({
      ok: false,
      text: "CiteLens could not judge the citation: no model judge is set up.",
    });
    expect(judgeMessage(undefined, "the file")).toBeUndefined();
  });

  it("registers its own palette commands (the client must not register the server's)", () => {
    expect(OWN_COMMANDS.has(SERVER_COMMAND.judgeCitation)).toBe(true);
    expect(OWN_COMMANDS.has(SERVER_COMMAND.judgeFile)).toBe(true);
  });
});
