import { describe, expect, it } from "vitest";
import { projectSpec, specInToml } from "../src/projectSpec";

describe("specInToml", () => {
  it("reads a top-level spec of citelens.toml", () => {
    expect(specInToml('topics = "t.tsv"\nspec = "rag26"\n', "")).toEqual({ hasTable: true, spec: "rag26" });
  });
  it("reads spec only inside [tool.citelens] of a pyproject.toml", () => {
    const text = '[project]\nname = "x"\nspec = "no"\n\n[tool.citelens]\nspec = \'ragtime25\'\n[tool.other]\nspec = "no"\n';
    expect(specInToml(text, "tool.citelens")).toEqual({ hasTable: true, spec: "ragtime25" });
  });
  it("tells a pyproject without the table from one without a spec", () => {
    expect(specInToml('[project]\nname = "x"\n', "tool.citelens").hasTable).toBe(false);
    expect(specInToml('[tool.citelens]\nstrict = true\n', "tool.citelens")).toEqual({ hasTable: true, spec: undefined });
  });
});

describe("projectSpec", () => {
  const files: Record<string, string> = {
    "/w/citelens.toml": 'spec = "rag26"\n',
    "/w/kiddie/pyproject.toml": '[project]\nname = "k"\n', // no [tool.citelens]: the walk goes on
    "/w/other/pyproject.toml": '[tool.citelens]\nspec = "dragun25"\n',
    "/w/other/deep/citelens.toml": "strict = true\n",
  };
  const read = (p: string) => files[p];

  it("finds the nearest project file walking up from the run", () => {
    expect(projectSpec("/w/kiddie/runs/run1.jsonl", read)).toEqual({ file: "/w/citelens.toml", spec: "rag26" });
    expect(projectSpec("/w/other/run.jsonl", read)).toEqual({ file: "/w/other/pyproject.toml", spec: "dragun25" });
  });

  it("stops at a citelens.toml that sets no spec (the editor's setting applies)", () => {
    expect(projectSpec("/w/other/deep/run.jsonl", read)).toEqual({ file: "/w/other/deep/citelens.toml", spec: undefined });
  });

  it("is undefined with no project file at all", () => {
    expect(projectSpec("/elsewhere/run.jsonl", read)).toBeUndefined();
  });
});
