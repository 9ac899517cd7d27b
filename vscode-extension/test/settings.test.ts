import { beforeEach, describe, expect, it } from "vitest";
import { fake, LogLevel, Uri } from "vscode";
import { settingsFor } from "../src/editorSettings";
import { expandPath, reactionTo, serverSettings } from "../src/settings";

const ctx = { workspaceFolder: "/work/proj", home: "/home/ann" };

describe("expandPath", () => {
  it.each([
    ["~", "/home/ann"],
    ["~/topics.jsonl", "/home/ann/topics.jsonl"],
    ["${workspaceFolder}/topics.jsonl", "/work/proj/topics.jsonl"],
    ["${userHome}/corpus.jsonl.gz", "/home/ann/corpus.jsonl.gz"],
    ["  ${workspaceFolder}/a/${workspaceFolder}  ", "/work/proj/a//work/proj"],
    ["/abs/path.toml", "/abs/path.toml"],
    ["relative/spec.toml", "relative/spec.toml"],
    ["data/~backup.jsonl", "data/~backup.jsonl"], // ~ only at the start means home
    ["rag25", "rag25"], // a built-in spec id is not a path
  ])("%s -> %s", (value, expected) => {
    expect(expandPath(value, ctx)).toBe(expected);
  });

  it("leaves ${workspaceFolder} alone when no folder is open, so the server can name it", () => {
    expect(expandPath("${workspaceFolder}/t.jsonl", { home: "/h" })).toBe("${workspaceFolder}/t.jsonl");
  });

  it("does not treat $ sequences in the folder name as replacement patterns", () => {
    expect(expandPath("${workspaceFolder}/x", { workspaceFolder: "/w/$&$1", home: "/h" })).toBe("/w/$&$1/x");
  });
});

describe("serverSettings", () => {
  it("sends only the keys that are set, with paths and path lists expanded", () => {
    const values: Record<string, unknown> = {
      spec: "${workspaceFolder}/specs/mytrack.toml#t1",
      topics: "~/trec/topics.jsonl",
      corpora: ["${workspaceFolder}/corpus.jsonl", "", "~/idx"],
      files: ["runs/**/*.txt"],
      strict: true,
      support: false,
      severity: { citation_count: "ignore" },
      debounceMs: 0,
      inlayHints: false,
      interpreter: "/not/for/the/server",
    };
    expect(serverSettings((k) => values[k], ctx, "off")).toEqual({
      spec: "/work/proj/specs/mytrack.toml#t1",
      topics: "/home/ann/trec/topics.jsonl",
      corpora: ["/work/proj/corpus.jsonl", "/home/ann/idx"],
      files: ["runs/**/*.txt"],
      strict: true,
      support: false,
      severity: { citation_count: "ignore" },
      debounceMs: 0,
      inlayHints: false,
      trace: "off",
    });
  });

  it("sends the model judge's settings under the engine's names, with its paths expanded", () => {
    const values: Record<string, unknown> = {
      supportJudge: "llm",
      supportModel: { endpoint: "http://localhost:8000/v1", model: "m", nli_model: "~/models/nli", on_save: true },
    };
    expect(serverSettings((k) => values[k], ctx, undefined)).toEqual({
      support_judge: "llm",
      support_model: { endpoint: "http://localhost:8000/v1", model: "m", nli_model: "/home/ann/models/nli", on_save: true },
    });
    expect(serverSettings((k) => ({ supportModel: {}, supportJudge: "" })[k], ctx, undefined)).toEqual({});
  });

  it("drops empty strings so the project file or the server default applies", () => {
    expect(serverSettings((k) => (k === "spec" || k === "topics" ? "" : undefined), ctx, undefined)).toEqual({});
  });

  it("passes values of the wrong type through for the server to report", () => {
    expect(serverSettings((k) => (k === "strict" ? "yes" : undefined), ctx, undefined)).toEqual({ strict: "yes" });
  });
});

describe("settingsFor (through the vscode API)", () => {
  beforeEach(() => fake.reset());

  it("expands ${workspaceFolder} to the folder that owns the scope", () => {
    fake.addFolder("/w/a");
    fake.addFolder("/w/b");
    fake.settings[""] = { topics: "${workspaceFolder}/topics.jsonl", spec: "rag25" };
    fake.settings["/w/b"] = { spec: "ragtime25" };
    expect(settingsFor(Uri.file("/w/a"))).toMatchObject({ topics: "/w/a/topics.jsonl", spec: "rag25" });
    expect(settingsFor(Uri.file("/w/b"))).toMatchObject({ topics: "/w/b/topics.jsonl", spec: "ragtime25" });
  });

  it("for the window scope expands against the single open folder only", () => {
    fake.addFolder("/w/a");
    fake.settings[""] = { topics: "${workspaceFolder}/t.jsonl" };
    expect(settingsFor(undefined).topics).toBe("/w/a/t.jsonl");
    fake.addFolder("/w/b");
    expect(settingsFor(undefined).topics).toBe("${workspaceFolder}/t.jsonl");
  });

  it("sets the server's log level from the channel's level and the trace setting", () => {
    fake.logLevel = LogLevel.Debug;
    expect(settingsFor(undefined).trace).toBe("verbose");
    fake.logLevel = LogLevel.Warning;
    expect(settingsFor(undefined).trace).toBe("off");
    fake.settings[""] = { "trace.server": "messages" };
    expect(settingsFor(undefined).trace).toBe("messages");
  });
});

describe("reactionTo a configuration change", () => {
  const changed = (...keys: string[]) => (section: string) => keys.some((k) => k === section || k.startsWith(section + "."));

  it("restarts the server for a new interpreter or new file globs", () => {
    expect(reactionTo(changed("citelens.interpreter"))).toBe("restart");
    expect(reactionTo(changed("citelens.files"))).toBe("restart");
  });

  it("lets the running server re-read the other server settings", () => {
    for (const key of ["spec", "topics", "corpora", "strict", "support", "severity", "debounceMs", "inlayHints", "trace.server"]) {
      expect(reactionTo(changed(`citelens.${key}`))).toBe("reread");
    }
  });

  it("ignores settings of other extensions", () => {
    expect(reactionTo(changed("python.defaultInterpreterPath", "editor.fontSize"))).toBe("none");
  });
});
