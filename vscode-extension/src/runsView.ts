/**
 * "Check All Runs": one entry per run (its spec, errors, warnings, support shares) in the
 * CiteLens Runs view, and the summary in the CLI's words. Clicking an entry opens the run.
 */
import * as vscode from "vscode";
import type { CheckSummary, RunEntry } from "./serverCommands";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The summary as `citelens check` prints it: `3 errors, 2 warnings in 2 files`. */
export function summaryLine(result: CheckSummary): string {
  if (result.summary) return result.summary;
  const files = result.files ?? [];
  const errors = files.reduce((n, f) => n + (f.errors ?? 0), 0);
  const warnings = files.reduce((n, f) => n + (f.warnings ?? 0), 0);
  return `${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(files.length, "file")}`;
}

/** What one entry shows: the run's name, then spec, counts and support shares. */
export function runDescription(entry: RunEntry): string {
  if (entry.error) return `not checked: ${entry.error}`;
  const parts = [entry.spec ?? "no spec", `${plural(entry.errors ?? 0, "error")}, ${plural(entry.warnings ?? 0, "warning")}`];
  const s = entry.support;
  if (s) parts.push(`supported ${pct(s.supported)}, partial ${pct(s.partial)}, unsupported ${pct(s.unsupported)}`);
  else if (entry.notJudged) parts.push(entry.notJudged);
  return parts.join(" · ");
}

function pct(x: number): string {
  return `${Math.round(100 * x)}%`;
}

/** Runs with errors first, then warnings, then by path. */
export function ordered(files: RunEntry[]): RunEntry[] {
  return [...files].sort(
    (a, b) =>
      Number(!!b.error) - Number(!!a.error) ||
      (b.errors ?? 0) - (a.errors ?? 0) ||
      (b.warnings ?? 0) - (a.warnings ?? 0) ||
      a.uri.localeCompare(b.uri),
  );
}

export class RunsView implements vscode.TreeDataProvider<RunEntry>, vscode.Disposable {
  static readonly id = "citelens.runs";
  private entries: RunEntry[] = [];
  private readonly changed = new vscode.EventEmitter<RunEntry | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  message = "Run “CiteLens: Check All Runs in Workspace” to list the runs here.";

  show(result: CheckSummary): void {
    this.entries = ordered(result.files ?? []);
    this.message = `${result.cancelled ? "Cancelled: " : ""}${summaryLine(result)}`;
    this.changed.fire(undefined);
  }

  getChildren(element?: RunEntry): RunEntry[] {
    return element ? [] : this.entries;
  }

  getTreeItem(entry: RunEntry): vscode.TreeItem {
    const uri = vscode.Uri.parse(entry.uri);
    const item = new vscode.TreeItem(vscode.workspace.asRelativePath(uri), vscode.TreeItemCollapsibleState.None);
    item.description = runDescription(entry);
    item.tooltip = `${uri.fsPath}\n${item.description}`;
    item.resourceUri = uri;
    item.iconPath = new vscode.ThemeIcon(entry.error ? "question" : entry.errors ? "error" : entry.warnings ? "warning" : "pass");
    item.command = { command: "vscode.open", title: "Open Run", arguments: [uri] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
