/**
 * A fake of the parts of the `vscode` API the tested modules touch. Tests arrange state
 * through `fake` (settings per folder, workspace folders, installed extensions).
 */
export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(path: string): Uri {
    return new Uri("file", path);
  }
  static parse(value: string): Uri {
    const m = /^(\w[\w+.-]*):(?:\/\/)?(.*)$/.exec(value);
    return m ? new Uri(m[1], decodeURIComponent(m[2])) : new Uri("file", value);
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return `${this.scheme}://${this.fsPath}`;
  }
}

export interface WorkspaceFolder {
  uri: Uri;
  name: string;
  index: number;
}

type Listener<T> = (e: T) => void;
export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (l: Listener<T>) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export const fake = {
  /** settings[folder path or ""] = { key: value } for section citelens */
  settings: {} as Record<string, Record<string, unknown>>,
  folders: [] as WorkspaceFolder[],
  extensions: {} as Record<string, { isActive: boolean; exports: unknown; activate(): Promise<unknown> }>,
  logLevel: LogLevel.Info,
  trusted: true,
  reset(): void {
    this.trusted = true;
    this.settings = {};
    this.folders = [];
    this.extensions = {};
    this.logLevel = LogLevel.Info;
  },
  addFolder(path: string): WorkspaceFolder {
    const folder = { uri: Uri.file(path), name: path.split("/").pop() ?? path, index: this.folders.length };
    this.folders.push(folder);
    return folder;
  },
};

function folderOf(uri: Uri | undefined): WorkspaceFolder | undefined {
  if (!uri) return undefined;
  return fake.folders.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + "/"));
}

export const workspace = {
  get isTrusted(): boolean {
    return fake.trusted;
  },
  get workspaceFolders(): WorkspaceFolder[] | undefined {
    return fake.folders.length ? fake.folders : undefined;
  },
  getWorkspaceFolder: (uri: Uri) => folderOf(uri),
  getConfiguration(section: string, scope?: Uri) {
    if (section !== "citelens") throw new Error(`unexpected section ${section}`);
    const folder = folderOf(scope);
    const values = { ...(fake.settings[""] ?? {}), ...(folder ? (fake.settings[folder.uri.fsPath] ?? {}) : {}) };
    return {
      get<T>(key: string, dflt?: T): T | undefined {
        return key in values ? (values[key] as T) : dflt;
      },
    };
  },
};

export const extensions = {
  getExtension: (id: string) => fake.extensions[id],
};

export const window = {
  createOutputChannel: () => ({
    get logLevel() {
      return fake.logLevel;
    },
    info() {},
    warn() {},
    error() {},
    show() {},
    dispose() {},
    onDidChangeLogLevel: new EventEmitter<LogLevel>().event,
  }),
};
