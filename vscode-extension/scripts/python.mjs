// Which Python the build uses: $CITELENS_PYTHON, else the repository's .venv, else python3.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const extensionRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = resolve(extensionRoot, "..");

export function buildPython() {
  if (process.env.CITELENS_PYTHON) return process.env.CITELENS_PYTHON;
  const venv = join(repoRoot, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}
