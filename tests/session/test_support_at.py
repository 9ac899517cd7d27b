"""`OpenDocument.support_at` (what the hover shows) keeps a report's support between
hovers: an edited report is judged again, a report moved by an edit elsewhere keeps its
verdicts at its new place, and a settings change judges again."""

from __future__ import annotations

import json

from citelens.session import TextChange, Workspace
from citelens.support import Verdict
from tests.helpers.judge_runs import DOCUMENT, SENTENCE, UNRELATED, report_with_documents


def _open(tmp_path, *sentences: str):
    text = "".join(
        json.dumps(report_with_documents([(s, ["Earthworm"])], {"Earthworm": DOCUMENT})) + "\n"
        for s in sentences
    )
    path = tmp_path / "run.jsonl"
    path.write_text(text, encoding="utf-8")
    workspace = Workspace([tmp_path], cli={"spec": "kiddie", "support": True})
    return workspace, workspace.open(str(path), text)


def _verdicts(doc) -> list[Verdict]:
    out = []
    for r in range(len(doc.items)):
        for s in doc.sentences(r):
            for c in s.citations:
                out.append(doc.support_at(c.start)[1].verdict)
    return out


def test_an_edited_report_is_judged_again_and_a_moved_one_keeps_its_verdicts(tmp_path):
    _, doc = _open(tmp_path, SENTENCE, UNRELATED)
    before = _verdicts(doc)
    assert before[0] is not before[1] and before == _verdicts(doc)  # asked again: the same
    # the first report's sentence becomes the unrelated one: judged again
    first = doc.text.index(SENTENCE)
    doc.apply_changes([TextChange(first, first + len(SENTENCE), UNRELATED)], version=2)
    assert _verdicts(doc) == [before[1], before[1]]
    # text put before the second report moves it: its verdict is found at its new place
    second = doc.text.index("\n") + 1
    doc.apply_changes([TextChange(second, second, "  ")], version=3)
    assert _verdicts(doc) == [before[1], before[1]]
    doc.apply_changes([TextChange(first, first + len(UNRELATED), SENTENCE)], version=4)
    assert _verdicts(doc) == before


def test_a_settings_change_judges_the_kept_reports_again(tmp_path):
    workspace, doc = _open(tmp_path, SENTENCE)
    assert _verdicts(doc) != [Verdict.UNSUPPORTED]
    # every sentence needs all its words now, and most of its words in one passage
    (tmp_path / "citelens.toml").write_text(
        'spec = "kiddie"\nsupport = true\n[support_thresholds]\nsupported_coverage = 1.0\n'
        "unsupported_coverage = 0.99\nmin_claim_found = 1.0\n",
        encoding="utf-8",
    )
    assert workspace.refresh()
    assert _verdicts(doc) == [Verdict.UNSUPPORTED]
