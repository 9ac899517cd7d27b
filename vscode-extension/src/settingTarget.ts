/**
 * Where a setting the extension writes goes: this folder's project file (`citelens.toml`,
 * or `[tool.citelens]` of `pyproject.toml`, edited in place by the server's
 * `citelens.writeSetting`) or this workspace folder's editor settings. The user is asked,
 * and the project file is the default when there is one: it is what `citelens check` and
 * every other editor read, and it is nearer than the editor's settings, so it wins.
 */
import type { WriteAnswer } from "./serverCommands";

export type SettingTarget = "project" | "folder";

export interface TargetItem {
  label: string;
  description: string;
  target: SettingTarget;
}

/** The choices, the default first. `dryRun`: the server's answer without writing (where it would go). */
export function targetItems(dryRun: WriteAnswer | undefined, folderName: string | undefined): TargetItem[] {
  const folder: TargetItem = {
    label: "Workspace folder settings",
    description: `.vscode/settings.json of ${folderName ?? "this folder"}; a project file still wins over it`,
    target: "folder",
  };
  if (!dryRun?.where) return [folder];
  const project: TargetItem = {
    label: dryRun.created ? "New project file" : "Project file",
    description: dryRun.created
      ? `${dryRun.where}, read by citelens check and every editor`
      : `${dryRun.where}; other keys and comments kept`,
    target: "project",
  };
  return dryRun.created ? [folder, project] : [project, folder];
}

/** A path for a folder's editor settings: relative to the folder when it is inside it. */
export function relativeTo(folder: string | undefined, path: string): string {
  if (!folder || !path.startsWith(folder + "/")) return path;
  return path.slice(folder.length + 1);
}

/** A `corpora` entry for a folder's editor settings: a file or `index:` path inside the folder made relative. */
export function relativeCorpus(folder: string | undefined, entry: string): string {
  const index = entry.startsWith("index:");
  const path = index ? entry.slice("index:".length) : entry;
  return `${index ? "index:" : ""}${relativeTo(folder, path)}`;
}
