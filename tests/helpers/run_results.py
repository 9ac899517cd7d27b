"""A small checked run, shared by the output tests: two files, findings on real tokens
(the run's lines are written by the report factory)."""

from __future__ import annotations

from citelens.check.finding import Finding
from citelens.check.result import FileResult
from citelens.source.line_index import LineIndex
from tests.helpers.report_factory import line

#: line 2 has an emoji and an accented letter before the bad doc id: columns count code points
RUN_TEXT = (
    line(
        {"metadata": {"team_id": "t", "run_id": "r1", "topic_id": "2000"}, "responses": []},
        ensure_ascii=False,
    )
    + "\r\n"
    + line(
        {
            "metadata": {"team_id": "t", "run_id": "r1", "topic_id": "2001"},
            "responses": [{"text": "Café 😀 ok", "citations": ["bad-id"]}],
        },
        ensure_ascii=False,
    )
    + "\n"
)
BAD_ID = RUN_TEXT.index('"bad-id"')
EMPTY_LIST = RUN_TEXT.index("[]")


def run_results() -> list[FileResult]:
    """`runs/b.jsonl` (listed first, sorted second) and `runs/a.jsonl`."""
    findings = [
        Finding(
            "docid_pattern",
            "error",
            "doc id 'bad-id' does not match uuid_<digits>",
            "/responses/0/citations/0",
            start=BAD_ID,
            end=BAD_ID + len('"bad-id"'),
            topic_id="2001",
        ),
        Finding(
            "empty_answer",
            "warning",
            "the report has no sentences",
            "/responses",
            start=EMPTY_LIST,
            end=EMPTY_LIST + 2,
            topic_id="2000",
        ),
        Finding("missing_topics", "info", "topic 2002 has no report", start=0, end=1),
    ]
    other = "not json\n"
    return [
        FileResult("runs/b.jsonl", LineIndex(RUN_TEXT), findings, reports=2),
        FileResult(
            "runs/a.jsonl",
            LineIndex(other),
            [Finding("json_syntax", "error", "line 1 is not JSON", start=0, end=8)],
            reports=1,
        ),
    ]
