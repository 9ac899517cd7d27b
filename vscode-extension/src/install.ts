/**
 * "Install CiteLens into this interpreter": pip-installs the wheel shipped in the .vsix, in
 * a terminal the user sees; when pip succeeds the terminal closes and the server restarts.
 */
import * as vscode from "vscode";
import { logChannel } from "./log";
import { installCommand, shippedWheel } from "./wheel";

export async function installIntoInterpreter(
  context: vscode.ExtensionContext,
  python: string,
  onInstalled: () => void,
): Promise<void> {
  const wheel = shippedWheel(context.extensionPath);
  if (!wheel) {
    logChannel().error(`No CiteLens wheel in ${context.extensionPath}/wheel: this build of the extension is incomplete.`);
    void vscode.window.showErrorMessage("This CiteLens extension ships no wheel to install; install CiteLens with pip yourself.");
    return;
  }
  const windows = process.platform === "win32";
  const install = installCommand(python, wheel.path, windows);
  const line = windows ? `${install}; if ($?) { exit }` : `${install} && exit`;
  const terminal = vscode.window.createTerminal({ name: `CiteLens: install ${wheel.version}` });
  logChannel().info(`Installing CiteLens ${wheel.version}: ${install}`);
  const done = vscode.window.onDidCloseTerminal((t) => {
    if (t !== terminal) return;
    done.dispose();
    if (t.exitStatus?.code === 0 || t.exitStatus?.code === undefined) onInstalled();
  });
  context.subscriptions.push(done);
  terminal.show();
  terminal.sendText(line, true);
}
