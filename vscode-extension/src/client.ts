/**
 * The language client's life: pick the interpreter, check that `citelens_server` imports
 * there, start `python -m citelens_server` over stdio, stop it, and say clearly (once)
 * what to do when it cannot start. No popups for routine errors: those go to the log.
 */
import * as readline from "node:readline";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  type DocumentSelector,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { virtualDocumentsFeature } from "./documentView";
import { folderFor, interpreterFor, settingsFor } from "./editorSettings";
import { evidenceSelection } from "./evidenceSelection";
import type { Interpreter } from "./interpreter";
import { logChannel } from "./log";
import { probeServer, type ProbeResult } from "./probe";
import { OWN_COMMANDS } from "./serverCommands";
import { stderrLevel, stderrMessage, type Level } from "./serverLog";

export type ServerState = "stopped" | "starting" | "running" | "failed";

export const ACTION_INSTALL = "Install CiteLens into this interpreter";
export const ACTION_SELECT = "Select Interpreter";
export const ACTION_LOG = "Open Log";

/** Which documents the server sees: JSON Lines, JSON (it decides which hold reports), the configured globs. */
export function documentSelector(): DocumentSelector {
  const selector: DocumentSelector = [
    { scheme: "file", language: "jsonl" },
    { scheme: "untitled", language: "jsonl" },
    { scheme: "file", pattern: "**/*.jsonl" },
    { scheme: "file", language: "json" },
  ];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const globs = vscode.workspace.getConfiguration("citelens", folder.uri).get<string[]>("files", []);
    for (const glob of globs) {
      if (typeof glob === "string" && glob.trim()) selector.push({ scheme: "file", pattern: { baseUri: folder.uri.toString(), pattern: glob.trim() } });
    }
  }
  return selector;
}

function lines(input: NodeJS.ReadableStream, each: (line: string) => void): void {
  readline.createInterface({ input, crlfDelay: Infinity, terminal: false, historySize: 0 }).on("line", each);
}

/**
 * The language client registers every command the server lists as a VS Code command; the
 * ids the extension registers itself (OWN_COMMANDS) would collide, so they are left out.
 */
function keepOwnCommands(client: LanguageClient): void {
  type Registration = { id: string; registerOptions: { commands?: string[] } };
  const feature = (client as unknown as { getFeature(method: string): { register(data: Registration): void } }).getFeature(
    "workspace/executeCommand",
  );
  const register = feature.register.bind(feature);
  feature.register = (data) =>
    register({ ...data, registerOptions: { ...data.registerOptions, commands: (data.registerOptions.commands ?? []).filter((c) => !OWN_COMMANDS.has(c)) } });
}

/** Whether the running server offers a workspace command. */
export function serverOffers(client: LanguageClient | undefined, command: string): boolean {
  return !!client?.initializeResult?.capabilities.executeCommandProvider?.commands.includes(command);
}

export class CiteLensServer implements vscode.Disposable {
  client: LanguageClient | undefined;
  interpreter: Interpreter | undefined;
  version: string | undefined;
  problem: ProbeResult | undefined;
  private state_: ServerState = "stopped";
  private readonly stateChanged = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeState = this.stateChanged.event;
  /** The last problem told to the user, so a restart does not repeat the same message. */
  private lastToldProblem: string | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  get state(): ServerState {
    return this.state_;
  }

  private setState(state: ServerState): void {
    this.state_ = state;
    this.stateChanged.fire(state);
  }

  /** The interpreter that would run the server (for the active file's folder). */
  pickInterpreter(): Promise<Interpreter> {
    return interpreterFor(vscode.window.activeTextEditor?.document.uri);
  }

