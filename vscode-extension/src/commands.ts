/** The extension's commands: each a thin call to the server (or the editor) with progress. */
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { serverOffers, type CiteLensServer } from "./client";
import { logChannel } from "./log";
import { CORPUS_FILTERS, corporaEntry, indexArguments, indexOutcome, withCorpus } from "./indexCorpus";
import { SERVER_COMMAND, type CheckSummary, type ConvertAnswer, type IndexAnswer, type SpecInfo, type SpecList } from "./serverCommands";
import { OverviewPanel, overviewTargets, type OverviewAnswer } from "./overview";
import { isRunFile, type SpecStatus } from "./statusBar";
import { citedDocumentUri, type CitedDocuments } from "./virtualDocuments";

/** Built-in specs as the extension was built with them (package.json), for when the server cannot say. */
export function builtinSpecs(packageJSON: any): SpecInfo[] {
  const branch = packageJSON?.contributes?.configuration?.properties?.["citelens.spec"]?.anyOf?.[0];
  const ids: string[] = branch?.enum ?? [];
  const descriptions: string[] = branch?.enumDescriptions ?? [];
  return ids.map((id, i) => ({ id, description: descriptions[i] })).filter((s) => s.id !== "");
}

export class Commands {
  readonly overview = new OverviewPanel();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly server: CiteLensServer,
    private readonly status: SpecStatus,
    private readonly documents: CitedDocuments,
  ) {}

  /** Run a server command; undefined (and a log line) when the server is down or fails. */
  async run<T>(command: string, args: unknown[], token?: vscode.CancellationToken, quiet = false): Promise<T | undefined> {
    const client = this.server.client;
    if (!client?.isRunning()) {
      if (!quiet) void vscode.window.showWarningMessage("The CiteLens server is not running.", "Open Log").then((c) => c && logChannel().show());
      return undefined;
    }
    if (!serverOffers(client, command)) {
      if (!quiet) void vscode.window.showWarningMessage(`This CiteLens server (${this.server.version ?? "unknown version"}) does not offer ${command}.`);
      logChannel().warn(`the server does not offer ${command}`);
      return undefined;
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token)) as T;
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
      ? await this.run<SpecList>(SERVER_COMMAND.listSpecs, [uri?.toString()], undefined, true)
      : undefined;
    if (fromServer && Array.isArray(fromServer.specs) && fromServer.specs.length) return fromServer;
    return { specs: builtinSpecs(this.context.extension.packageJSON) };
  }

  private async pickSpec(title: string, uri: vscode.Uri | undefined): Promise<string | undefined> {
    const list = await this.specs(uri);
    if (uri && list.active !== undefined) this.status.rememberServerSpec(uri, list.active);
    const inForce = uri ? this.status.specSource(uri) : undefined;
    const active = list.active ?? inForce?.spec;
    const from = list.source ?? inForce?.from;
    const items = list.specs.map((s) => ({
      label: s.id,
      description: s.id === active ? "(in force)" : s.errors !== undefined ? `${s.errors} error(s) in this file` : undefined,
      detail: s.description,
    }));
    const placeHolder =
      from && from.endsWith(".toml")
        ? `Now ${active ?? "no spec"}, set by ${from}: a project file wins over the editor's settings`
        : `Now ${active ?? "no spec"}`;
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder, matchOnDetail: true });
    return picked?.label;
  }

  async selectSpec(): Promise<void> {
    const doc = this.activeRun();
    const spec = await this.pickSpec("CiteLens: Select Track Spec", doc?.uri);
    if (spec) await this.writeSpec(doc?.uri, spec);
  }

  /** Writes citelens.spec to the workspace settings (a project citelens.toml still wins). */
  private async writeSpec(uri: vscode.Uri | undefined, spec: string): Promise<void> {
    await vscode.workspace.getConfiguration("citelens", uri).update("spec", spec, vscode.ConfigurationTarget.Workspace);
    logChannel().info(`citelens.spec = ${spec} (workspace settings)`);
  }

  /**
   * Convert File to Spec…: the server converts the whole file and applies the edit itself
   * (one undo step). From a code action the arguments come filled in; from the palette
   * the file is the active one and the spec is picked.
   */
  async convertFile(uriArg?: unknown, targetArg?: unknown): Promise<void> {
    const uri = typeof uriArg === "string" ? vscode.Uri.parse(uriArg) : this.activeRun()?.uri;
    if (!uri) {
      void vscode.window.showInformationMessage("Open a run file (.jsonl) to convert it.");
      return;
    }
    const target = typeof targetArg === "string" ? targetArg : await this.pickSpec("CiteLens: Convert File to Spec…", uri);
    if (!target) return;
    const answer = await this.run<ConvertAnswer>(SERVER_COMMAND.convertFile, [uri.toString(), target]);
    if (!answer) return;
    if (!answer.applied) {
      logChannel().warn(`Converting ${uri.fsPath} to ${target}: ${answer.reason ?? "not applied"}`);
      void vscode.window.showWarningMessage(`CiteLens could not convert the file to ${target}: ${answer.reason ?? "the edit was not applied"}.`);
      return;
    }
    const lost = answer.lost ?? [];
    logChannel().info(`Converted ${uri.fsPath} to ${target}${lost.length ? `; lost: ${lost.join("; ")}` : ""}`);
    const inForce = this.status.specFor(uri);
    const use = `Check against ${target}`;
    const note = lost.length ? ` Lost in the conversion: ${lost.join("; ")}` : "";
    const actions = inForce !== target ? [use] : [];
    const choice = await vscode.window.showInformationMessage(`Converted to ${target}.${note}`, ...actions);
    if (choice === use) await this.writeSpec(uri, target);
  }

  /**
   * Index Corpus: pick corpus files or folders (or take the one the command was run on),
   * let the server build the index (its progress notification has the Cancel button;
   * cancelling here cancels the request), then offer to use the index in this workspace.
   */
  async indexCorpus(uri?: vscode.Uri): Promise<void> {
    const picked =
      uri instanceof vscode.Uri
        ? [uri]
        : await vscode.window.showOpenDialog({
            title: "CiteLens: corpus files or folders to index",
            openLabel: "Index",
            canSelectFiles: true,
            canSelectFolders: true,
            canSelectMany: true,
            filters: CORPUS_FILTERS,
          });
    if (!picked?.length) return;
    const names = picked.map((p) => vscode.workspace.asRelativePath(p)).join(", ");
    let cancelledHere = false;
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `CiteLens: indexing ${names}`, cancellable: true },
      async (_progress, token) => {
        const result = await this.run<IndexAnswer>(SERVER_COMMAND.indexCorpus, indexArguments(picked), token);
        cancelledHere = token.isCancellationRequested;
        return result;
      },
    );
    const outcome = indexOutcome(answer, cancelledHere);
    if (!outcome) return;
    for (const problem of answer?.problems ?? []) logChannel().warn(problem);
    logChannel().info(outcome.message);
    if (outcome.kind === "failed") {
      void vscode.window.showErrorMessage(outcome.message, "Open Log").then((c) => c && logChannel().show());
      return;
    }
    if (outcome.kind === "cancelled") {
      void vscode.window.showInformationMessage(outcome.message);
      return;
    }
    const use = "Use in This Workspace";
    const choice = await vscode.window.showInformationMessage(outcome.message, use);
    if (choice === use) {
      const config = vscode.workspace.getConfiguration("citelens", picked[0]);
      const corpora = withCorpus(config.get<unknown>("corpora"), corporaEntry(outcome.db));
      if (corpora) await config.update("corpora", corpora, vscode.ConfigurationTarget.Workspace);
    }
  }

  /**
   * Check All Runs in Workspace. The server reports progress (with its own Cancel button)
   * and publishes the findings of files that are not open; here a status-bar spinner and a
   * summary when it is done.
   */
  async checkWorkspace(): Promise<void> {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: "CiteLens: checking the workspace's runs" },
      async () => {
        const result = await this.run<CheckSummary>(SERVER_COMMAND.checkWorkspace, []);
        if (!result) return;
        const files = result.files ?? [];
        const errors = files.reduce((n, f) => n + (f.errors ?? 0), 0);
        const warnings = files.reduce((n, f) => n + (f.warnings ?? 0), 0);
        const unread = files.filter((f) => f.error).length;
        const summary = `${result.cancelled ? "Cancelled after" : "Checked"} ${files.length} run file(s): ${errors} error(s), ${warnings} warning(s)${unread ? `, ${unread} not checked (see the log)` : ""}.`;
        for (const f of files.filter((f) => f.error)) logChannel().warn(`${f.uri}: ${f.error}`);
        logChannel().info(summary);
        await vscode.commands.executeCommand("workbench.actions.view.problems");
        const overview = "Show Run Overview";
        void vscode.window.showInformationMessage(`CiteLens: ${summary}`, overview).then((c) => {
          if (c === overview) void this.showOverview(undefined, undefined, true);
        });
      },
    );
  }

  /** Show Run Overview: the explorer's selection, the file or folder clicked, the active run, or (`workspace`) the workspace's runs. */
  async showOverview(clicked?: vscode.Uri, selected?: vscode.Uri[], workspace = false): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const clickedUri = clicked instanceof vscode.Uri ? clicked : undefined;
    const selection = Array.isArray(selected) ? selected.filter((u) => u instanceof vscode.Uri) : undefined;
    const targets = workspace ? [] : overviewTargets(clickedUri, selection, editor?.document.uri, isRunFile(editor?.document));
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "CiteLens: summing up the runs" },
      () => this.run<OverviewAnswer>(SERVER_COMMAND.runOverview, targets.length ? [targets] : []),
    );
    if (!answer) return;
    for (const problem of answer.problems ?? []) logChannel().warn(problem);
    if (!answer.html) {
      void vscode.window.showInformationMessage(`CiteLens: no overview: ${answer.reason ?? "nothing to sum up"}.`);
      return;
    }
    this.overview.show(answer);
  }

  /** Show Cited Document: the document cited at the cursor (or at the given position), read-only. */
  async showDocument(uriArg?: unknown, lineArg?: unknown, characterArg?: unknown): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const uri = typeof uriArg === "string" ? uriArg : editor?.document.uri.toString();
    const pos = typeof lineArg === "number" && typeof characterArg === "number" ? new vscode.Position(lineArg, characterArg) : editor?.selection.active;
    if (!uri || !pos) return;
    const shown = await this.documents.fetch(citedDocumentUri(uri, pos.line, pos.character));
    if (!shown) {
      void vscode.window.showInformationMessage("No cited document here: put the cursor on a citation (a doc id or a reference index).");
      return;
    }
    const named = citedDocumentUri(uri, pos.line, pos.character, shown.id);
    this.documents.remember(named, shown);
    await this.documents.open(named);
  }
}
