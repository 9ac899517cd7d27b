/**
 * The server's `workspace/executeCommand` commands the extension calls, and the shapes of
 * their answers (see server/citelens_server). One table, so a rename is one edit.
 */
export const SERVER_COMMAND = {
  listSpecs: "citelens.server.specs",
  convertFile: "citelens.server.convertFile",
  indexCorpus: "citelens.server.indexCorpus",
  showDocument: "citelens.server.showDocument",
  checkWorkspace: "citelens.server.checkWorkspace",
} as const;

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

export interface ShownDocument {
  text: string;
  title?: string;
  /** Evidence to select: 0-based line/character, UTF-16 like VS Code. */
  selection?: { start: { line: number; character: number }; end: { line: number; character: number } };
}