  async start(userAsked = false): Promise<void> {
    const log = logChannel();
    this.setState("starting");
    const interpreter = await this.pickInterpreter();
    this.interpreter = interpreter;
    log.info(`Interpreter: ${interpreter.command} (${interpreter.reason})`);
    const probe = await probeServer(interpreter.command);
    this.problem = probe.ok ? undefined : probe;
    if (!probe.ok) {
      log.error(`CiteLens server cannot start with ${interpreter.command}: ${probe.detail}`);
      this.setState("failed");
      void this.tell(probe, interpreter, userAsked);
      return;
    }
    this.version = probe.version;
    const shipped = this.context.extension.packageJSON.version as string;
    if (probe.version !== shipped) {
      log.warn(`CiteLens ${probe.version} is installed in ${interpreter.command}; this extension ships ${shipped} (run "CiteLens: Install CiteLens into This Interpreter" to match)`);
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    const serverOptions: ServerOptions = {
      command: interpreter.command,
      args: ["-m", "citelens_server"],
      transport: TransportKind.stdio,
      options: { cwd: folder?.uri.fsPath, env: { ...process.env, PYTHONIOENCODING: "utf-8" } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(),
      outputChannel: log,
      traceOutputChannel: log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      stdioOptions: {
        stdout: (input, channel) => lines(input, (line) => channel.info(line)),
        stderr: (input, channel) => {
          let level: Level = "info";
          lines(input, (line) => {
            level = stderrLevel(line, level);
            channel[level](stderrMessage(line));
          });
        },
      },
      initializationOptions: settingsFor(folder?.uri),
      initializationFailedHandler: (err) => {
        log.error(`CiteLens server failed to initialize: ${String(err)}`);
        return false;
      },
      errorHandler: {
        error: (err, _msg, count) => {
          log.error(`CiteLens server connection error: ${err.message}`);
          return { action: (count ?? 0) < 5 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
        },
        closed: () => {
          log.error('CiteLens server stopped unexpectedly; see the log above. "CiteLens: Restart Server" starts it again.');
          this.setState("failed");
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      middleware: {
        provideDefinition: async (document, position, token, next) => {
          const result = await next(document, position, token);
          evidenceSelection.remember(result as never);
          return result;
        },
        workspace: {
          configuration: async (params, token, next) => {
            const answers = (await next(params, token)) as unknown[];
            if (!Array.isArray(answers)) return answers;
            return params.items.map((item, i) =>
              item.section === "citelens" ? settingsFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined) : answers[i],
            );
          },
        },
      },
      markdown: { isTrusted: false, supportHtml: false },
    };
    const client = new LanguageClient("citelens", "CiteLens", serverOptions, clientOptions);
    keepOwnCommands(client);
    client.registerFeature(virtualDocumentsFeature());
    this.client = client;
    try {
      await client.start();
      this.setState("running");
      this.lastToldProblem = undefined;
      log.info(`CiteLens ${probe.version} server running`);
    } catch (err) {
      log.error(`CiteLens server did not start: ${String(err)}`);
      this.client = undefined;
      this.setState("failed");
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (err) {
        logChannel().warn(`stopping the CiteLens server: ${String(err)}`);
      }
    }
    this.setState("stopped");
  }

  async restart(reasons: string[]): Promise<void> {
    logChannel().info(`Restarting the CiteLens server (${reasons.join("; ")})`);
    await this.stop();
    await this.start(reasons.includes("command"));
  }

  /** Tell the server the settings changed; it re-reads them through workspace/configuration. */
  notifySettingsChanged(): void {
    if (this.client?.isRunning()) {
      void this.client.sendNotification("workspace/didChangeConfiguration", { settings: { citelens: settingsFor(folderFor()?.uri) } });
    }
  }

  private async tell(problem: Exclude<ProbeResult, { ok: true }>, interpreter: Interpreter, userAsked: boolean): Promise<void> {
    const key = `${interpreter.command}:${problem.kind}`;
    if (!userAsked && this.lastToldProblem === key) return; // said once already
    this.lastToldProblem = key;
    const what =
      problem.kind === "no-interpreter"
        ? `CiteLens needs Python: ${interpreter.command} (${interpreter.reason}) cannot be run.`
        : problem.kind === "not-installed"
          ? `CiteLens is not installed in ${interpreter.command} (${interpreter.reason}).`
          : `CiteLens does not load in ${interpreter.command}: ${problem.detail}`;
    const actions = problem.kind === "no-interpreter" ? [ACTION_SELECT, ACTION_LOG] : [ACTION_INSTALL, ACTION_SELECT, ACTION_LOG];
    const choice = await vscode.window.showErrorMessage(what, ...actions);
    if (choice === ACTION_INSTALL) await vscode.commands.executeCommand("citelens.installServer");
    else if (choice === ACTION_SELECT) await vscode.commands.executeCommand("citelens.selectInterpreter");
    else if (choice === ACTION_LOG) logChannel().show();
  }

  dispose(): void {
    void this.stop();
    this.stateChanged.dispose();
  }
}
