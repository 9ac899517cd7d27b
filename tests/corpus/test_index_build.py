"""`citelens index` and the index it builds: every shape, compressed files, incremental runs, bad lines."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.corpus import IndexSource, open_sources
from citelens.corpus.index_build import build_index
from citelens.corpus.index_store import IndexReader
from tests.helpers.corpus_samples import DATA, SHAPE_FIELDS, read_records, write_corpus

SAMPLES = {
    "msmarco_v2.1_doc_segmented.sample.jsonl": ("docid", "segment"),
    "msmarco_v2.1_doc.sample.jsonl": ("docid", "body"),
    "trec-2025-dragun-topics.jsonl": ("docid", "body"),
    "spot-check-corpus.jsonl.gz": ("docno", "text"),
}


def citelens(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citelens", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_shared_sample_shape_is_indexed_and_each_document_found(tmp_path: Path, name: str) -> None:
    id_field, text_field = SAMPLES[name]
    records = read_records(DATA / name)
    db = tmp_path / "idx.sqlite"
    report = build_index([DATA / name], db)
    assert report.total_docs == len({r[id_field] for r in records})
    source = IndexSource(db)
    answer = source.get_many([r[id_field] for r in records] + ["no-such-document"])
    assert not answer.unanswered
    assert answer.documents["no-such-document"] is None
    for n, rec in enumerate(records, start=1):
        doc = answer.documents[rec[id_field]]
        assert doc is not None
        assert doc.text == rec[text_field]
        assert doc.title == rec.get("title")
        assert doc.origin.endswith(f"{name}:{n}")


@pytest.mark.parametrize("shape", sorted(SHAPE_FIELDS))
@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz", ".jsonl.zst"])
def test_generated_corpora_in_every_shape_and_compression(tmp_path: Path, shape: str, suffix: str) -> None:
    corpus = tmp_path / f"c{suffix}"
    records = write_corpus(corpus, shape, 300)
    id_field, text_field = SHAPE_FIELDS[shape]
    chain = open_sources([str(corpus)])
    answer = chain.get_many([r[id_field] for r in records] + ["missing-id"])
    assert not answer.unanswered
    assert answer.documents["missing-id"] is None
    for rec in records:
        doc = answer.documents[rec[id_field]]
        assert doc is not None and doc.text == rec[text_field] and doc.url == rec.get("url")


def test_an_unchanged_corpus_is_not_read_again_and_a_grown_one_is_read_on(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    first = write_corpus(corpus, "neuclir", 500)
    db = tmp_path / "i.sqlite"
    assert build_index([corpus], db).docs_added == 500
    again = build_index([corpus], db)
    assert [f.action for f in again.files] == ["unchanged"] and again.docs_added == 0
    more = write_corpus(corpus, "neuclir", 120, start=500)
    grown = build_index([corpus], db)
    assert [f.action for f in grown.files] == ["read on"]
    assert grown.docs_added == 120 and grown.total_docs == 620
    answer = IndexSource(db).get_many([r["id"] for r in first + more])
    assert all(d is not None for d in answer.documents.values()) and not answer.unanswered
    line_of_last = IndexSource(db).get_many([more[-1]["id"]]).documents[more[-1]["id"]]
    assert line_of_last is not None and line_of_last.origin.endswith(":620")


def test_a_grown_gzip_corpus_is_read_on_too(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl.gz"
    write_corpus(corpus, "climbmix", 200)
    db = tmp_path / "i.sqlite"
    build_index([corpus], db)
    more = write_corpus(corpus, "climbmix", 30, start=200)  # a second gzip member
    grown = build_index([corpus], db)
    assert grown.docs_added == 30 and grown.total_docs == 230
    assert IndexSource(db).get_many([more[-1]["id"]]).documents[more[-1]["id"]] is not None


def test_a_rewritten_corpus_is_read_again_and_its_old_documents_are_gone(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    old = write_corpus(corpus, "neuclir", 100, seed=1)
    db = tmp_path / "i.sqlite"
    build_index([corpus], db)
    corpus.unlink()
    new = write_corpus(corpus, "neuclir", 100, seed=2)
    again = build_index([corpus], db)
    assert [f.action for f in again.files] == ["re-read"]
    answer = IndexSource(db).get_many([old[0]["id"], new[0]["id"]])
    assert answer.documents[old[0]["id"]] is None and answer.documents[new[0]["id"]] is not None


def test_bad_lines_are_counted_and_reported_with_file_and_line_and_the_rest_indexed(tmp_path: Path) -> None:
    corpus = tmp_path / "bad.jsonl"
    good = write_corpus(corpus, "neuclir", 25)
    lines = corpus.read_text("utf-8").splitlines(keepends=True)
    lines.insert(2, "{not json\n")  # line 3
    lines.insert(4, json.dumps({"title": "no id here", "text": "x"}) + "\n")  # line 5
    lines.insert(6, "[1, 2]\n")  # line 7
    corpus.write_text("".join(lines), "utf-8")
    db = tmp_path / "i.sqlite"
    done = citelens("index", str(corpus), "--db", str(db))
    assert done.returncode == 1, done.stderr
    assert f"{corpus}:3: skipped: not JSON" in done.stderr
    assert f"{corpus}:5: skipped: no document id" in done.stderr
    assert f"{corpus}:7: skipped: not a JSON object" in done.stderr
    assert "25 documents" in done.stdout
    answer = IndexSource(db).get_many([r["id"] for r in good])
    assert all(d is not None for d in answer.documents.values())


def test_a_truncated_gzip_is_indexed_as_far_as_it_goes_and_says_where_it_stopped(tmp_path: Path) -> None:
    corpus = tmp_path / "cut.jsonl.gz"
    records = write_corpus(corpus, "neuclir", 3000, words=60)
    data = corpus.read_bytes()
    corpus.write_bytes(data[: len(data) * 6 // 10])
    db = tmp_path / "i.sqlite"
    done = citelens("index", str(corpus), "--db", str(db))
    assert done.returncode == 1
    assert f"{corpus}: stopped: the compressed data ends early after line" in done.stderr
    stopped_after = int(done.stderr.split("ends early after line ")[1].split()[0])
    assert 0 < stopped_after < 3000
    source = IndexSource(db)
    early = records[0]["id"]
    late = records[-1]["id"]
    answer = source.get_many([early, late])
    assert answer.documents[early] is not None
    # the index cannot say the late document does not exist: it could not read that far
    assert late in answer.unanswered and "stopped at line" in answer.unanswered[late]


def test_a_file_of_unknown_shape_names_its_fields_and_can_be_read_with_named_fields(tmp_path: Path) -> None:
    corpus = tmp_path / "odd.jsonl"
    corpus.write_text("".join(json.dumps({"pid": f"p{i}", "passage": f"text {i}"}) + "\n" for i in range(5)))
    db = tmp_path / "i.sqlite"
    done = citelens("index", str(corpus), "--db", str(db))
    assert done.returncode == 1 and "fields: passage, pid" in done.stderr
    done = citelens(
        "index",
        str(corpus),
        "--db",
        str(tmp_path / "j.sqlite"),
        "--id-field",
        "pid",
        "--text-field",
        "passage",
    )
    assert done.returncode == 0, done.stderr
    doc = IndexSource(tmp_path / "j.sqlite").get_many(["p3"]).documents["p3"]
    assert doc is not None and doc.text == "text 3"
    via_spec = open_sources([f"{corpus};id=pid;text=passage"]).get_many(["p4"]).documents["p4"]
    assert via_spec is not None and via_spec.text == "text 4"


def test_the_default_index_lives_in_the_user_cache_and_is_used_by_the_corpus_source(
    tmp_path: Path, private_cache: Path
) -> None:
    corpus = tmp_path / "c.jsonl"
    records = write_corpus(corpus, "climbmix", 50)
    done = citelens("index", str(corpus))
    assert done.returncode == 0, done.stderr
    built = list((private_cache / "index").glob("*.sqlite"))
    assert len(built) == 1 and built[0].name.startswith("c.jsonl-")
    doc = open_sources([str(corpus)]).get_many([records[7]["id"]]).documents[records[7]["id"]]
    assert doc is not None and doc.text == records[7]["contents"]


def test_a_large_corpus_not_yet_indexed_is_unanswered_not_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import citelens.corpus.local_sources as local

    monkeypatch.setattr(local, "AUTO_INDEX_BYTES", 100)
    corpus = tmp_path / "big.jsonl"
    write_corpus(corpus, "neuclir", 20)
    answer = open_sources([str(corpus)]).get_many(["anything"])
    assert (
        "not indexed yet" in answer.unanswered["anything"]
        and "citelens index" in answer.unanswered["anything"]
    )


def test_missing_or_foreign_index_files_answer_with_a_reason_not_an_exception(tmp_path: Path) -> None:
    absent = IndexSource(tmp_path / "nothing.sqlite").get_many(["a"])
    assert "no index at" in absent.unanswered["a"]
    foreign = tmp_path / "foreign.sqlite"
    foreign.write_bytes(b"not sqlite at all")
    assert "is not an index" in IndexSource(foreign).get_many(["a"]).unanswered["a"]


def test_a_corpus_changed_after_indexing_makes_the_index_unsure(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    write_corpus(corpus, "neuclir", 10)
    db = tmp_path / "i.sqlite"
    build_index([corpus], db)
    write_corpus(corpus, "neuclir", 5, start=10)
    answer = IndexSource(db).get_many(["not-there"])
    assert "changed since it was indexed" in answer.unanswered["not-there"]


def test_progress_reports_documents_bytes_and_reaches_the_total(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    write_corpus(corpus, "neuclir", 2000)
    seen = []
    build_index(
        [corpus],
        tmp_path / "i.sqlite",
        on_progress=lambda p: seen.append((p.docs, p.bytes_done, p.bytes_total)),
    )
    assert seen and seen[-1] == (2000, corpus.stat().st_size, corpus.stat().st_size)
    assert [s[1] for s in seen] == sorted(s[1] for s in seen)


def test_a_folder_of_corpus_files_is_indexed_whole(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    a = write_corpus(folder / "a.jsonl", "climbmix", 40)
    b = write_corpus(folder / "b.jsonl.gz", "climbmix", 40, start=40)
    shutil.copy(DATA / "msmarco_v2.1_doc.sample.jsonl", folder / "notes.txt")  # not a corpus file name
    report = build_index([folder], tmp_path / "i.sqlite")
    assert report.total_docs == 80 and len(report.files) == 2
    ids = [a[3]["id"], b[5]["id"]]
    assert all(IndexSource(tmp_path / "i.sqlite").get_many(ids).documents.values())


def test_a_reader_sees_only_whole_documents(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    records = write_corpus(corpus, "neuclir", 400)
    db = tmp_path / "i.sqlite"
    build_index([corpus], db)
    reader = IndexReader(db)
    rng = random.Random(3)
    for rec in rng.sample(records, 50):
        doc = reader.get_many([rec["id"]]).documents[rec["id"]]
        assert doc is not None and doc.fields == rec
