/**
 * Which Python runs the server: `citelens.interpreter`, else the interpreter the Python
 * extension has selected for the resource, else `python3` on the PATH. Pure over the
 * `PythonEnvironments` shape below, so resolution is unit-tested without an editor.
 */
import { expandPath, type ExpansionContext } from "./settings";

/** The part of the Python extension's public API (`exports.environments`) used here. */
export interface PythonEnvironments {
  getActiveEnvironmentPath(resource?: unknown): { id: string; path: string } | undefined;
  resolveEnvironment(
    env: { id: string; path: string } | string,
  ): Promise<{ executable: { uri?: { fsPath: string } } } | undefined>;
}

export type InterpreterSource = "setting" | "python-extension" | "default";

export interface Interpreter {
  /** The Python executable. */
  command: string;
  source: InterpreterSource;
  /** What the user should read in the log about how it was chosen. */
  reason: string;
}

export const DEFAULT_PYTHON = "python3";

export interface ResolveInput {
  /** Raw `citelens.interpreter` value for the resource. */
  configured: string | undefined;
  ctx: ExpansionContext;
  /** The Python extension's API, when that extension is installed (and activated). */
  python?: PythonEnvironments;
  /** The resource (workspace folder URI) the server is started for. */
  resource?: unknown;
  /**
   * VS Code's workspace trust. In an untrusted workspace no program the workspace could
   * provide is run: not the Python extension's choice (it may be a `.venv` of the
   * repository), not a setting that points into the workspace folder.
   */
  trusted?: boolean;
}

export async function resolveInterpreter(input: ResolveInput): Promise<Interpreter> {
  const configured = input.configured?.trim();
  const trusted = input.trusted ?? true;
  if (configured && !trusted && configured.includes("${workspaceFolder}")) {
    return {
      command: DEFAULT_PYTHON,
      source: "default",
      reason: `the workspace is not trusted, so citelens.interpreter (${configured}) is not run from it; using ${DEFAULT_PYTHON} on the PATH`,
    };
  }
  if (configured) {
    return {
      command: expandPath(configured, input.ctx),
      source: "setting",
      reason: "from the setting citelens.interpreter",
    };
  }
  if (input.python && !trusted) {
    return {
      command: DEFAULT_PYTHON,
      source: "default",
      reason: `the workspace is not trusted, so the interpreter selected in the Python extension (it may be the workspace's own) is not run; using ${DEFAULT_PYTHON} on the PATH`,
    };
  }
  if (input.python) {
    try {
      const active = input.python.getActiveEnvironmentPath(input.resource);
      if (active) {
        const resolved = await input.python.resolveEnvironment(active);
        const exe = resolved?.executable.uri?.fsPath;
        if (exe) {
          return { command: exe, source: "python-extension", reason: "selected in the Python extension" };
        }
      }
    } catch (err) {
      return {
        command: DEFAULT_PYTHON,
        source: "default",
        reason: `the Python extension could not say which interpreter is selected (${String(err)}); using ${DEFAULT_PYTHON} on the PATH`,
      };
    }
    return {
      command: DEFAULT_PYTHON,
      source: "default",
      reason: `no interpreter selected in the Python extension; using ${DEFAULT_PYTHON} on the PATH`,
    };
  }
  return { command: DEFAULT_PYTHON, source: "default", reason: `${DEFAULT_PYTHON} on the PATH (no setting, no Python extension)` };
}
