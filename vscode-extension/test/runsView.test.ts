import { describe, expect, it } from "vitest";
import { ordered, runDescription, summaryLine } from "../src/runsView";

describe("Check All Runs view", () => {
  const files = [
    { uri: "file:///w/ragtime/T1.jsonl", spec: "ragtime26", errors: 0, warnings: 0 },
    { uri: "file:///w/rag25/baseline.jsonl", spec: "rag25", errors: 1, warnings: 2, support: { supported: 0.5, partial: 0.25, unsupported: 0.25 } },
    { uri: "file:///w/broken.jsonl", error: "pyproject.toml:3: unknown setting 'spek'" },
  ];

  it("shows each run's spec, counts and support shares", () => {
    expect(runDescription(files[1])).toBe("rag25 · 1 error, 2 warnings · supported 50%, partial 25%, unsupported 25%");
    expect(runDescription(files[0])).toBe("ragtime26 · 0 errors, 0 warnings");
    expect(runDescription({ uri: "x", errors: 0, warnings: 0, notJudged: "not judged: no documents; pass --docs or set corpora" })).toBe(
      "no spec · 0 errors, 0 warnings · not judged: no documents; pass --docs or set corpora",
    );
    expect(runDescription(files[2])).toBe("not checked: pyproject.toml:3: unknown setting 'spek'");
  });

  it("lists unreadable runs, then runs with errors, first", () => {
    expect(ordered(files).map((f) => f.uri)).toEqual(["file:///w/broken.jsonl", "file:///w/rag25/baseline.jsonl", "file:///w/ragtime/T1.jsonl"]);
  });

  it("says the summary in the CLI's words", () => {
    expect(summaryLine({ files, summary: "1 error, 2 warnings in 2 files (4 reports)" })).toBe("1 error, 2 warnings in 2 files (4 reports)");
    expect(summaryLine({ files })).toBe("1 error, 2 warnings in 3 files");
  });
});
