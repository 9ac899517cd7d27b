"""The ir_datasets source, offline: the document file placed where the dataset's store expects it."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

import pytest

from citelens.corpus.irds_source import IrdsSource
from tests.helpers.corpus_samples import make_record


def _show(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`citelens show` in a fresh process (ir_datasets fixes its data folder when imported)."""
    env = {**os.environ, "IR_DATASETS_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "citelens", "show", *args, "--format", "json"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip


def _place_neuclir_zh(home: Path, count: int) -> list[dict[str, str]]:
    rng = random.Random(11)
    records = []
    for n in range(count):
        rec = make_record("neuclir", n, rng)
        rec.pop("lang")  # the NeuCLIR1 release records have exactly these six fields
        records.append(rec)
    target = home / "neuclir" / "1" / "zho" / "docs.jsonl.gz"
    target.parent.mkdir(parents=True)
    with gzip.open(target, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    return records


def test_irds_finds_documents_already_on_disk_and_says_absent_for_others(tmp_path: Path) -> None:
    records = _place_neuclir_zh(tmp_path / "irds", 60)
    missing = "47601789-65d8-4706-9bde-fc89fccfdf14_0"
    picked = [records[0], records[31], records[-1]]
    shown = _show(tmp_path / "irds", *[r["id"] for r in picked], missing, "--docs", "irds:neuclir/1/zh")
    assert shown.returncode == 1, shown.stderr
    answers = {a["id"]: a for a in json.loads(shown.stdout)}
    for rec in picked:
        got = answers[rec["id"]]
        assert got["found"] and (got["text"], got["title"], got["url"]) == (
            rec["text"],
            rec["title"],
            rec["url"],
        )
        assert got["origin"] == "irds:neuclir/1/zh"
    assert (
        answers[missing]["found"] is False and "not found in irds:neuclir/1/zh" in answers[missing]["message"]
    )


def test_irds_never_downloads_a_dataset_that_is_not_on_disk(tmp_path: Path) -> None:
    shown = _show(tmp_path / "empty", "x", "--docs", "irds:neuclir/1/ru")
    message = json.loads(shown.stdout)["message"]
    assert "not on this machine" in message and "neuclir/1/rus/docs.jsonl.gz" in message
    assert not (tmp_path / "empty" / "neuclir" / "1" / "rus" / "docs.jsonl.gz").exists()
    assert "no dataset" in IrdsSource("no/such/dataset").get_many(["x"]).unanswered["x"]


def test_a_store_answering_with_another_document_is_not_believed() -> None:
    Doc = namedtuple("Doc", "doc_id text")

    class SeekingStore:  # like a segment store that seeks by the offset written in the id
        def get_many(self, ids: list[str]) -> dict[str, object]:
            return {i: Doc("msmarco_v2.1_doc_00_1#0_5", "a real but different segment") for i in ids}

    source = IrdsSource("msmarco-v2.1/segmented")
    source._store = SeekingStore()
    answer = source.get_many(["msmarco_v2.1_doc_00_1#7_5"])
    assert answer.documents["msmarco_v2.1_doc_00_1#7_5"] is None


def test_without_ir_datasets_installed_the_source_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ir_datasets", None)
    answer = IrdsSource("neuclir/1/zh").get_many(["x"])
    assert "pip install 'citelens[irds]'" in answer.unanswered["x"]
