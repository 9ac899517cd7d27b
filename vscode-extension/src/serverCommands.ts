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
  convertFile: "citelens.convertFile",
  indexCorpus: "citelens.indexCorpus",
  showDocument: "citelens.showDocument",
  checkWorkspace: "citelens.checkWorkspace",
  runOverview: "citelens.runOverview",
} as const;

/** Extension commands whose ids the server also uses; the client must not register these. */
export const OWN_COMMANDS: ReadonlySet<string> = new Set([
  SERVER_COMMAND.convertFile,
  SERVER_COMMAND.indexCorpus,
  SERVER_COMMAND.showDocument,
  SERVER_COMMAND.checkWorkspace,
  "citelens.selectSpec",
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

/** `citelens.checkWorkspace()`: one entry per run file. */
export interface CheckSummary {
  files?: { uri: string; errors?: number; warnings?: number; error?: string }[];
  cancelled?: boolean;
}
