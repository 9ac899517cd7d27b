/**
 * The server's `workspace/executeCommand` commands the extension calls, and the shapes of
 * their answers (server/citelens_server/features/commands.py). One table, so a rename is one edit.
 *
 * Some share their id with an extension command (citelens.convertFile, …): the extension
 * registers those ids itself (asking for what is missing when run from the palette, and
 * forwarding when a code action passes the arguments), and the language client registers
 * only the server's other commands (see client.ts).
 */
export const SERVER_COMMAND = {
  listSpecs: "citelens.listSpecs",
  specInForce: "citelens.specInForce",
  convertFile: "citelens.convertFile",
  indexCorpus: "citelens.indexCorpus",
  showDocument: "citelens.showDocument",
  checkWorkspace: "citelens.checkWorkspace",
  writeSetting: "citelens.writeSetting",
  judgeCitation: "citelens.judgeCitation",
  judgeFile: "citelens.judgeFile",
  runOverview: "citelens.runOverview",
} as const;

/** Extension commands whose ids the server also uses; the client must not register these. */
export const OWN_COMMANDS: ReadonlySet<string> = new Set([
  SERVER_COMMAND.convertFile,
  SERVER_COMMAND.indexCorpus,
  SERVER_COMMAND.showDocument,
  SERVER_COMMAND.checkWorkspace,
  SERVER_COMMAND.judgeCitation,
  SERVER_COMMAND.judgeFile,
  "citelens.selectSpec",
  // the server's "Set track spec…" action: in VS Code, the extension's spec picker
  "citelens.pickSpec",
  "citelens.restartServer",
  "citelens.installServer",
  "citelens.selectInterpreter",
  "citelens.showLog",
  "citelens.showOverview",
]);

export interface SpecInfo {
  id: string;
  description?: string;
  /** Errors the current file would have under this spec, when the server says. */
  errors?: number;
}

export interface SpecList {
  specs: SpecInfo[];
  /** The spec in force for the file asked about, and where it comes from. */
  active?: string | null;
  source?: string | null;
  /** The track the file looks like (when no spec is configured), first in `specs`. */
  guess?: { spec: string; confidence: number; reasons: string[] } | null;
}

/** `citelens.writeSetting(uri, key, value, {dryRun, append})`: where the setting went. */
export interface WriteAnswer {
  applied: boolean;
  /** The project file and table, in words ("pyproject.toml [tool.citelens]"). */
  where?: string;
  path?: string;
  /** The project file does not exist yet. */
  created?: boolean;
  reason?: string;
}

/** `citelens.showDocument(uri, line, character)`: the document cited at a position. */
export interface ShownDocument {
  id?: string;
  title?: string | null;
  text: string;
  origin?: string | null;
  /** The read-only view as the server renders it (a header, then the text). */
  content?: string;
  /** The evidence to select, 0-based: in `content` when the server sends it, else in `text`. */
  selection?: { start: { line: number; character: number }; end: { line: number; character: number } };
  verdict?: string;
}

/** `citelens.indexCorpus(corpora, db?)`: the index built, or why not. */
export interface IndexAnswer {
  ok: boolean;
  db?: string;
  cancelled?: boolean;
  reason?: string;
  documents?: number;
  added?: number;
  problems?: string[];
}

/** `citelens.convertFile(uri, target)`: the server applies the edit itself. */
export interface ConvertAnswer {
  applied: boolean;
  reason?: string;
  lost?: string[];
}

/** One run of `citelens.checkWorkspace()`. */
export interface RunEntry {
  uri: string;
  spec?: string | null;
  errors?: number;
  warnings?: number;
  /** Shares of the judged sentences, when support is on and something was judged. */
  support?: { supported: number; partial: number; unsupported: number } | null;
  notJudged?: string | null;
  error?: string;
}

/** `citelens.checkWorkspace()`: one entry per run file, and the summary in the CLI's words. */
export interface CheckSummary {
  files?: RunEntry[];
  summary?: string;
  cancelled?: boolean;
}

/** `citelens.judgeCitation` / `citelens.judgeFile`: what the model judge did, or why not. */
export interface JudgeAnswer {
  ok: boolean;
  judge?: string;
  calls?: number;
  answered?: number;
  failed?: number;
  cancelled?: boolean;
  reason?: string;
}

/** The message a judging answer gets (undefined: nothing to say, the request was cancelled here). */
export function judgeMessage(answer: JudgeAnswer | undefined, what: string): { ok: boolean; text: string } | undefined {
  if (!answer) return undefined;
  if (!answer.ok) return { ok: false, text: `CiteLens could not judge ${what}: ${answer.reason ?? "no reason given"}.` };
  const failed = answer.failed ? `; ${answer.failed} call(s) failed (those keep the word matcher's verdict)` : "";
  const stopped = answer.cancelled ? " (cancelled; the answers so far are kept)" : "";
  return { ok: true, text: `CiteLens: ${answer.judge} judged ${what}: ${answer.answered ?? 0} of ${answer.calls ?? 0} call(s) answered${failed}${stopped}.` };
}
