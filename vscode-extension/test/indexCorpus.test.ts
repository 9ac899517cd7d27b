import { describe, expect, it } from "vitest";
import { corporaEntry, indexArguments, indexOutcome, withCorpus } from "../src/indexCorpus";

describe("Index Corpus", () => {
  it("sends the picked paths as one list, and the index path only when given", () => {
    const picked = [{ fsPath: "/data/a.jsonl.gz" }, { fsPath: "/data/folder" }];
    expect(indexArguments(picked)).toEqual([["/data/a.jsonl.gz", "/data/folder"]]);
    expect(indexArguments(picked, "/tmp/idx.sqlite")).toEqual([["/data/a.jsonl.gz", "/data/folder"], "/tmp/idx.sqlite"]);
  });

  it("adds the index to citelens.corpora once, keeping what is there", () => {
    const entry = corporaEntry("/cache/idx.sqlite");
    expect(entry).toBe("index:/cache/idx.sqlite");
    expect(withCorpus(["docs.jsonl"], entry)).toEqual(["docs.jsonl", entry]);
    expect(withCorpus(undefined, entry)).toEqual([entry]);
    expect(withCorpus("not a list", entry)).toEqual([entry]);
    expect(withCorpus([entry, "x"], entry)).toBeUndefined();
  });

  it("says what the server did: built, cancelled (resumable) or failed", () => {
    const done = indexOutcome({ ok: true, db: "/c/i.sqlite", documents: 1500, added: 500, problems: ["a.jsonl:3: not JSON"] }, false);
    expect(done).toEqual({ kind: "done", db: "/c/i.sqlite", message: "Indexed 1,500 documents, 500 new documents in /c/i.sqlite (1 line skipped: see the log)." });
    expect(indexOutcome({ ok: true, db: "/c/i.sqlite", documents: 1, added: 1 }, false)?.message).toBe("Indexed 1 document in /c/i.sqlite.");
    const cancelled = indexOutcome({ ok: false, cancelled: true, reason: "cancelled; the next run resumes the index" }, true);
    expect(cancelled?.kind).toBe("cancelled");
    expect(cancelled?.message).toContain("resumes");
    expect(indexOutcome(undefined, true)?.kind).toBe("cancelled");
    expect(indexOutcome(undefined, false)).toBeUndefined(); // the server was down: already said
    expect(indexOutcome({ ok: false, reason: "/x: no such file or folder" }, false)).toEqual({
      kind: "failed",
      message: "CiteLens could not index: /x: no such file or folder",
    });
  });
});
