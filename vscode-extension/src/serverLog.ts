/**
 * The server's stderr in the log channel at the right level. The server writes
 * `<time> citelens LEVEL message` lines (and tracebacks under an error); the language
 * client would log every stderr line as an error.
 */
export type Level = "trace" | "debug" | "info" | "warn" | "error";

const LEVELS: Record<string, Level> = {
  DEBUG: "debug",
  INFO: "info",
  WARNING: "warn",
  ERROR: "error",
  CRITICAL: "error",
};

/** The level of one stderr line; lines without one (tracebacks) keep the previous line's. */
export function stderrLevel(line: string, previous: Level): Level {
  const m = /\bcitelens (DEBUG|INFO|WARNING|ERROR|CRITICAL)\b/.exec(line);
  if (m) return LEVELS[m[1]];
  if (/^(Traceback|\s+File "|\w+(Error|Exception)\b)/.test(line)) return "error";
  return previous;
}

/** The line without the server's own timestamp and level (the channel adds its own). */
export function stderrMessage(line: string): string {
  const m = /^\d{4}-\d\d-\d\d[ T][\d:,.]+ citelens (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (.*)$/.exec(line);
  return m ? m[1] : line;
}
