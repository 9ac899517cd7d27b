"""The runs the overview tests put on a page, and what `citelens check --format json` says
of them (the oracle for every count the page shows)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli_capture import run

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "tests" / "data" / "runs"
EXAMPLES = ROOT / "examples"

HOSTILE_SENTENCE = (
    'Leaves <script>window.__pwned = 1</script> turn <img src=x onerror="window.__pwned = 2"> red.'
)
HOSTILE_TOPIC = '<img src=x onerror="window.__pwned = 3">'
HOSTILE_DOC = 'leaf"><script>window.__pwned = 4</script>'


def hostile_run(folder: Path) -> Path:
    """A kiddie run whose texts, ids and embedded document try to become markup."""
    report = {
        "metadata": {
            "team_id": "</title><script>window.__pwned = 5</script>",
            "run_id": "r1",
            "topic_id": HOSTILE_TOPIC,
        },
        "responses": [
            {"text": HOSTILE_SENTENCE, "citations": [HOSTILE_DOC]},
            {"text": "A second sentence & <b>bold</b> claim.", "citations": []},
        ],
        "documents": {
            HOSTILE_DOC: {
                "id": HOSTILE_DOC,
                "text": "In autumn leaves turn red </script><script>window.__pwned = 6</script> and <b>fall</b>.",
            }
        },
    }
    path = folder / "run <i>1.jsonl"
    path.write_text(json.dumps(report) + "\n", encoding="utf-8")
    return path


def check_json(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> dict[str, Any]:
    _, out, _ = run(capsys, "check", path, *options, "--format", "json")
    document: dict[str, Any] = json.loads(out)
    return document


def expected_counts(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> dict[str, Any]:
    """What the page must show for one run: its totals and its findings per code."""
    found = check_json(capsys, path, *options)
    summary = found["summary"]
    codes = Counter(f"{f['code']}|{f['severity']}" for f in found["findings"])
    return {
        "reports": summary["reports"],
        "errors": summary["errors"],
        "warnings": summary["warnings"],
        "infos": summary["infos"],
        "codes": dict(codes),
        "findings": found["findings"],
        **support_by_judge_and_tier(found),
    }


def _share(supported: int, judged: int) -> str:
    """As the page writes a share: whole percent, rounded half up, and of how many."""
    return f"{(200 * supported + judged) // (2 * judged)}% of {judged}" if judged else "–"


def support_by_judge_and_tier(found: dict[str, Any]) -> dict[str, Any]:
    """From check's JSON: the citation verdicts per judge and tier for the run
    (`support_groups`: key -> verdict -> count), and per topic the supported share of each
    group as the topics table writes it (`topic_groups`: topic -> key -> "60% of 5")."""
    from citelens.overview.model import VERDICTS, group_key

    files = found.get("support") or []
    if not files:
        return {}
    run_groups: dict[str, Counter[str]] = {}
    topics: dict[str, dict[str, Counter[str]]] = {}
    for report in files[0]["reports"]:
        topic = topics.setdefault(report.get("topic_id") or "(none)", {})
        for sentence in report["sentences"]:
            for cited in sentence["citations"]:
                key = group_key(cited["judge"], cited["tier"])
                run_groups.setdefault(key, Counter())[cited["verdict"]] += 1
                topic.setdefault(key, Counter())[cited["verdict"]] += 1

    def judged(c: Counter[str]) -> int:
        return c["supported"] + c["partial"] + c["unsupported"]

    return {
        "support_groups": {k: {v: c[v] for v in VERDICTS} for k, c in run_groups.items()},
        "topic_groups": {
            topic: {
                k: _share(groups[k]["supported"], judged(groups[k])) if k in groups else "–"
                for k in run_groups
            }
            for topic, groups in topics.items()
        },
    }
