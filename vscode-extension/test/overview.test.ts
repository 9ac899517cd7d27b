import { describe, expect, it } from "vitest";
import { Uri } from "vscode";
import { docsTarget, overviewTargets, revealTarget, utf16Character } from "../src/overview";

const runs = ["/w/runs/a.jsonl"];

describe("what Show Run Overview sums up", () => {
  const active = Uri.file("/w/open.jsonl");
  it("takes the explorer's selection, then the clicked file, then the active run, else the workspace", () => {
    expect(overviewTargets(Uri.file("/w/x"), [Uri.file("/w/a"), Uri.file("/w/b")], active, true)).toEqual(["file:///w/a", "file:///w/b"]);
    expect(overviewTargets(Uri.file("/w/runs"), undefined, active, true)).toEqual(["file:///w/runs"]);
    expect(overviewTargets(undefined, undefined, active, true)).toEqual(["file:///w/open.jsonl"]);
    expect(overviewTargets(undefined, undefined, active, false)).toEqual([]);
  });
});

describe("messages from the page", () => {
  it("reveals only places in the page's runs", () => {
    expect(revealTarget({ command: "reveal", path: "/w/runs/a.jsonl", line: 2, column: 881 }, runs)).toEqual({ path: "/w/runs/a.jsonl", line: 2, column: 881 });
    expect(revealTarget({ command: "reveal", path: "/etc/passwd", line: 1, column: 1 }, runs)).toBeUndefined();
    expect(revealTarget({ command: "reveal", path: "/w/runs/a.jsonl", line: 0, column: 1 }, runs)).toBeUndefined();
    expect(revealTarget({ command: "reveal", path: "/w/runs/a.jsonl", line: "2; rm", column: 1 }, runs)).toBeUndefined();
    expect(revealTarget("reveal", runs)).toBeUndefined();
  });
  it("opens a rule's Markdown documentation or a web page, nothing else", () => {
    expect(docsTarget({ command: "open", uri: "file:///site/citelens/check/rules/length.md#run_id_length" })?.scheme).toBe("file");
    expect(docsTarget({ command: "open", uri: "https://example.org/rules/length.md#length" })?.scheme).toBe("https");
    expect(docsTarget({ command: "open", uri: "file:///home/me/.ssh/id_rsa" })).toBeUndefined();
    expect(docsTarget({ command: "open", uri: "command:workbench.action.terminal.new" })).toBeUndefined();
    expect(docsTarget({ command: "open", uri: "javascript:alert(1)" })).toBeUndefined();
  });
});

describe("code-point columns to the editor's UTF-16 characters", () => {
  it("counts an astral character as two units", () => {
    expect(utf16Character('{"a": "😀x"}', 1)).toBe(0);
    expect(utf16Character('{"a": "😀x"}', 9)).toBe(9); // after the emoji: one code point, two units
    expect(utf16Character("abc", 10)).toBe(3);
  });
});
