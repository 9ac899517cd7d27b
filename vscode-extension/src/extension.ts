/** Activation: wires the server, the settings watchers, the status bar and the commands. */
import * as vscode from "vscode";
import { CiteLensServer } from "./client";
import { Commands } from "./commands";
import { installIntoInterpreter } from "./install";
import { logChannel } from "./log";
import { onDidChangePythonInterpreter } from "./pythonExtension";
import { RestartScheduler } from "./restart";
import { reactionTo } from "./settings";
import { SpecStatus } from "./statusBar";
import { evidenceSelection } from "./evidenceSelection";
import { CitedDocuments, SCHEME } from "./virtualDocuments";
import { RunsView } from "./runsView";

let server: CiteLensServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = logChannel();
  context.subscriptions.push(log);
  server = new CiteLensServer(context);
  const srv = server;
  const restarts = new RestartScheduler((reasons) => srv.restart(reasons), 500);
  const status = new SpecStatus(srv);
  const documents = new CitedDocuments(srv);
  const runs = new RunsView();
  const commands = new Commands(context, srv, status, documents, runs);
  context.subscriptions.push(srv, { dispose: () => restarts.dispose() }, status, documents, runs);
  const runsTree = vscode.window.createTreeView(RunsView.id, { treeDataProvider: runs });
  runs.onDidChangeTreeData(() => (runsTree.message = runs.message));
  runsTree.message = runs.message;
  context.subscriptions.push(runsTree);

  const register = (id: string, fn: (...args: any[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  register("citelens.restartServer", () => restarts.now("command"));
  register("citelens.showLog", () => log.show());
  register("citelens.selectSpec", (uri?: unknown) => commands.selectSpec(uri));
  register("citelens.pickSpec", (uri?: unknown) => commands.selectSpec(uri));
  register("citelens.convertFile", (uri?: unknown, target?: unknown) => commands.convertFile(uri, target));
  register("citelens.indexCorpus", (uri?: vscode.Uri) => commands.indexCorpus(uri));
  register("citelens.checkWorkspace", () => commands.checkWorkspace());
  register("citelens.judgeCitation", (uri?: unknown, line?: unknown, character?: unknown) => commands.judge(false, uri, line, character));
  register("citelens.judgeFile", (uri?: unknown) => commands.judge(true, uri));
  register("citelens.showOverview", (uri?: vscode.Uri, uris?: vscode.Uri[]) => commands.showOverview(uri, uris));
  context.subscriptions.push(commands.overview);
  register("citelens.showDocument", (uri?: unknown, line?: unknown, character?: unknown) => commands.showDocument(uri, line, character));
  register("citelens.installServer", async () => {
    const interpreter = srv.interpreter ?? (await srv.pickInterpreter());
    await installIntoInterpreter(context, interpreter.command, () => restarts.request("CiteLens installed"));
  });
  register("citelens.selectInterpreter", async () => {
    if (vscode.extensions.getExtension("ms-python.python")) await vscode.commands.executeCommand("python.setInterpreter");
    else await vscode.commands.executeCommand("workbench.action.openSettings", "citelens.interpreter");
  });

  // go to definition lands at the evidence's start: select the whole evidence there
  const selectEvidence = (editor: vscode.TextEditor | undefined) => {
    const sel = editor?.selection;
    if (!editor || !sel) return;
    const range = evidenceSelection.take(editor.document.uri.toString(), sel.active, sel.isEmpty);
    if (!range) return;
    editor.selection = new vscode.Selection(range.start.line, range.start.character, range.end.line, range.end.character);
    editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeTextEditorSelection((e) => selectEvidence(e.textEditor)),
    vscode.window.onDidChangeActiveTextEditor(selectEvidence),
  );

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, documents),
    vscode.workspace.onDidChangeConfiguration((e) => {
      const reaction = reactionTo((section) => e.affectsConfiguration(section));
      if (reaction === "restart") restarts.request("settings changed");
      else if (reaction === "reread") srv.notifySettingsChanged();
    }),
    log.onDidChangeLogLevel(() => srv.notifySettingsChanged()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => restarts.request("workspace folders changed")),
    // trusted now: the workspace's own interpreter and settings may apply
    vscode.workspace.onDidGrantWorkspaceTrust(() => restarts.request("workspace trusted")),
  );
  const pythonWatch = await onDidChangePythonInterpreter(() => {
    if (!vscode.workspace.getConfiguration("citelens").get<string>("interpreter")) restarts.request("interpreter selected in the Python extension");
  });
  if (pythonWatch) context.subscriptions.push(pythonWatch);

  await srv.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
