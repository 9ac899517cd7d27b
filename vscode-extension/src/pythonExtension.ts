/** The Python extension's public environments API (`ms-python.python`), when installed. */
import * as vscode from "vscode";
import type { PythonEnvironments } from "./interpreter";

interface PythonApi {
  ready?: Promise<void>;
  environments?: PythonEnvironments & {
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
}

async function api(): Promise<PythonApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonApi>("ms-python.python");
  if (!ext) return undefined;
  try {
    const exports = ext.isActive ? ext.exports : await ext.activate();
    await exports?.ready;
    return exports;
  } catch {
    return undefined;
  }
}

export async function pythonEnvironments(): Promise<PythonEnvironments | undefined> {
  return (await api())?.environments;
}

/** Calls `listener` when the user selects another interpreter in the Python extension. */
export async function onDidChangePythonInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
  const event = (await api())?.environments?.onDidChangeActiveEnvironmentPath;
  return event ? event(() => listener()) : undefined;
}
