"""Add hand-labelled tuning pairs (bench/data/support/labels.tsv, ids not yet in pairs.jsonl).

Only reports of the tune split (split_of in support_pairs_extract.py) are read, so no
held-back sentence is seen: kiddie responses 1, 3 and 4 against the next document of their
report they do not cite (the rule responses 0 and 2 already follow), and DRAGUN report
sentences that do not cite the topic document, against it (`topic_document`).

    python bench/support_pairs_extra.py /work/shared/data
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from support_pairs_extract import OUT, split_of


def tune_reports(data: Path, path: str) -> Iterator[tuple[int, dict]]:
    """(line number, report) of the reports of `path` that fall in the tune split."""
    for line_no, line in enumerate((data / path).read_text().splitlines(), start=1):
        if split_of(f"{path}:{line_no}") == "tune":
            yield line_no, json.loads(line)


def pair(pid: str, sentence: str, doc_id: str, pairing: str, source: dict) -> dict:
    return {
        "id": pid,
        "sentence": sentence,
        "doc_id": doc_id,
        "pairing": pairing,
        "source": source,
        "split": "tune",
    }


def main(data: Path) -> None:
    pairs_path = OUT / "pairs.jsonl"
    have = {json.loads(line)["id"] for line in pairs_path.read_text().splitlines()}
    labelled = {
        line.split("\t")[0]
        for line in (OUT / "labels.tsv").read_text().splitlines()
        if line and line[0] != "#"
    }
    wanted = labelled - have
    new: list[dict] = []
    for run in ("run1", "run2", "run3", "run4"):
        path = f"kiddie/runs/repgen/{run}.jsonl"
        for line_no, report in tune_reports(data, path):
            topic = report["metadata"]["topic_id"]
            for r_index, response in enumerate(report["responses"]):
                for doc_id in report["documents"]:
                    pid = f"kiddie-{run}-{topic}-r{r_index}-x-{doc_id}"
                    if pid in wanted:
                        source = {"file": path, "line": line_no, "response": r_index, "citation": None}
                        source["other_document"] = doc_id
                        new.append(
                            pair(
                                pid,
                                response["text"],
                                f"kiddie:{run}:{doc_id}",
                                "same_report_other_doc",
                                source,
                            )
                        )
    for path, tag in (
        ("dragun25/organizer-gpt-oss-t2.jsonl", "orgt2"),
        ("dragun25/garag_rubric.jsonl", "garag"),
    ):
        for line_no, report in tune_reports(data, path):
            topic = report["metadata"]["topic_id"]
            for r_index, response in enumerate(report["responses"]):
                pid = f"{tag}-l{line_no}-r{r_index}-topic"
                if pid in wanted:
                    source = {"file": path, "line": line_no, "response": r_index, "citation": None}
                    source["topic_document"] = topic
                    new.append(pair(pid, response["text"], topic, "topic_document", source))
    with pairs_path.open("a") as fh:
        for p in new:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(f"{len(new)} pairs added")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"))
