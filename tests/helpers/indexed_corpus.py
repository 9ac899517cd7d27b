"""The segmented MS MARCO sample indexed with `citelens index`, as a test workspace holds it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SEGMENTED = (
    Path(__file__).resolve().parents[1] / "data" / "documents" / "msmarco_v2.1_doc_segmented.sample.jsonl"
)


def indexed_corpus(workspace: Path) -> Path:
    """The segmented sample as `corpus.jsonl` in the workspace, indexed into `corpus.idx`."""
    corpus = workspace / "corpus.jsonl"
    shutil.copy(SEGMENTED, corpus)
    index_corpus(corpus, workspace / "corpus.idx")
    return corpus


def index_corpus(corpus: Path, db: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "citelens", "index", "--quiet", str(corpus), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
