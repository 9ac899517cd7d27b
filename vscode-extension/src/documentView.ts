/**
 * What a `citelens-doc:` document shows, kept apart from the editor wiring so it can be
 * tested without VS Code: where its URI says the citation is, its text, the evidence
 * range to select, and the client capability that tells the server we show them.
 */
import type { StaticFeature } from "vscode-languageclient";
import type { ShownDocument } from "./serverCommands";

export interface CitedAt {
  uri: string;
  line: number;
  character: number;
}

/** Where a `citelens-doc:` URI says the citation is (also the URIs the server's go to definition builds). */
export function citedAt(uri: { query: string }): CitedAt | undefined {
  try {
    const where = JSON.parse(uri.query) as CitedAt;
    return typeof where.uri === "string" && typeof where.line === "number" ? where : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tells the server this client shows `citelens-doc:` documents, so go to definition may
 * answer with one for a document no file holds as written.
 */
export function virtualDocumentsFeature(): StaticFeature {
  return {
    fillClientCapabilities(capabilities) {
      capabilities.experimental = { ...(capabilities.experimental as object | undefined), citelensDocuments: true };
    },
    initialize() {},
    getState: () => ({ kind: "static" }),
    clear() {},
  };
}

type Span = { start: { line: number; character: number }; end: { line: number; character: number } };

/** The evidence's range in the virtual document's text (see `documentText`). */
export function selectionIn(shown: ShownDocument): Span | undefined {
  const sel = shown.selection;
  if (!sel) return undefined;
  if (typeof shown.content === "string") return sel; // the server's range is in its own rendering
  const skip = headerLines(shown);
  return { start: { line: sel.start.line + skip, character: sel.start.character }, end: { line: sel.end.line + skip, character: sel.end.character } };
}

function header(shown: ShownDocument): string[] {
  return [shown.id && `id: ${shown.id}`, shown.title && `title: ${shown.title}`, shown.origin && `from: ${shown.origin}`].filter(
    (line): line is string => !!line,
  );
}

function headerLines(shown: ShownDocument): number {
  const head = header(shown);
  return head.length ? head.length + 1 : 0;
}

/**
 * The virtual document's text: the server's rendering (`content`) when it sends one, else a
 * short header (id, title, origin), then the document.
 */
export function documentText(shown: ShownDocument): string {
  if (typeof shown.content === "string") return shown.content;
  const head = header(shown);
  return head.length ? `${head.join("\n")}\n\n${shown.text}` : shown.text;
}
