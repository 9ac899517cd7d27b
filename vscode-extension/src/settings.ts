/**
 * The `citelens.*` settings the server reads, and the path expansion the server cannot do
 * itself (`${workspaceFolder}` and `~` are editor notions). Pure: no `vscode` import, so the
 * rules are unit-tested without an editor.
 */

/** How a server setting's value is treated before it is sent. */
type Kind = "path" | "paths" | "globs" | "plain" | "model";

/** Setting key (under `citelens.`) -> how its value is expanded. Data, not code. */
export const SERVER_SETTINGS: Readonly<Record<string, Kind>> = {
  spec: "path", // a built-in id passes through untouched (no separator, no variable)
  topics: "path",
  corpora: "paths",
  files: "globs",
  strict: "plain",
  support: "plain",
  supportJudge: "plain",
  supportModel: "model", // its folder and file paths expanded
  severity: "plain",
  debounceMs: "plain",
  inlayHints: "plain",
};

/** The server's name of a setting whose key here is camel-cased (the engine's are snake_case). */
const SERVER_NAMES: Readonly<Record<string, string>> = { supportJudge: "support_judge", supportModel: "support_model" };

/** The keys of a `supportModel` object that are paths. */
const MODEL_PATHS = ["nli_model", "prompt"];

/** Settings that only the client reads; a change to `interpreter` restarts the server. */
export const CLIENT_SETTINGS = ["interpreter", "trace.server"] as const;

export interface ExpansionContext {
  /** File system path of the workspace folder the setting belongs to, if any. */
  workspaceFolder?: string;
  /** The user's home directory. */
  home: string;
}

/**
 * `value` with `${workspaceFolder}`, `${userHome}` and a leading `~` replaced. A variable
 * that cannot be resolved (no folder open) is left as it is, so the server's message names
 * it instead of a half-expanded path.
 */
export function expandPath(value: string, ctx: ExpansionContext): string {
  let out = value.trim();
  if (out === "~" || out.startsWith("~/") || out.startsWith("~\\")) {
    out = ctx.home + out.slice(1);
  }
  out = out.replace(/\$\{userHome\}/g, () => ctx.home);
  if (ctx.workspaceFolder !== undefined) {
    const folder = ctx.workspaceFolder;
    out = out.replace(/\$\{workspaceFolder\}/g, () => folder);
  }
  return out;
}

/** A glob: variables expanded; a relative glob stays relative (the server anchors it). */
function expandGlob(value: string, ctx: ExpansionContext): string {
  return expandPath(value, ctx);
}

/**
 * The object the server receives (as `initializationOptions` and for
 * `workspace/configuration`): every known key that has a value, paths expanded. Empty
 * strings mean "not set" and are dropped, so the server's own default (or the project
 * file) applies.
 */
export function serverSettings(
  read: (key: string) => unknown,
  ctx: ExpansionContext,
  trace: string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(SERVER_SETTINGS)) {
    const value = read(key);
    if (value === undefined || value === null || value === "") continue;
    if (kind === "model" && typeof value === "object" && !Array.isArray(value)) {
      const table: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      if (Object.keys(table).length === 0) continue;
      for (const k of MODEL_PATHS) if (typeof table[k] === "string") table[k] = expandPath(table[k] as string, ctx);
      out[SERVER_NAMES[key] ?? key] = table;
    } else if (key in SERVER_NAMES) out[SERVER_NAMES[key]] = value;
    else if (kind === "path" && typeof value === "string") out[key] = expandPath(value, ctx);
    else if (kind === "paths" && Array.isArray(value))
      out[key] = value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => expandPath(v, ctx));
    else if (kind === "globs" && Array.isArray(value))
      out[key] = value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => expandGlob(v, ctx));
    else out[key] = value; // wrong types go through: the server names them in its log
  }
  if (trace) out.trace = trace;
  return out;
}

/**
 * Whether a configuration change needs a new server process: another interpreter, or other
 * file globs (the documents the client sends are fixed when it starts). Everything else the
 * running server re-reads (`workspace/didChangeConfiguration`), keeping its caches.
 */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects("citelens.interpreter") || affects("citelens.files");
}

/** Whether a configuration change concerns the settings the server reads. */
export function affectsServer(affects: (section: string) => boolean): boolean {
  return Object.keys(SERVER_SETTINGS).some((key) => affects(`citelens.${key}`));
}

/** What a configuration change calls for: a new server, a re-read, or nothing. */
export function reactionTo(affects: (section: string) => boolean): "restart" | "reread" | "none" {
  if (needsRestart(affects)) return "restart";
  if (affectsServer(affects) || affects("citelens.trace.server")) return "reread";
  return "none";
}
