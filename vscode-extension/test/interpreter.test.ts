import { beforeEach, describe, expect, it } from "vitest";
import { fake, Uri } from "vscode";
import { interpreterFor } from "../src/editorSettings";
import { DEFAULT_PYTHON, resolveInterpreter, type PythonEnvironments } from "../src/interpreter";

const ctx = { workspaceFolder: "/work/proj", home: "/home/ann" };

/** A Python extension whose selected environment per folder is `selected[folder]`. */
function pythonApi(selected: Record<string, string>): PythonEnvironments {
  return {
    getActiveEnvironmentPath: (resource) => {
      const path = selected[(resource as Uri | undefined)?.fsPath ?? ""];
      return path ? { id: path, path } : undefined;
    },
    resolveEnvironment: async (env) => {
      const path = typeof env === "string" ? env : env.path;
      return { executable: { uri: { fsPath: path } } };
    },
  };
}

describe("resolveInterpreter", () => {
  it("takes citelens.interpreter first, expanding ~ and ${workspaceFolder}", async () => {
    const python = pythonApi({ "": "/usr/bin/python3.12" });
    expect((await resolveInterpreter({ configured: "${workspaceFolder}/.venv/bin/python", ctx, python })).command).toBe(
      "/work/proj/.venv/bin/python",
    );
    const home = await resolveInterpreter({ configured: "~/envs/cl/bin/python", ctx, python });
    expect(home).toMatchObject({ command: "/home/ann/envs/cl/bin/python", source: "setting" });
  });

  it("uses the Python extension's selected interpreter when the setting is empty", async () => {
    const got = await resolveInterpreter({ configured: "  ", ctx, python: pythonApi({ "": "/opt/conda/bin/python" }) });
    expect(got).toMatchObject({ command: "/opt/conda/bin/python", source: "python-extension" });
  });

  it("falls back to python3 when the Python extension has nothing selected", async () => {
    const got = await resolveInterpreter({ configured: "", ctx, python: pythonApi({}) });
    expect(got).toMatchObject({ command: DEFAULT_PYTHON, source: "default" });
    expect(got.reason).toContain("no interpreter selected");
  });

  it("falls back to python3, saying why, when the Python extension's API throws", async () => {
    const broken: PythonEnvironments = {
      getActiveEnvironmentPath: () => {
        throw new Error("environments not ready");
      },
      resolveEnvironment: async () => undefined,
    };
    const got = await resolveInterpreter({ configured: undefined, ctx, python: broken });
    expect(got.command).toBe(DEFAULT_PYTHON);
    expect(got.reason).toContain("environments not ready");
  });

  it("falls back to python3 when the selected environment has no executable", async () => {
    const noExe: PythonEnvironments = {
      getActiveEnvironmentPath: () => ({ id: "x", path: "/envs/x" }),
      resolveEnvironment: async () => ({ executable: {} }),
    };
    expect((await resolveInterpreter({ configured: undefined, ctx, python: noExe })).command).toBe(DEFAULT_PYTHON);
  });

  it("uses python3 on the PATH without the Python extension", async () => {
    expect(await resolveInterpreter({ configured: undefined, ctx })).toMatchObject({ command: "python3", source: "default" });
  });
});

describe("interpreterFor (through the vscode API)", () => {
  beforeEach(() => fake.reset());

  it("reads the setting of the resource's own workspace folder", async () => {
    fake.addFolder("/w/a");
    fake.addFolder("/w/b");
    fake.settings["/w/b"] = { interpreter: "${workspaceFolder}/venv/bin/python" };
    expect((await interpreterFor(Uri.file("/w/b/runs/run1.jsonl"))).command).toBe("/w/b/venv/bin/python");
    expect((await interpreterFor(Uri.file("/w/a/run.jsonl"))).command).toBe("python3");
  });

  it("asks the installed Python extension for the folder's interpreter, activating it first", async () => {
    fake.addFolder("/w/a");
    let activated = false;
    const exports = { ready: Promise.resolve(), environments: pythonApi({ "/w/a": "/w/a/.venv/bin/python" }) };
    fake.extensions["ms-python.python"] = {
      isActive: false,
      exports: undefined,
      activate: async () => {
        activated = true;
        return exports;
      },
    };
    const got = await interpreterFor(Uri.file("/w/a/run.jsonl"));
    expect(activated).toBe(true);
    expect(got).toMatchObject({ command: "/w/a/.venv/bin/python", source: "python-extension" });
  });

  it("still prefers citelens.interpreter over the Python extension", async () => {
    fake.addFolder("/w/a");
    fake.settings[""] = { interpreter: "/usr/local/bin/python3.11" };
    fake.extensions["ms-python.python"] = {
      isActive: true,
      exports: { environments: pythonApi({ "/w/a": "/w/a/.venv/bin/python" }) },
      activate: async () => undefined,
    };
    expect((await interpreterFor(Uri.file("/w/a/run.jsonl"))).command).toBe("/usr/local/bin/python3.11");
  });

  it("falls back to python3 when the Python extension fails to activate", async () => {
    fake.addFolder("/w/a");
    fake.extensions["ms-python.python"] = {
      isActive: false,
      exports: undefined,
      activate: async () => {
        throw new Error("activation failed");
      },
    };
    expect((await interpreterFor(Uri.file("/w/a/run.jsonl"))).command).toBe("python3");
  });
});

describe("an untrusted workspace", () => {
  it("runs neither the Python extension's choice nor a path into the workspace", async () => {
    const python = pythonApi({ "": "/work/proj/.venv/bin/python" });
    const viaExtension = await resolveInterpreter({ configured: "", ctx, python, trusted: false });
    expect(viaExtension).toMatchObject({ command: DEFAULT_PYTHON, source: "default" });
    expect(viaExtension.reason).toContain("not trusted");
    const intoWorkspace = await resolveInterpreter({ configured: "${workspaceFolder}/.venv/bin/python", ctx, python, trusted: false });
    expect(intoWorkspace).toMatchObject({ command: DEFAULT_PYTHON, source: "default" });
    // the user's own interpreter elsewhere still applies (VS Code gives only user values then)
    const own = await resolveInterpreter({ configured: "~/envs/cl/bin/python", ctx, python, trusted: false });
    expect(own).toMatchObject({ command: "/home/ann/envs/cl/bin/python", source: "setting" });
  });

  it("is what interpreterFor asks VS Code about", async () => {
    fake.reset();
    fake.addFolder("/work/proj");
    fake.settings[""] = { interpreter: "${workspaceFolder}/.venv/bin/python" };
    expect((await interpreterFor(Uri.file("/work/proj/run.jsonl"))).command).toBe("/work/proj/.venv/bin/python");
    fake.trusted = false;
    expect((await interpreterFor(Uri.file("/work/proj/run.jsonl"))).command).toBe(DEFAULT_PYTHON);
    fake.reset();
  });
});
