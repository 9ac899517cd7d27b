/**
 * The spec a project file sets for a run, for the status bar only (the server decides what
 * is checked). Mirrors how `citelens check` finds its config: the nearest `citelens.toml`,
 * or `pyproject.toml` with `[tool.citelens]`, walking up from the run's folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface ProjectSpec {
  /** The config file that governs the run. */
  file: string;
  /** Its `spec` value, or undefined when it sets none (then the editor's setting applies). */
  spec: string | undefined;
}

/** The `spec` key of a TOML text, inside `table` (`""` = top level, else e.g. `tool.citelens`). */
export function specInToml(text: string, table: string): { hasTable: boolean; spec: string | undefined } {
  let current = "";
  let hasTable = table === "";
  let spec: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      current = header[1].replace(/\s*\.\s*/g, ".");
      if (current === table) hasTable = true;
      continue;
    }
    if (current !== table) continue;
    const m = /^spec\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(line);
    if (m) spec = m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2];
  }
  return { hasTable, spec };
}

export function projectSpec(runPath: string, read: (p: string) => string | undefined = readText): ProjectSpec | undefined {
  let dir = dirname(runPath);
  for (;;) {
    for (const [name, table] of [
      ["citelens.toml", ""],
      ["pyproject.toml", "tool.citelens"],
    ] as const) {
      const file = join(dir, name);
      const text = read(file);
      if (text === undefined) continue;
      const found = specInToml(text, table);
      if (found.hasTable) return { file, spec: found.spec };
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function readText(path: string): string | undefined {
  try {
    return existsSync(path) ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

