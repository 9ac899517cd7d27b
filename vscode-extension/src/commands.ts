/** The extension's commands: each a thin call to the server (or the editor) with progress. */
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { serverOffers, type CiteLensServer } from "./client";
import { logChannel } from "./log";
import { CORPUS_FILTERS, corporaEntry, indexArguments, indexOutcome, withCorpus } from "./indexCorpus";
import { SERVER_COMMAND, judgeMessage, type CheckSummary, type ConvertAnswer, type IndexAnswer, type JudgeAnswer, type SpecInfo, type SpecList, type WriteAnswer } from "./serverCommands";
import { RunsView, summaryLine } from "./runsView";
import { relativeCorpus, relativeTo, targetItems } from "./settingTarget";
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
    private readonly runs?: RunsView,
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
    if (uri && list.active !== undefined) this.status.rememberServerSpec(uri, list.active, list.source);
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

  async selectSpec(uriArg?: unknown): Promise<void> {
    const uri = typeof uriArg === "string" ? vscode.Uri.parse(uriArg) : this.activeRun()?.uri;
    const spec = await this.pickSpec("CiteLens: Select Track Spec", uri);
    if (spec) await this.writeSpec(uri, spec);
  }

  private async writeSpec(uri: vscode.Uri | undefined, spec: string): Promise<void> {
    await this.writeSetting(uri, "spec", spec);
  }

  /**
   * Write one setting for the runs of `uri`'s folder, where the user says: the project
   * file (the server edits it in place, keeping its other keys) or the workspace folder's
   * editor settings. The project file is offered first when there is one.
   */
  async writeSetting(uri: vscode.Uri | undefined, key: string, value: unknown, append = false): Promise<boolean> {
    const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : vscode.workspace.workspaceFolders?.[0];
    const target = uri ?? folder?.uri;
    const dryRun = target ? await this.run<WriteAnswer>(SERVER_COMMAND.writeSetting, [target.toString(), key, value, { dryRun: true, append }], undefined, true) : undefined;
    const items = targetItems(dryRun, folder?.name);
    const picked =
      items.length === 1
        ? items[0]
        : await vscode.window.showQuickPick(items, { title: `CiteLens: where should ${key} be set?`, placeHolder: `${key} = ${JSON.stringify(value)}` });
    if (!picked) return false;
    if (picked.target === "project" && target) {
      const answer = await this.run<WriteAnswer>(SERVER_COMMAND.writeSetting, [target.toString(), key, value, { append }]);
      if (answer?.applied) logChannel().info(`${key} set in ${answer.where}`);
      else if (answer) void vscode.window.showWarningMessage(`CiteLens could not set ${key}: ${answer.reason ?? "the edit was not applied"}`);
      return !!answer?.applied;
    }
    const config = vscode.workspace.getConfiguration("citelens", target);
    let written = value;
    if (Array.isArray(value) && append) {
      const existing = config.get<unknown>(key);
      written = [...(Array.isArray(existing) ? existing : []), ...value.filter((v) => !(Array.isArray(existing) && existing.includes(v)))];
    }
    if (typeof written === "string" && key === "topics") written = relativeTo(folder?.uri.fsPath, written);
    if (Array.isArray(written) && key === "corpora") written = written.map((e) => (typeof e === "string" ? relativeCorpus(folder?.uri.fsPath, e) : e));
    await config.update(key, written, folder ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Workspace);
    logChannel().info(`citelens.${key} = ${JSON.stringify(written)} (${folder ? `folder settings of ${folder.name}` : "workspace settings"})`);
    return true;
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
    const db = await this.workspaceIndexPath(picked[0]);
    const answer = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `CiteLens: indexing ${names}`, cancellable: true },
      async (_progress, token) => {
        const result = await this.run<IndexAnswer>(SERVER_COMMAND.indexCorpus, indexArguments(picked, db), token);
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
      // for the runs of the active run's folder (else the corpus's workspace folder), not every run
      const runs = this.activeRun()?.uri ?? vscode.workspace.getWorkspaceFolder(picked[0])?.uri ?? picked[0];
      const entry = corporaEntry(outcome.db);
      if (withCorpus(vscode.workspace.getConfiguration("citelens", runs).get<unknown>("corpora"), entry))
        await this.writeSetting(runs, "corpora", [entry], true);
    }
  }

  /**
   * An index of a corpus inside a workspace folder lives in that folder's `.citelens/`
   * (which holds a `.gitignore` of `*`, so git leaves it alone), unless the user picks the
   * cache; a corpus outside every folder is indexed in the cache (undefined: the server's default).
   */
  private async workspaceIndexPath(corpus: vscode.Uri): Promise<string | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(corpus);
    if (!folder) return undefined;
    const inWorkspace = { label: "In the workspace", description: ".citelens/ (ignored by git)", cache: false };
    const inCache = { label: "In the cache", description: "the user's CiteLens cache folder", cache: true };
    const picked = await vscode.window.showQuickPick([inWorkspace, inCache], { title: "CiteLens: where should the index go?" });
    if (!picked || picked.cache) return undefined;
    const dir = vscode.Uri.joinPath(folder.uri, ".citelens");
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, ".gitignore"), new TextEncoder().encode("# CiteLens indexes: not part of the project\n*\n"));
    const name = corpus.path.split("/").pop()?.replace(/\.(jsonl|json)(\.(gz|zst))?$/, "") || "corpus";
    return vscode.Uri.joinPath(dir, `${name}.sqlite`).fsPath;
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
        const unread = files.filter((f) => f.error).length;
        const summary = `${result.cancelled ? "Cancelled: " : ""}${summaryLine(result)}${unread ? `; ${unread} not checked (see the log)` : ""}`;
        for (const f of files.filter((f) => f.error)) logChannel().warn(`${f.uri}: ${f.error}`);
        logChannel().info(summary);
        if (this.runs) {
          this.runs.show(result);
          await vscode.commands.executeCommand(`${RunsView.id}.focus`);
        } else await vscode.commands.executeCommand("workbench.actions.view.problems");
        const overview = "Show Run Overview";
        void vscode.window.showInformationMessage(`CiteLens: ${summary}`, overview).then((c) => {
          if (c === overview) void this.showOverview(undefined, undefined, true);
        });
      },
    );
  }

  /**
   * Judge This Citation / Judge This File with the model the server is set up with (its
   * environment: CITELENS_LLM_ENDPOINT and CITELENS_LLM_MODEL, or CITELENS_NLI_MODEL). The
   * server shows the progress (with Cancel); the hover then shows the model's verdict.
   */
  async judge(whole: boolean, uriArg?: unknown, lineArg?: unknown, characterArg?: unknown): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const uri = typeof uriArg === "string" ? uriArg : editor?.document.uri.toString();
    const pos = typeof lineArg === "number" && typeof characterArg === "number" ? new vscode.Position(lineArg, characterArg) : editor?.selection.active;
    if (!uri || (!whole && !pos)) {
      void vscode.window.showInformationMessage("Open a run file and put the cursor on a citation to judge it.");
      return;
    }
    const what = whole ? "the file" : "the citation";
    const answer = await this.run<JudgeAnswer>(
      whole ? SERVER_COMMAND.judgeFile : SERVER_COMMAND.judgeCitation,
      whole || !pos ? [uri] : [uri, pos.line, pos.character],
    );
    const message = judgeMessage(answer, what);
    if (!message) return;
    logChannel().info(message.text);
    if (message.ok) void vscode.window.showInformationMessage(message.text);
    else void vscode.window.showWarningMessage(message.text);
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
