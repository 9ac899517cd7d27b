"""Build the candidate (sentence, document) pairs of the support evaluation set from the shared runs.

Run once to (re)create bench/data/support/pairs.jsonl and documents.jsonl; the labels are
written by hand in labels.tsv and never produced by this script or by the judge.

    python bench/support_pairs_extract.py /work/shared/data
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

OUT = Path(__file__).parent / "data" / "support"
KIDDIE_RUNS = ["run1", "run2", "run3", "run4"]


def split_of(key: str) -> str:
    """Tune or held-out, by a stable hash of the report (pairs of one report stay together)."""
    return "tune" if hashlib.sha256(key.encode()).digest()[0] < 103 else "heldout"


def citation_ids(citations: object) -> list[str]:
    if isinstance(citations, dict):
        return [str(c) for c in citations]
    if isinstance(citations, list):
        return [str(c) for c in citations]
    return []


def main(data: Path) -> None:
    pairs: list[dict] = []
    documents: dict[str, dict] = {}

    seen: set[tuple[str, str]] = set()

    def add(pair_id: str, sentence: str, doc_id: str, pairing: str, source: dict, report_key: str) -> None:
        if (sentence, doc_id) in seen:  # two segments of one document cited by one sentence: one pair
            return
        seen.add((sentence, doc_id))
        pairs.append(
            {
                "id": pair_id,
                "sentence": sentence,
                "doc_id": doc_id,
                "pairing": pairing,
                "source": source,
                "split": split_of(report_key),
            }
        )

    # Kiddie: every citation (documents embedded), plus one other document of the same report for
    # responses 0 and 2 (a same-topic document the sentence does not cite: a hard negative).
    for run in KIDDIE_RUNS:
        path = f"kiddie/runs/repgen/{run}.jsonl"
        for line_no, line in enumerate((data / path).read_text().splitlines(), start=1):
            report = json.loads(line)
            topic = report["metadata"]["topic_id"]
            docs = report.get("documents", {})
            for doc_id, doc in docs.items():
                # the same title carries different text in different runs: key by run
                documents.setdefault(
                    f"kiddie:{run}:{doc_id}",
                    {"id": f"kiddie:{run}:{doc_id}", "text": doc["text"], "origin": path},
                )
            order = list(docs)
            key = f"{path}:{line_no}"
            for r_index, response in enumerate(report["responses"]):
                cited = citation_ids(response.get("citations"))
                for c in cited:
                    source = {"file": path, "line": line_no, "response": r_index, "citation": c}
                    add(
                        f"kiddie-{run}-{topic}-r{r_index}-{c}",
                        response["text"],
                        f"kiddie:{run}:{c}",
                        "citation",
                        source,
                        key,
                    )
                if r_index in (0, 2) and cited:
                    start = order.index(cited[0]) if cited[0] in order else 0
                    others = [d for d in order[start + 1 :] + order[:start] if d not in cited]
                    if others:
                        o = others[0]
                        source = {
                            "file": path,
                            "line": line_no,
                            "response": r_index,
                            "citation": None,
                            "other_document": o,
                        }
                        add(
                            f"kiddie-{run}-{topic}-r{r_index}-x-{o}",
                            response["text"],
                            f"kiddie:{run}:{o}",
                            "same_report_other_doc",
                            source,
                            key,
                        )

    # DRAGUN: the topic documents are full MS MARCO v2.1 documents; a segment id doc#seg cites them.
    topics_path = "dragun25/trec-2025-dragun-topics.jsonl"
    topic_docs = {}
    for line in (data / topics_path).read_text().splitlines():
        if line.strip():
            t = json.loads(line)
            topic_docs[t["docid"]] = t

    def topic_doc(doc_id: str) -> str:
        t = topic_docs[doc_id]
        documents.setdefault(doc_id, {"id": doc_id, "text": t["body"], "origin": topics_path})
        return doc_id

    path = "dragun25/garag_rubric.jsonl"
    for line_no, line in enumerate((data / path).read_text().splitlines(), start=1):
        report = json.loads(line)
        key = f"{path}:{line_no}"
        for r_index, response in enumerate(report["responses"]):
            for c in citation_ids(response.get("citations")):
                base = c.split("#")[0]
                if base in topic_docs:
                    source = {"file": path, "line": line_no, "response": r_index, "citation": c}
                    add(
                        f"garag-l{line_no}-r{r_index}-{c}",
                        response["text"],
                        topic_doc(base),
                        "citation_segment_of_document",
                        source,
                        key,
                    )

    # DRAGUN organizer run: the first and the last sentence of each report against the report's topic
    # document (the article the report is about); they cite other pages, so these are topic pairs.
    path = "dragun25/organizer-gpt-oss-t2.jsonl"
    for line_no, line in enumerate((data / path).read_text().splitlines(), start=1):
        report = json.loads(line)
        topic = report["metadata"]["topic_id"]
        key = f"{path}:{line_no}"
        responses = report["responses"]
        for r_index in sorted({0, len(responses) - 1}):
            response = responses[r_index]
            source = {
                "file": path,
                "line": line_no,
                "response": r_index,
                "citation": None,
                "topic_document": topic,
            }
            add(
                f"orgt2-l{line_no}-r{r_index}-topic",
                response["text"],
                topic_doc(topic),
                "topic_document",
                source,
                key,
            )

    # Auto-judge spot check: the cited Cranfield documents, and each sentence against the other one.
    corpus_path = "autojudge-base/spot-check-dataset/corpus.jsonl.gz"
    with gzip.open(data / corpus_path, "rt") as fh:
        cranfield = {d["docno"]: d["text"] for d in map(json.loads, fh)}
    spot = [
        ("autojudge-base/spot-check-dataset/runs/my_best_run_01.jsonl", 0, "224", "279"),
        ("autojudge-base/spot-check-dataset/runs/my_best_run_02.jsonl", 1, "279", "224"),
    ]
    for path, r_index, cited, other in spot:
        report = json.loads((data / path).read_text().splitlines()[0])
        text = report["responses"][r_index]["text"]
        for doc, pairing in ((cited, "citation"), (other, "other_document")):
            documents.setdefault(
                f"cranfield:{doc}", {"id": f"cranfield:{doc}", "text": cranfield[doc], "origin": corpus_path}
            )
            source = {
                "file": path,
                "line": 1,
                "response": r_index,
                "citation": cited if pairing == "citation" else None,
            }
            add(
                f"spot-{Path(path).stem}-r{r_index}-{doc}",
                text,
                f"cranfield:{doc}",
                pairing,
                source,
                f"{path}:1",
            )

    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "pairs.jsonl").open("w") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    with (OUT / "documents.jsonl").open("w") as fh:
        for d in sorted(documents.values(), key=lambda d: d["id"]):
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
    print(f"{len(pairs)} pairs, {len(documents)} documents")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"))
