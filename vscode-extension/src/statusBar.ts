/**
 * The status-bar item: the spec in force for the active run and its error/warning counts;
 * a click picks another spec. Server trouble shows here too (instead of popups).
 */
import * as vscode from "vscode";
import { basename } from "node:path";
import type { CiteLensServer } from "./client";
import { projectSpec } from "./projectSpec";

export const SOURCE = "citelens";

export function counts(uri: vscode.Uri): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of vscode.languages.getDiagnostics(uri)) {
    if (d.source !== SOURCE) continue;
    if (d.severity === vscode.DiagnosticSeverity.Error) errors++;
    else if (d.severity === vscode.DiagnosticSeverity.Warning) warnings++;
  }
  return { errors, warnings };
}

export function isRunFile(doc: vscode.TextDocument | undefined): boolean {
  return !!doc && (doc.languageId === "jsonl" || doc.languageId === "json" || doc.fileName.endsWith(".jsonl"));
}

export class SpecStatus implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem("citelens.status", vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The spec the server reported for a file (its project file may override the setting). */
  private readonly serverSpec = new Map<string, string | null>();

  constructor(private readonly server: CiteLensServer) {
    this.item.name = "CiteLens";
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) this.update();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration("citelens.spec") && this.update()),
      server.onDidChangeState(() => this.update()),
    );
    const projectFiles = vscode.workspace.createFileSystemWatcher("**/{citelens.toml,pyproject.toml}");
    this.subscriptions.push(
      projectFiles,
      projectFiles.onDidChange(() => this.update()),
      projectFiles.onDidCreate(() => this.update()),
      projectFiles.onDidDelete(() => this.update()),
    );
    this.update();
  }

  rememberServerSpec(uri: vscode.Uri, spec: string | null | undefined): void {
    if (spec !== undefined) this.serverSpec.set(uri.toString(), spec);
    this.update();
  }

  /** The spec in force for a file and who set it: the server's word, a project file, the settings. */
  specSource(uri: vscode.Uri): { spec: string | undefined; from: string } {
    const known = this.serverSpec.get(uri.toString());
    if (known) return { spec: known, from: "the server" };
    if (uri.scheme === "file") {
      const project = projectSpec(uri.fsPath);
      if (project?.spec) return { spec: project.spec, from: basename(project.file) };
    }
    const setting = vscode.workspace.getConfiguration("citelens", uri).get<string>("spec", "") || undefined;
    return { spec: setting, from: "settings" };
  }

  specFor(uri: vscode.Uri): string | undefined {
    return this.specSource(uri).spec;
  }

  update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const state = this.server.state;
    if (state === "failed") {
      this.item.text = "$(error) CiteLens";
      this.item.tooltip = "The CiteLens server is not running. Click to see why (the log).";
      this.item.command = "citelens.showLog";
      this.item.accessibilityInformation = { label: "CiteLens server not running" };
      this.item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
      this.item.show();
      return;
    }
    this.item.backgroundColor = undefined;
    if (!isRunFile(doc) || !doc) {
      this.item.hide();
      return;
    }
    const source = this.specSource(doc.uri);
    const spec = source.spec ?? "no spec";
    const { errors, warnings } = counts(doc.uri);
    const busy = state === "starting" ? "$(sync~spin) " : "";
    this.item.text = `${busy}$(checklist) ${spec}  $(error) ${errors}  $(warning) ${warnings}`;
    const from = source.spec ? ` (from ${source.from})` : "";
    const wins = source.from.endsWith(".toml") ? ` ${source.from} wins over the settings; edit it to change the spec.` : " Click to choose the track spec.";
    this.item.tooltip = `CiteLens: track spec ${spec}${from}; ${errors} error(s), ${warnings} warning(s) in this file.${wins}`;
    this.item.command = "citelens.selectSpec";
    this.item.accessibilityInformation = { label: `CiteLens spec ${spec}, ${errors} errors, ${warnings} warnings` };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
