/**
 * Go to definition on a citation should land with the evidence selected. VS Code puts the
 * cursor at the start of the definition's range and selects nothing, so the extension
 * remembers the range the server answered (a middleware on the definition request) and,
 * when an editor shows that document with the cursor at that start, selects the range.
 */
type Pos = { line: number; character: number };
type Span = { start: Pos; end: Pos };
/** A definition result as the language client hands it over (Location or LocationLink). */
type Target = { uri?: { toString(): string }; range?: Span; targetUri?: { toString(): string }; targetSelectionRange?: Span; targetRange?: Span };

export interface PendingSelection {
  uri: string;
  range: Span;
  until: number;
}

/** How long after the answer a jump still counts as this definition's. */
export const WINDOW_MS = 5000;

const same = (a: Pos, b: Pos) => a.line === b.line && a.character === b.character;

export class EvidenceSelection {
  private pending: PendingSelection | undefined;

  /** Remember the one target of a definition answer that selects a non-empty range. */
  remember(result: Target | Target[] | null | undefined, now = Date.now()): void {
    const targets = result == null ? [] : Array.isArray(result) ? result : [result];
    this.pending = undefined;
    if (targets.length !== 1) return;
    const t = targets[0];
    const uri = (t.targetUri ?? t.uri)?.toString();
    const range = t.targetSelectionRange ?? t.targetRange ?? t.range;
    if (!uri || !range || same(range.start, range.end)) return;
    // copied field by field: vscode.Position keeps line/character behind getters
    const copy = (p: Pos): Pos => ({ line: p.line, character: p.character });
    this.pending = { uri, range: { start: copy(range.start), end: copy(range.end) }, until: now + WINDOW_MS };
  }

  /**
   * The range to select when an editor of `uri` has an empty selection at `active`:
   * the remembered evidence, once (undefined: leave the editor alone).
   */
  take(uri: string, active: Pos, isEmpty: boolean, now = Date.now()): Span | undefined {
    const p = this.pending;
    if (!p || now > p.until) {
      this.pending = undefined;
      return undefined;
    }
    if (uri !== p.uri || !isEmpty || !same(active, p.range.start)) return undefined;
    this.pending = undefined;
    return p.range;
  }
}

export const evidenceSelection = new EvidenceSelection();
