/**
 * "CiteLens: Index Corpus": what is picked becomes the server's `citelens.indexCorpus`
 * arguments, and its answer a message (and, on success, the offer to use the index in
 * this workspace's `citelens.corpora`). The server does the work, with its own progress
 * notification and Cancel button; cancelling the request stops it too.
 */
import type { IndexAnswer } from "./serverCommands";

/** The file extensions offered in the picker (folders can be picked as well). */
export const CORPUS_FILTERS = { "Corpus files (JSON Lines)": ["jsonl", "gz", "zst", "json"] };

/** `citelens.indexCorpus` arguments: the corpus paths, then the index path when one is given. */
export function indexArguments(corpora: { fsPath: string }[], db?: string): unknown[] {
  const paths = corpora.map((c) => c.fsPath).filter((p) => p.length > 0);
  return db ? [paths, db] : [paths];
}

/** The `citelens.corpora` entry that names an index file. */
export function corporaEntry(db: string): string {
  return `index:${db}`;
}

/** The `citelens.corpora` list with `entry` added (unchanged when it is there already). */
export function withCorpus(existing: unknown, entry: string): string[] | undefined {
  const list = Array.isArray(existing) ? existing.filter((e): e is string => typeof e === "string") : [];
  return list.includes(entry) ? undefined : [...list, entry];
}

export type IndexOutcome =
  | { kind: "done"; message: string; db: string }
  | { kind: "cancelled"; message: string }
  | { kind: "failed"; message: string };

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

/** What to tell the user about the server's answer (undefined: no answer, already said). */
export function indexOutcome(answer: IndexAnswer | undefined, cancelledHere: boolean): IndexOutcome | undefined {
  if (!answer) return cancelledHere ? { kind: "cancelled", message: "Indexing cancelled; running it again resumes the index." } : undefined;
  if (answer.cancelled) return { kind: "cancelled", message: `Indexing cancelled; ${answer.reason ?? "running it again resumes the index."}` };
  if (!answer.ok) return { kind: "failed", message: `CiteLens could not index: ${answer.reason ?? "see the log"}` };
  const problems = answer.problems?.length ? ` (${plural(answer.problems.length, "line")} skipped: see the log)` : "";
  const added = answer.added !== undefined && answer.added !== answer.documents ? `, ${plural(answer.added, "new document")}` : "";
  return {
    kind: "done",
    message: `Indexed ${plural(answer.documents ?? 0, "document")}${added} in ${answer.db}${problems}.`,
    db: answer.db ?? "",
  };
}
