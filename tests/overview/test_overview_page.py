"""`citelens report`: the page's data is `citelens check`'s findings, regrouped; the HTML
is one self-contained file whose only scripts are its own; report text never becomes
markup."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter

import pytest

from citelens.overview.collect import passages
from tests.helpers.cli_capture import run
from tests.helpers.overview_cases import (
    EXAMPLES,
    HOSTILE_DOC,
    HOSTILE_SENTENCE,
    HOSTILE_TOPIC,
    RUNS,
    expected_counts,
    hostile_run,
)

MISTAKES = EXAMPLES / "rag26-with-mistakes.jsonl"
TOPICS = EXAMPLES / "rag26-topics.tsv"


def report_data(capsys: pytest.CaptureFixture[str], *argv: object) -> dict:
    code, out, err = run(capsys, "report", *argv, "--format", "json")
    assert code == 0, err
    data: dict = json.loads(out)
    return data


def test_the_counts_are_checks_per_run_code_topic_and_report(capsys):
    want = expected_counts(capsys, MISTAKES, "--spec", "rag26", "--topics", str(TOPICS))
    data = report_data(capsys, MISTAKES, "--spec", "rag26", "--topics", TOPICS)
    (page,) = data["runs"]
    assert {k: page["findings"][k] for k in ("errors", "warnings", "infos")} == {
        k: want[k] for k in ("errors", "warnings", "infos")
    }
    assert page["reports"] == want["reports"] == 3
    assert {f"{c['code']}|{c['severity']}": c["count"] for c in page["codes"]} == want["codes"]
    counts = [c["count"] for c in page["codes"]]
    assert counts == sorted(counts, reverse=True)  # most frequent first
    assert all(c["docs"].endswith(f".md#{c['code']}") for c in page["codes"])
    # per report: the findings on its line, at check's positions
    for n, row in enumerate(page["rows"], 1):
        on_line = [f for f in want["findings"] if f["line"] == n]
        assert row["findings"]["errors"] == sum(f["severity"] == "error" for f in on_line)
        shown = [
            (f["code"], f["line"], f["column"], f["message"]) for f in page["details"][n - 1]["findings"]
        ]
        assert sorted(shown) == sorted((f["code"], f["line"], f["column"], f["message"]) for f in on_line)
    # per topic: the reports' counts summed
    topics = {t["topic_id"]: t for t in page["topics"]}
    assert sum(t["reports"] for t in topics.values()) == 3
    assert sum(t["findings"]["warnings"] for t in topics.values()) == want["warnings"]


def test_support_shares_and_evidence_come_from_check_support(capsys):
    path = RUNS / "kiddie_run1.jsonl"
    options = ("--spec", "kiddie", "--support", "--support-cache", "none")
    _, out, _ = run(capsys, "check", path, *options, "--format", "json")
    support = json.loads(out)["support"][0]
    data = report_data(capsys, path, *options)
    (page,) = data["runs"]
    counts = support["run"]["counts"]
    assert page["support"]["sentences"] == counts
    judged = page["support"]["by_judge"]["lexical"]
    verdicts = Counter(
        c["verdict"] for r in support["reports"] for s in r["sentences"] for c in s["citations"]
    )
    assert judged == {v: verdicts.get(v, 0) for v in ("supported", "partial", "unsupported", "unchecked")}
    first = page["details"][0]["sentences"][0]
    assert first["verdict"] == support["reports"][0]["sentences"][0]["verdict"]
    passage = first["citations"][0]["passages"][0]["parts"]
    marked = [text for text, matched in passage if matched]
    evidence = [e["text"] for e in support["reports"][0]["sentences"][0]["citations"][0]["evidence"]]
    assert marked == evidence  # the matched words, inside their document's text
    assert any(not matched and text.strip() for text, matched in passage)


def test_support_by_judge_and_tier_per_run_and_topic_is_checks(capsys):
    path = RUNS / "kiddie_run1.jsonl"
    options = ("--spec", "kiddie", "--support", "--support-cache", "none")
    want = expected_counts(capsys, path, *options)
    (page,) = report_data(capsys, path, *options)["runs"]
    groups = {g["key"]: g["verdicts"] for g in page["support"]["by_judge_tier"]}
    assert groups == want["support_groups"]
    assert {g["tier"] for g in page["support"]["by_judge_tier"]} == {"high", "low"}
    high = next(g for g in page["support"]["by_judge_tier"] if g["tier"] == "high")
    assert high["verdicts"]["unsupported"] > 0 and high["verdicts"]["supported"] == 0
    for topic in page["topics"]:
        shares = {}
        for key, verdicts in topic["by_judge_tier"].items():
            judged = verdicts["supported"] + verdicts["partial"] + verdicts["unsupported"]
            shares[key] = f"{100 * verdicts['supported'] / judged:.0f}% of {judged}" if judged else "–"
        assert {k: shares.get(k, "–") for k in groups} == want["topic_groups"][topic["topic_id"]]


def test_a_passage_marks_the_matched_places_inside_their_context():
    text = "aaaa MATCH bbbb " + "x" * 300 + " OTHER cccc"
    parts = passages(
        text, [{"start": 5, "end": 10}, {"start": len(text) - 10, "end": len(text) - 5}], context=5
    )
    assert [p.parts for p in parts] == [
        [("aaaa ", False), ("MATCH", True), (" bbbb…", False)],
        [("…", False), ("xxxx ", False), ("OTHER", True), (" cccc", False)],
    ]
    assert passages("short", [{"start": 3, "end": 99}]) == []  # offsets outside the text: no passage


def test_hostile_text_is_escaped_and_the_only_scripts_are_the_pages(capsys, tmp_path):
    path = hostile_run(tmp_path)
    out = tmp_path / "overview.html"
    code, _, err = run(
        capsys, "report", path, "--spec", "kiddie", "--support", "--support-cache", "none", "-o", out
    )
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert "<img" not in page and "<b>bold" not in page and "<i>1" not in page
    assert "run &lt;i&gt;1.jsonl" in page  # the file name, escaped in the run's heading
    data = json.loads(re.search(r'id="overview-data">(.*?)</script>', page, re.S).group(1))
    (r,) = data["runs"]
    assert r["rows"][0]["topic_id"] == HOSTILE_TOPIC
    assert r["details"][0]["sentences"][0]["text"] == HOSTILE_SENTENCE
    assert r["details"][0]["sentences"][0]["citations"][0]["doc_id"] == HOSTILE_DOC


def test_the_csp_allows_exactly_the_inline_script_and_style(capsys, tmp_path):
    out = tmp_path / "overview.html"
    assert run(capsys, "report", MISTAKES, "--spec", "rag26", "-o", out)[0] == 0
    page = out.read_text(encoding="utf-8")
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert f"script-src {sha(script)};" in csp and f"style-src {sha(style)};" in csp
    assert not re.search(r'\s(?:src|href)="https?://', page)  # nothing to fetch
    assert " style=" not in page  # no inline style attribute (the CSP would refuse it)


def test_several_runs_get_a_side_by_side_comparison(capsys, tmp_path):
    out = tmp_path / "overview.html"
    runs = [RUNS / "kiddie_run1.jsonl", RUNS / "kiddie_run4.jsonl"]
    assert run(capsys, "report", *runs, "--spec", "kiddie", "-o", out)[0] == 0
    page = out.read_text(encoding="utf-8")
    board = re.search(r'<table class="leaderboard">.*?</table>', page, re.S).group(0)
    assert board.count("<tr>") == 3 and "kiddie_run1.jsonl" in board and "kiddie_run4.jsonl" in board
    assert 'aria-label="runs side by side"' in page
    one = tmp_path / "one.html"
    assert run(capsys, "report", runs[0], "--spec", "kiddie", "-o", one)[0] == 0
    assert "leaderboard" not in one.read_text(encoding="utf-8")


def test_an_existing_page_is_kept_and_bad_input_is_one_line(capsys, tmp_path):
    out = tmp_path / "overview.html"
    out.write_text("mine", encoding="utf-8")
    code, _, err = run(capsys, "report", MISTAKES, "--spec", "rag26", "-o", out)
    assert code == 2 and "exists; give --force" in err and out.read_text(encoding="utf-8") == "mine"
    code, _, err = run(capsys, "report", MISTAKES, "--spec", "rag2027", "-o", tmp_path / "x.html")
    assert code == 2 and "rag2027" in err and "Traceback" not in err and not (tmp_path / "x.html").exists()
    code, _, err = run(capsys, "report", tmp_path / "missing.jsonl", "--spec", "rag26", "--format", "json")
    assert code == 2 and "missing.jsonl" in err


def test_rule_links_can_point_at_the_web_docs(capsys):
    base = "https://example.org/citelens/src/citelens/check/rules/"
    data = report_data(capsys, MISTAKES, "--spec", "rag26", "--docs-base", base)
    assert {c["docs"] for c in data["runs"][0]["codes"]} >= {base + "metadata.md#run_id_length"}
