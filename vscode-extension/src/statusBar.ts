/**
 * The status-bar item: the spec in force for the active run and its error/warning counts;
 * a click picks another spec. Server trouble shows here too (instead of popups).
 */
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { serverOffers, type CiteLensServer } from "./client";
import { SERVER_COMMAND } from "./serverCommands";
import { SpecInForceCache, sourceLabel, type SpecInForce } from "./specInForce";

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
  /** The spec the server checks each file with (its project file or an override may set it). */
  private readonly inForce: SpecInForceCache;

  constructor(private readonly server: CiteLensServer) {
    this.item.name = "CiteLens";
    this.inForce = new SpecInForceCache(
      (uri) => this.askServer(uri),
      (uri) => uri === vscode.window.activeTextEditor?.document.uri.toString() && this.update(),
    );
    const changed = () => {
      this.inForce.forget();
      this.update();
    };
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) this.update();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration("citelens") && changed()),
      server.onDidChangeState(changed),
    );
    const projectFiles = vscode.workspace.createFileSystemWatcher("**/{citelens.toml,pyproject.toml}");
    this.subscriptions.push(projectFiles, projectFiles.onDidChange(changed), projectFiles.onDidCreate(changed), projectFiles.onDidDelete(changed));
    this.update();
  }

  rememberServerSpec(uri: vscode.Uri, spec: string | null | undefined, source?: string | null): void {
    if (spec !== undefined) this.inForce.set(uri.toString(), { spec, source: source ?? null });
    this.update();
  }

  /** `citelens.specInForce` for one file; undefined while the server cannot answer. */
  private async askServer(uri: string): Promise<SpecInForce | undefined> {
    const client = this.server.client;
    if (!client?.isRunning() || !serverOffers(client, SERVER_COMMAND.specInForce)) return undefined;
    return (await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMAND.specInForce, arguments: [uri] })) as SpecInForce;
  }

  /**
   * The spec in force for a file and who set it, as the server resolves it (the project
   * file or the `[[overrides]]` table that applies); the folder's setting until it answers.
   */
  specSource(uri: vscode.Uri): { spec: string | undefined; from: string; project: boolean } {
    const known = uri.scheme === "file" ? this.inForce.get(uri.toString()) : undefined;
    if (known) {
      if (known.error) return { spec: undefined, from: "a project file that cannot be read", project: true };
      const project = !!known.source && /\.toml\b/.test(known.source);
      return { spec: known.spec ?? undefined, from: sourceLabel(known.source), project };
    }
    const setting = vscode.workspace.getConfiguration("citelens", uri).get<string>("spec", "") || undefined;
    return { spec: setting, from: "settings", project: false };
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
    const wins = source.project ? ` ${source.from} wins over the settings; edit it to change the spec.` : " Click to choose the track spec.";
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
