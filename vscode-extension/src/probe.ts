/**
 * Does `citelens_server` import in an interpreter, and which CiteLens version is it?
 * Runs the interpreter once, with a timeout, before the language client starts it, so a
 * missing install is one clear message instead of a crashing server.
 */
import { execFile } from "node:child_process";

export type ProbeResult =
  | { ok: true; version: string }
  | { ok: false; kind: "no-interpreter" | "not-installed" | "broken"; detail: string };

const PROBE = [
  "import sys",
  "try:",
  "    import citelens, citelens_server",
  "except ModuleNotFoundError as e:",
  "    print('missing', e.name, file=sys.stderr); sys.exit(3)",
  "print(citelens.__version__)",
].join("\n");

export function probeServer(python: string, timeoutMs = 30000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(python, ["-c", PROBE], { timeout: timeoutMs, encoding: "utf8" }, (err, stdout, stderr) => {
      if (!err) {
        resolve({ ok: true, version: stdout.trim() });
        return;
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EACCES") {
        resolve({ ok: false, kind: "no-interpreter", detail: `${python} cannot be run (${code})` });
      } else if ((err as { code?: unknown }).code === 3) {
        resolve({ ok: false, kind: "not-installed", detail: stderr.trim() });
      } else {
        const last = stderr.trim().split("\n").slice(-1)[0] ?? err.message;
        resolve({ ok: false, kind: "broken", detail: last || err.message });
      }
    });
  });
}
