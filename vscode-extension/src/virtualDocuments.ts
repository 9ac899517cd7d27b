/**
 * `citelens-doc:` read-only documents: the text of a cited source document, from the
 * server's show-document command, so go to definition and "Show Cited Document" open it.
 * The URI's path names the document; its query carries what the server needs to find it.
 */
import * as vscode from "vscode";
import type { CiteLensServer } from "./client";
import { SERVER_COMMAND, type ShownDocument } from "./serverCommands";

export const SCHEME = "citelens-doc";

export class CitedDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly cache = new Map<string, ShownDocument>();

  constructor(private readonly server: CiteLensServer) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const shown = await this.fetch(uri, token);
    return shown?.text ?? `CiteLens could not load ${uri.toString(true)}: the server is not running or does not know this document.`;
  }

  /** The server's answer for a `citelens-doc:` URI (cached per URI). */
  async fetch(uri: vscode.Uri, token?: vscode.CancellationToken): Promise<ShownDocument | undefined> {
    const key = uri.toString();
    const hit = this.cache.get(key);
    if (hit) return hit;
    const client = this.server.client;
    if (!client?.isRunning()) return undefined;
    try {
      const shown = (await client.sendRequest(
        "workspace/executeCommand",
        { command: SERVER_COMMAND.showDocument, arguments: [{ uri: key }] },
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
    const sel = shown?.selection;
    if (sel) {
      const range = new vscode.Range(sel.start.line, sel.start.character, sel.end.line, sel.end.character);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  clear(): void {
    this.cache.clear();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
