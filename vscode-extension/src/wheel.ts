/** The CiteLens wheel shipped inside the .vsix (wheel/citelens-X-py3-none-any.whl). */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function shippedWheel(extensionPath: string): { path: string; version: string } | undefined {
  const dir = join(extensionPath, "wheel");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const name = names.find((n) => /^citelens-[^-]+-.*\.whl$/.test(n));
  if (!name) return undefined;
  return { path: join(dir, name), version: name.split("-")[1] };
}

/** Shell-quote one argument for a POSIX shell or PowerShell-safe single quotes. */
export function quoteArg(arg: string, windows: boolean): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return windows ? `'${arg.replace(/'/g, "''")}'` : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The pip command line that installs the shipped wheel (its dependencies from the user's index). */
export function installCommand(python: string, wheel: string, windows: boolean): string {
  const call = windows ? "& " : "";
  return call + [python, "-m", "pip", "install", "--upgrade", wheel].map((a) => quoteArg(a, windows)).join(" ");
}
