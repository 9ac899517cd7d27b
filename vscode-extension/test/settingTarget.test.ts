import { describe, expect, it } from "vitest";
import { relativeCorpus, relativeTo, targetItems } from "../src/settingTarget";

describe("where a setting is written", () => {
  it("offers the project file first when there is one, keeping its other keys", () => {
    const items = targetItems({ applied: false, where: "pyproject.toml [[tool.citelens.overrides]] #1", created: false }, "runs");
    expect(items.map((i) => i.target)).toEqual(["project", "folder"]);
    expect(items[0].description).toContain("pyproject.toml [[tool.citelens.overrides]] #1; other keys and comments kept");
  });

  it("offers the folder settings first when a project file would have to be made", () => {
    const items = targetItems({ applied: false, where: "a new citelens.toml", created: true }, "runs");
    expect(items.map((i) => [i.target, i.label])).toEqual([
      ["folder", "Workspace folder settings"],
      ["project", "New project file"],
    ]);
  });

  it("offers only the folder settings when the server cannot say", () => {
    expect(targetItems(undefined, "runs").map((i) => i.target)).toEqual(["folder"]);
  });

  it("writes paths inside the folder relative to it", () => {
    expect(relativeTo("/w", "/w/rag25/topics.jsonl")).toBe("rag25/topics.jsonl");
    expect(relativeTo("/w", "/elsewhere/topics.jsonl")).toBe("/elsewhere/topics.jsonl");
    expect(relativeTo(undefined, "/w/t.jsonl")).toBe("/w/t.jsonl");
    expect(relativeCorpus("/w", "index:/w/.citelens/docs.sqlite")).toBe("index:.citelens/docs.sqlite");
    expect(relativeCorpus("/w", "/cache/citelens/docs.sqlite")).toBe("/cache/citelens/docs.sqlite");
  });
});
