"""`convert_edits` applied to the text gives exactly what `citelens convert` writes, in
every layout, with broken reports (and --keep-going), and its notes sit where the
command line says they are."""

from __future__ import annotations

import pytest

from citelens.cli import main
from citelens.session import Workspace
from citelens.source.edits import apply_edits
from tests.helpers.session_runs import SAMPLE_RUNS, generated

TARGETS = ["ragtime25", "rag25", "kiddie", "rag24", "dragun25"]


def cli_convert(capsys, path, target, *extra):
    code = main(["convert", str(path), "--to", target, "--keep-going", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def cases():
    for spec in ("rag24", "rag25", "ragtime25", "dragun25"):
        for layout in ("jsonl", "array", "object"):
            yield spec, layout


@pytest.mark.parametrize("spec,layout", list(cases()))
@pytest.mark.parametrize("target", TARGETS)
def test_applied_edits_equal_the_cli_output(capsys, tmp_path, spec, layout, target):
    text, _ = generated(spec, 12, 4, layout)
    path = tmp_path / "run.json"
    path.write_bytes(text.encode("utf-8"))
    code, out, err = cli_convert(capsys, path, target)
    doc = Workspace().open_file(path)
    result = doc.convert_edits(target)
    assert apply_edits(doc.text, result.edits) == out
    lines = doc.line_index
    for note in result.notes:
        line, col = lines.position(note.start)
        assert f"{path}:{line + 1}:{col + 1}: note[{note.code}] {note.message}" in err
    for broken in result.broken:
        line, col = lines.position(broken.start)
        assert f"{path}:{line + 1}:{col + 1}: error[{broken.code}]" in err
    assert (code == 1) == bool(result.broken)


@pytest.mark.parametrize("path", SAMPLE_RUNS, ids=lambda p: p.name)
def test_sample_runs_convert_the_same_through_edits(capsys, path):
    for target in ("ragtime25", "rag25"):
        _, out, _ = cli_convert(capsys, path, target)
        doc = Workspace().open_file(path)
        assert apply_edits(doc.text, doc.convert_edits(target).edits) == out


def test_one_report_converts_alone_as_the_whole_file_would_write_it(capsys, tmp_path):
    text, _ = generated("ragtime25", 8, 2)
    text = text.replace("\n", "\r\n")
    doc = Workspace().open("untitled:r", text)
    whole = apply_edits(text, doc.convert_edits("rag25").edits).splitlines()
    converted = [i for i in doc.items if i.ok]
    item = converted[3]
    one = doc.convert_edits("rag25", report=item.index)
    assert len(one.edits) == 1 and (one.edits[0].start, one.edits[0].end) == (item.start, item.end)
    assert all(item.start <= n.start < item.end for n in one.notes)
    new = apply_edits(text, one.edits)
    assert new.split("\r\n")[item.index] in whole  # that line, exactly as the file's conversion writes it
    assert text.count("\r\n") == new.count("\r\n")  # nothing else touched
