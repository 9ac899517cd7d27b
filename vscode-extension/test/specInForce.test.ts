import { describe, expect, it } from "vitest";
import { SpecInForceCache, sourceLabel, type SpecInForce } from "../src/specInForce";

/** A server stand-in: answers per file as the session resolves them, when told to. */
function server(answers: Record<string, SpecInForce>) {
  const pending: Array<() => void> = [];
  const asked: string[] = [];
  const ask = (uri: string) =>
    new Promise<SpecInForce | undefined>((resolve) => {
      asked.push(uri);
      pending.push(() => resolve(answers[uri]));
    });
  const answerAll = async () => {
    for (const answer of pending.splice(0)) answer();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { ask, asked, answerAll };
}

const PYPROJECT = "/w/pyproject.toml";
const ANSWERS: Record<string, SpecInForce> = {
  "file:///w/rag25/baseline.jsonl": { spec: "rag25", source: PYPROJECT },
  "file:///w/ragtime/T1_run_1.jsonl": { spec: "ragtime26", source: `${PYPROJECT} [[tool.citelens.overrides]] #1 (ragtime/*.jsonl)` },
};

describe("SpecInForceCache", () => {
  it("shows each file the spec of the override that applies to it, as the server says", async () => {
    const s = server(ANSWERS);
    const changed: string[] = [];
    const cache = new SpecInForceCache(s.ask, (uri) => changed.push(uri));
    expect(cache.get("file:///w/ragtime/T1_run_1.jsonl")).toBeUndefined(); // asked, not answered yet
    expect(cache.get("file:///w/rag25/baseline.jsonl")).toBeUndefined();
    await s.answerAll();
    expect(cache.get("file:///w/ragtime/T1_run_1.jsonl")?.spec).toBe("ragtime26");
    expect(cache.get("file:///w/rag25/baseline.jsonl")?.spec).toBe("rag25");
    expect(changed).toEqual(["file:///w/ragtime/T1_run_1.jsonl", "file:///w/rag25/baseline.jsonl"]);
  });

  it("asks once per file until something changes", async () => {
    const s = server(ANSWERS);
    const cache = new SpecInForceCache(s.ask, () => undefined);
    cache.get("file:///w/rag25/baseline.jsonl");
    cache.get("file:///w/rag25/baseline.jsonl");
    await s.answerAll();
    cache.get("file:///w/rag25/baseline.jsonl");
    expect(s.asked).toEqual(["file:///w/rag25/baseline.jsonl"]);
    cache.forget(); // a project file or a setting changed
    expect(cache.get("file:///w/rag25/baseline.jsonl")).toBeUndefined();
    expect(s.asked.length).toBe(2);
  });

  it("drops an answer to a question asked before a change", async () => {
    const answers = { ...ANSWERS };
    const s = server(answers);
    const cache = new SpecInForceCache(s.ask, () => undefined);
    cache.get("file:///w/ragtime/T1_run_1.jsonl");
    cache.forget(); // the override was edited while the server was answering
    answers["file:///w/ragtime/T1_run_1.jsonl"] = { spec: "ragtime25", source: "/w/ragtime/citelens.toml" };
    cache.get("file:///w/ragtime/T1_run_1.jsonl");
    await s.answerAll();
    expect(cache.get("file:///w/ragtime/T1_run_1.jsonl")?.spec).toBe("ragtime25");
  });

  it("asks again after a server that could not answer", async () => {
    const s = server({});
    const cache = new SpecInForceCache(s.ask, () => undefined);
    cache.get("file:///w/a.jsonl");
    await s.answerAll(); // undefined: the server is not running yet
    cache.get("file:///w/a.jsonl");
    expect(s.asked).toEqual(["file:///w/a.jsonl", "file:///w/a.jsonl"]);
  });
});

describe("sourceLabel", () => {
  it("names the project file and its table without the folder", () => {
    expect(sourceLabel(`${PYPROJECT} [[tool.citelens.overrides]] #1 (ragtime/*.jsonl)`)).toBe(
      "pyproject.toml [[tool.citelens.overrides]] #1 (ragtime/*.jsonl)",
    );
    expect(sourceLabel("C:\\w\\kiddie\\citelens.toml")).toBe("citelens.toml");
    expect(sourceLabel(null)).toBe("settings");
  });
});
