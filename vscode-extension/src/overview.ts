/**
 * "CiteLens: Show Run Overview": the page `citelens report` writes, made by the server
 * (`citelens.runOverview`) for the current run, the folders or files picked in the explorer,
 * or every run of the workspace, shown in a webview. The page is self-contained (its own
 * CSP; scripts and styles inline, allowed by hash), the webview may load no local resource
 * at all, and the only messages it acts on are "reveal" (a place in one of the runs on the
 * page) and "open" (a rule's documentation).
 */
import * as vscode from "vscode";

/** `citelens.runOverview(uris?)`: the page, and the runs it sums up (absolute paths). */
export interface OverviewAnswer {
  html?: string | null;
  runs?: string[];
  problems?: string[];
  reason?: string;
}

export interface RevealTarget {
  path: string;
  line: number; // 1-based
  column: number; // 1-based, in code points (as `citelens check` prints it)
}

/** What to sum up: the explorer's selection, else the file clicked, else the active run; [] = the workspace. */
export function overviewTargets(clicked: vscode.Uri | undefined, selected: vscode.Uri[] | undefined, active: vscode.Uri | undefined, activeIsRun: boolean): string[] {
  if (selected && selected.length) return selected.map((u) => u.toString());
  if (clicked) return [clicked.toString()];
  if (active && activeIsRun) return [active.toString()];
  return [];
}

/** A "reveal" message from the page, if it names a place in one of the page's runs. */
export function revealTarget(message: unknown, runs: readonly string[]): RevealTarget | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (m.command !== "reveal" || typeof m.path !== "string" || !runs.includes(m.path)) return undefined;
  const line = Number(m.line), column = Number(m.column);
  if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1 || column < 1) return undefined;
  return { path: m.path, line, column };
}

/** The documentation link of an "open" message: a rule's Markdown file, or a web page. */
export function docsTarget(message: unknown): vscode.Uri | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (m.command !== "open" || typeof m.uri !== "string") return undefined;
  if (!/^file:\/\/\/[^?#]*\.md(#[\w-]*)?$/.test(m.uri) && !/^https:\/\/[^\s]+$/.test(m.uri)) return undefined;
  return vscode.Uri.parse(m.uri, true);
}

/** The UTF-16 character offset of a 1-based code-point column in a line. */
export function utf16Character(lineText: string, column: number): number {
  let units = 0;
  let points = 0;
  for (const ch of lineText) {
    if (points >= column - 1) break;
    units += ch.length;
    points += 1;
  }
  return units;
}

export class OverviewPanel {
  private panel: vscode.WebviewPanel | undefined;
  private runs: string[] = [];

  /** Show (or refresh) the page. */
  show(answer: OverviewAnswer): void {
    if (!answer.html) return;
    this.runs = answer.runs ?? [];
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel("citelens.overview", "CiteLens: Run Overview", vscode.ViewColumn.Active, {
        enableScripts: true,
        enableForms: false,
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((message) => void this.onMessage(message));
    }
    this.panel.webview.html = answer.html;
    this.panel.reveal();
  }

  private async onMessage(message: unknown): Promise<void> {
    const place = revealTarget(message, this.runs);
    if (place) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(place.path));
      const line = Math.min(place.line - 1, doc.lineCount - 1);
      const character = utf16Character(doc.lineAt(line).text, place.column);
      const at = new vscode.Position(line, character);
      const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return;
    }
    const docs = docsTarget(message);
    if (docs?.scheme === "https") await vscode.env.openExternal(docs);
    else if (docs) await vscode.commands.executeCommand("markdown.showPreview", docs);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
