/**
 * The editor's side of the settings: reads `citelens.*` for a scope through the `vscode`
 * API and hands the pure rules in settings.ts / interpreter.ts what they need.
 */
import * as os from "node:os";
import * as vscode from "vscode";
import { resolveInterpreter, type Interpreter } from "./interpreter";
import { logChannel } from "./log";
import { pythonEnvironments } from "./pythonExtension";
import { serverSettings } from "./settings";

/** The server's own log level from the channel's level (the user's choice) and the trace setting. */
export function serverTrace(level: vscode.LogLevel, traceSetting: string): "off" | "messages" | "verbose" {
  if (traceSetting === "verbose" || level === vscode.LogLevel.Trace || level === vscode.LogLevel.Debug) return "verbose";
  if (traceSetting === "messages" || level === vscode.LogLevel.Info) return "messages";
  return "off";
}

export function folderFor(resource?: vscode.Uri): vscode.WorkspaceFolder | undefined {
  if (resource) {
    const folder = vscode.workspace.getWorkspaceFolder(resource);
    if (folder) return folder;
  }
  return vscode.workspace.workspaceFolders?.[0];
}

/** The settings object the server gets for a scope (a folder URI, or none: the window). */
export function settingsFor(scope: vscode.Uri | undefined): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("citelens", scope);
  const folder = scope ? folderFor(scope) : vscode.workspace.workspaceFolders?.length === 1 ? vscode.workspace.workspaceFolders[0] : undefined;
  return serverSettings((key) => config.get(key), { workspaceFolder: folder?.uri.fsPath, home: os.homedir() }, serverTrace(logChannel().logLevel, config.get<string>("trace.server", "off")));
}

/** The interpreter for a resource: setting, else the Python extension's choice, else python3. */
export async function interpreterFor(resource?: vscode.Uri): Promise<Interpreter> {
  const folder = folderFor(resource);
  const configured = vscode.workspace.getConfiguration("citelens", folder?.uri).get<string>("interpreter");
  return resolveInterpreter({
    configured,
    ctx: { workspaceFolder: folder?.uri.fsPath, home: os.homedir() },
    python: await pythonEnvironments(),
    resource: folder?.uri,
    trusted: vscode.workspace.isTrusted,
  });
}
