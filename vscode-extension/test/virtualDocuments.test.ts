import { describe, expect, it } from "vitest";
import { citedAt, documentText, selectionIn, virtualDocumentsFeature } from "../src/documentView";

const at = (line: number, character: number) => ({ line, character });

describe("citelens-doc: documents", () => {
  it("reads where the citation is from a URI the server's go to definition builds", () => {
    // what citelens_server.cited_documents.virtual_uri returns; VS Code decodes the query
    const uri = new URL(
      "citelens-doc:/msmarco_v2.1_doc_00_1%231_2.txt?%7B%22uri%22%3A%22file%3A%2F%2F%2Fw%2Frun.jsonl%22%2C%22line%22%3A3%2C%22character%22%3A17%7D",
    );
    expect(citedAt({ query: decodeURIComponent(uri.search.slice(1)) })).toEqual({ uri: "file:///w/run.jsonl", line: 3, character: 17 });
    expect(citedAt({ query: "not json" })).toBeUndefined();
  });

  it("shows the server's rendering and selects the evidence range it gives, as is", () => {
    const shown = {
      id: "D1",
      text: "Rivers flood cities.",
      content: "id: D1\nfrom: corpus.jsonl.gz\n\nRivers flood cities.",
      selection: { start: at(3, 7), end: at(3, 19) },
    };
    expect(documentText(shown)).toBe(shown.content);
    expect(selectionIn(shown)).toEqual(shown.selection);
    const [line] = [documentText(shown).split("\n")[3]];
    expect(line.slice(7, 19)).toBe("flood cities");
  });

  it("without the server's rendering, puts its own header above the text and moves the selection down", () => {
    const shown = { id: "D1", title: "T", text: "Rivers flood cities.", selection: { start: at(0, 7), end: at(0, 12) } };
    expect(documentText(shown)).toBe("id: D1\ntitle: T\n\nRivers flood cities.");
    expect(selectionIn(shown)).toEqual({ start: at(3, 7), end: at(3, 12) });
    expect(selectionIn({ text: "x" })).toBeUndefined();
  });

  it("tells the server it shows these documents, keeping other experimental capabilities", () => {
    const caps: { experimental?: unknown } = { experimental: { other: 1 } };
    virtualDocumentsFeature().fillClientCapabilities(caps as never);
    expect(caps.experimental).toEqual({ other: 1, citelensDocuments: true });
    const bare: { experimental?: unknown } = {};
    virtualDocumentsFeature().fillClientCapabilities(bare as never);
    expect(bare.experimental).toEqual({ citelensDocuments: true });
  });
});
