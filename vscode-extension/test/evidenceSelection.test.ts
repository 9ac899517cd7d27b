import { describe, expect, it } from "vitest";
import { EvidenceSelection, WINDOW_MS } from "../src/evidenceSelection";

const uri = (s: string) => ({ toString: () => s });
const pos = (line: number, character: number) => ({ line, character });
/** Like vscode.Position: line and character are getters, not own properties. */
class GetterPosition {
  constructor(
    private readonly _line: number,
    private readonly _character: number,
  ) {}
  get line() {
    return this._line;
  }
  get character() {
    return this._character;
  }
}
const evidence = { start: pos(0, 697), end: pos(0, 823) };

describe("selecting the evidence after go to definition", () => {
  it("selects the answered range once, when the editor lands at its start", () => {
    const s = new EvidenceSelection();
    s.remember([{ uri: uri("file:///w/run.jsonl"), range: evidence }], 1000);
    expect(s.take("file:///w/other.jsonl", pos(0, 697), true, 1100)).toBeUndefined();
    expect(s.take("file:///w/run.jsonl", pos(0, 10), true, 1100)).toBeUndefined(); // the cursor elsewhere
    expect(s.take("file:///w/run.jsonl", pos(0, 697), true, 1200)).toEqual(evidence);
    expect(s.take("file:///w/run.jsonl", pos(0, 697), true, 1300)).toBeUndefined(); // once
  });

  it("reads location links (a citelens-doc: view) and leaves a selection the user made alone", () => {
    const s = new EvidenceSelection();
    const target = { start: pos(4, 0), end: pos(4, 22) };
    s.remember([{ targetUri: uri("citelens-doc:/D1.txt?q"), targetRange: { start: pos(0, 0), end: pos(9, 0) }, targetSelectionRange: target }], 0);
    expect(s.take("citelens-doc:/D1.txt?q", pos(4, 0), false, 10)).toBeUndefined();
    expect(s.take("citelens-doc:/D1.txt?q", pos(4, 0), true, 10)).toEqual(target);
  });

  it("takes VS Code's positions, whose fields are getters", () => {
    const s = new EvidenceSelection();
    s.remember([{ uri: uri("a"), range: { start: new GetterPosition(2, 5), end: new GetterPosition(2, 9) } }], 0);
    expect(s.take("a", pos(2, 5), true, 1)).toEqual({ start: pos(2, 5), end: pos(2, 9) });
  });

  it("forgets answers with no single evidence range, and old ones", () => {
    const s = new EvidenceSelection();
    s.remember([{ uri: uri("a"), range: evidence }, { uri: uri("b"), range: evidence }], 0);
    expect(s.take("a", evidence.start, true, 1)).toBeUndefined();
    s.remember({ uri: uri("a"), range: { start: pos(1, 2), end: pos(1, 2) } }, 0); // empty: nothing to select
    expect(s.take("a", pos(1, 2), true, 1)).toBeUndefined();
    s.remember(null, 0);
    expect(s.take("a", evidence.start, true, 1)).toBeUndefined();
    s.remember({ uri: uri("a"), range: evidence }, 0);
    expect(s.take("a", evidence.start, true, WINDOW_MS + 1)).toBeUndefined();
  });
});
