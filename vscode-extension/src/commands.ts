/** The extension's commands: each a thin call to the server (or the editor) with progress. */
import * as vscode from "vscode";
import type { CiteLensServer } from "./client";
import { logChannel } from "./log";
import { SERVER_COMMAND, type SpecInfo, type SpecList } from "./serverCommands";
import { isRunFile, type SpecStatus } from "./statusBar";
import { SCHEME, type CitedDocuments } from "./virtualDocuments";

/** Built-in specs as the extension was built with them (package.json), for when the server cannot say. */
export function builtinSpecs(packageJSON: any): SpecInfo[] {
  const branch = packageJSON?.contributes?.configuration?.properties?.["citelens.spec"]?.anyOf?.[0];
  const ids: string[] = branch?.enum ?? [];
  const descriptions: string[] = branch?.enumDescriptions ?? [];
  return ids.map((id, i) => ({ id, description: descriptions[i] })).filter((s) => s.id !== "");
}

export class Commands {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: CiteLensServer,
    private readonly status: SpecStatus,
    private readonly documents: CitedDocuments,
  ) {}

  /** Run a server command; undefined (and a log line) when the server is down or fails. */
  async run<T>(command: string, args: unknown[], token?: vscode.CancellationToken): Promise<T | undefined> {
    const client = this.server.client;
    if (!client?.isRunning()) {
      void vscode.window.showWarningMessage("The CiteLens server is not running.", "Open Log").then((c) => c && logChannel().show());
      return undefined;
    }
    try {
      return (await client.sendRequest("workspace/executeCommand", { command, arguments: args }, token)) as T;
    } catch (err) {
      if (token?.isCancellationRequested) {
        logChannel().info(`${command}: cancelled`);
        return undefined;
      }
      logChannel().error(`${command}: ${String(err)}`);
      void vscode.window.showErrorMessage(`CiteLens: ${String((err as Error).message ?? err)}`, "Open Log").then((c) => c && logChannel().show());
      return undefined;
    }
  }

  private activeRun(): vscode.TextDocument | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return isRunFile(doc) ? doc : undefined;
  }

  /** The specs to offer for a file: the server's list (with its ranking), else the built-ins. */
  private async specs(uri: vscode.Uri | undefined): Promise<SpecList> {
    const fromServer = this.server.client?.isRunning()
      ? await this.run<SpecList>(SERVER_COMMAND.listSpecs, [{ uri: uri?.toString() }]).catch(() => undefined)
      : undefined;
    if (fromServer && Array.isArray(fromServer.specs) && fromServer.specs.length) return fromServer;
    return { specs: builtinSpecs(this.context.extension.packageJSON) };
  }

  private async pickSpec(title: string, uri: vscode.Uri | undefined): Promise<string | undefined> {
    const list = await this.specs(uri);
    if (uri) this.status.rememberServerSpec(uri, list.active);
    const items = list.specs.map((s) => ({
      label: s.id,
      description: s.id === list.active ? "(in force)" : s.errors !== undefined ? `${s.errors} error(s) in this file` : undefined,
      detail: s.description,
    }));
    const placeHolder =
      list.source && list.source !== "editor" && list.source !== "settings"
        ? `Now ${list.active ?? "no spec"}, set by ${list.source} (a project file wins over the editor's settings)`
        : "Track spec";
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder, matchOnDetail: true });
    return picked?.label;
  }

  async selectSpec(): Promise<void> {
    const doc = this.activeRun();
    const spec = await this.pickSpec("CiteLens: Select Track Spec", doc?.uri);
    if (!spec) return;
    await vscode.workspace.getConfiguration("citelens", doc?.uri).update("spec", spec, vscode.ConfigurationTarget.Workspace);
    logChannel().info(`citelens.spec = ${spec} (workspace settings)`);
    if (doc) this.status.rememberServerSpec(doc.uri, null);
  }

  async convertFile(): Promise<void> {
    const doc = this.activeRun();
    if (!doc) {
      void vscode.window.showInformationMessage("Open a run file (.jsonl) to convert it.");
      return;
    }
    const spec = await this.pickSpec("CiteLens: Convert File to Spec…", doc.uri);
    if (!spec) return;
    const result = await this.run<any>(SERVER_COMMAND.convertFile, [{ uri: doc.uri.toString(), spec, version: doc.version }]);
    if (!result) return;
    const edit = result.edit ?? (result.changes || result.documentChanges ? result : null);
    if (edit && this.server.client) {
      const wsEdit = await this.server.client.protocol2CodeConverter.asWorkspaceEdit(edit);
      if (!wsEdit || !(await vscode.workspace.applyEdit(wsEdit))) {
        void vscode.window.showErrorMessage("CiteLens: the conversion could not be applied (the file changed meanwhile?).");
        return;
      }
    }
    const losses: string[] = Array.isArray(result.losses) ? result.losses : [];
    logChannel().info(`Converted ${doc.uri.fsPath} to ${spec}${losses.length ? `; lost: ${losses.join("; ")}` : ""}`);
    if (losses.length) void vscode.window.showInformationMessage(`Converted to ${spec}. Lost in the conversion: ${losses.join("; ")}`);
  }

  async indexCorpus(uri?: vscode.Uri): Promise<void> {
    const target =
      uri ??
      (
        await vscode.window.showOpenDialog({
          title: "CiteLens: corpus file to index",
          canSelectMany: false,
          filters: { "Corpus files": ["jsonl", "gz", "json", "tsv"] },
        })
      )?.[0];
    if (!target) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `CiteLens: indexing ${vscode.workspace.asRelativePath(target)}`, cancellable: true },
      async (_progress, token) => {
        const result = await this.run<any>(SERVER_COMMAND.indexCorpus, [{ path: target.fsPath, uri: target.toString() }], token);
        if (result !== undefined && !token.isCancellationRequested) {
          logChannel().info(`Indexed ${target.fsPath}: ${JSON.stringify(result)}`);
        }
      },
    );
  }

  async checkWorkspace(): Promise<void> {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "CiteLens: checking the runs in the workspace", cancellable: true },
      async (_progress, token) => {
        const result = await this.run<any>(SERVER_COMMAND.checkWorkspace, [], token);
        if (result !== undefined && !token.isCancellationRequested) {
          logChannel().info(`Workspace check: ${JSON.stringify(result)}`);
          await vscode.commands.executeCommand("workbench.actions.view.problems");
        }
      },
    );
  }

  /** The cited document under the cursor: the server's definition, opened read-only. */
  async showDocument(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    const locations = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      "vscode.executeDefinitionProvider",
      editor.document.uri,
      editor.selection.active,
    );
    const first = locations?.[0];
    if (!first) {
      void vscode.window.showInformationMessage("Put the cursor on a citation (a doc id or a reference index) to see the cited document.");
      return;
    }
    const target = "targetUri" in first ? first.targetUri : first.uri;
    const range = "targetUri" in first ? (first.targetSelectionRange ?? first.targetRange) : first.range;
    if (target.scheme === SCHEME) {
      await this.documents.open(target);
      const shown = vscode.window.activeTextEditor;
      if (shown && range && shown.document.uri.toString() === target.toString()) {
        shown.selection = new vscode.Selection(range.start, range.end);
        shown.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
    } else {
      await vscode.window.showTextDocument(target, { selection: range, viewColumn: vscode.ViewColumn.Beside });
    }
  }
}
