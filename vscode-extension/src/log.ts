/**
 * The one output channel. A `LogOutputChannel`: its level is the user's choice
 * (Developer: Set Log Level… → CiteLens) and the language client writes the server's
 * log and the protocol trace (`citelens.trace.server`) into it.
 */
import * as vscode from "vscode";

let channel: vscode.LogOutputChannel | undefined;

export function logChannel(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel("CiteLens", { log: true });
  return channel;
}
