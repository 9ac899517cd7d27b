/**
 * The spec the server checks a file with, for the status bar. The server resolves the
 * settings per file (nested project files, `[[overrides]]` tables, the folder's editor
 * settings), so the extension asks it (`citelens.specInForce`) instead of reading TOML
 * itself; answers are kept per file until a project file or a setting changes.
 */

/** `citelens.specInForce(uri)`: the spec (null: none) and where it comes from. */
export interface SpecInForce {
  spec: string | null;
  /** "/w/pyproject.toml [[tool.citelens.overrides]] #1 (ragtime/*.jsonl)", a project file, the settings. */
  source: string | null;
  /** Why nothing is in force: the project file cannot be read. */
  error?: string;
}

export type AskServer = (uri: string) => Promise<SpecInForce | undefined>;

export class SpecInForceCache {
  private readonly known = new Map<string, SpecInForce>();
  private readonly asking = new Set<string>();
  private generation = 0;

  /** `changed(uri)` is called when an answer for `uri` arrives. */
  constructor(
    private readonly ask: AskServer,
    private readonly changed: (uri: string) => void,
  ) {}

  /** The server's answer for `uri` if it has one; otherwise asks (once) and says undefined. */
  get(uri: string): SpecInForce | undefined {
    const known = this.known.get(uri);
    if (known || this.asking.has(uri)) return known;
    this.asking.add(uri);
    const generation = this.generation;
    this.ask(uri).then(
      (answer) => {
        if (generation !== this.generation) return; // asked before a change: ask again
        this.asking.delete(uri);
        if (answer && typeof answer === "object" && "spec" in answer) {
          this.known.set(uri, answer);
          this.changed(uri);
        }
      },
      () => {
        if (generation === this.generation) this.asking.delete(uri);
      },
    );
    return undefined;
  }

  /** An answer the server gave another way (the spec list of the picker). */
  set(uri: string, answer: SpecInForce): void {
    this.known.set(uri, answer);
  }

  /** A project file or a setting changed: every file is asked again. */
  forget(): void {
    this.known.clear();
    this.asking.clear();
    this.generation++;
  }
}

/** Where a spec comes from, in short: the project file's name and the table, not its folder. */
export function sourceLabel(source: string | null): string {
  if (!source) return "settings";
  return source.replace(/^.*[\\/](?=[^\\/]*\.toml\b)/, "");
}
