"""Where the tests' sample files are (one copy each; see data/PROVENANCE.md)."""

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
RUNS = DATA / "runs"  # report files
TOPICS = DATA / "topics"  # topic and request files
DOCUMENTS = DATA / "documents"  # document text for alignment
