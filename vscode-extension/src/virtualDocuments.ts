/**
 * `citelens-doc:` read-only documents: the text of a cited source document, from the
 * server's show-document command, so go to definition and "Show Cited Document" open it.
 * The URI's path names the document; its query carries what the server needs to find it.
 */
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import type { CiteLensServer } from "./client";
import { citedAt, documentText, selectionIn, type CitedAt } from "./documentView";
import { SERVER_COMMAND, type ShownDocument } from "./serverCommands";

export const SCHEME = "citelens-doc";

/**
 * `citelens-doc:/<doc id>.txt?<where>`: the document cited at a position of a run (the query
 * says where, so the provider can ask the server again after a reload).
 */
export function citedDocumentUri(runUri: string, line: number, character: number, docId?: string): vscode.Uri {
  const where: CitedAt = { uri: runUri, line, character };
  const name = (docId ?? "cited document").replace(/[\\/]/g, "_");
  return vscode.Uri.from({ scheme: SCHEME, path: `/${name}.txt`, query: JSON.stringify(where) });
}

export class CitedDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly cache = new Map<string, ShownDocument>();

  constructor(private readonly server: CiteLensServer) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const shown = await this.fetch(uri, token);
    if (shown) return documentText(shown);
    return `CiteLens could not load ${uri.toString(true)}: the server is not running or does not know this document.`;
  }

  /** The server's answer for a `citelens-doc:` URI (cached per URI). */
  async fetch(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<ShownDocument | undefined> {
    const key = uri.toString();
    const hit = this.cache.get(key);
    if (hit) return hit;
    const client = this.server.client;
    const where = citedAt(uri);
    if (!client?.isRunning() || !where) return undefined;
    try {
      const shown = (await client.sendRequest(
        ExecuteCommandRequest.type,
        { command: SERVER_COMMAND.showDocument, arguments: [where.uri, where.line, where.character] },
        token,
      )) as ShownDocument | null;
      if (shown && typeof shown.text === "string") {
        if (this.cache.size > 50) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(key, shown);
        return shown;
      }
    } catch (err) {
      const { logChannel } = await import("./log");
      logChannel().warn(`show document ${key}: ${String(err)}`);
    }
    return undefined;
  }

  /** Open a cited document, with its evidence selected when the server gives it. */
  async open(uri: vscode.Uri): Promise<void> {
    const shown = await this.fetch(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    const range = shown ? selectionIn(shown) : undefined;
    if (range) {
      const r = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
      editor.selection = new vscode.Selection(r.start, r.end);
      editor.revealRange(r, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  /** Keep an answer under another URI (the one named after the document). */
  remember(uri: vscode.Uri, shown: ShownDocument): void {
    this.cache.set(uri.toString(), shown);
  }

  clear(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
