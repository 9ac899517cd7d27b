"""`citelens align` as a user runs it."""

from __future__ import annotations

import json

import pytest

from citelens.align import SpanCitations
from citelens.cli import main

SOURCES = [
    {
        "id": "amazon",
        "text": "The Amazon basin is vast. Deforestation increased sharply between 2019 and 2021, "
        "driven mainly by cattle ranching and soy farming.",
    },
    {"id": 7, "text": "Coffee is one of the most traded agricultural commodities in the world."},
]
ANSWER = (
    "Deforestation increased sharply between 2019 and 2021. "
    "Ranching and soy farming drove forest clearing. The Eiffel Tower is in Paris."
)


@pytest.fixture
def sources_file(tmp_path):
    path = tmp_path / "sources.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in SOURCES) + "\n\n", encoding="utf-8")
    return path


def test_text_output_marks_the_matched_words(sources_file, capsys):
    assert main(["align", "--answer", ANSWER, "--sources", str(sources_file)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("1  supported") and "Deforestation increased sharply" in lines[0]
    assert "amazon [26:79]" in out
    assert "[[Deforestation increased sharply between 2019 and 2021]]" in out
    assert "[[ranching and soy farming]]" in out
    assert any(line.startswith("3  unsupported") for line in lines)
    assert lines[-1].startswith("3 spans: 1 supported, 1 partial, 1 unsupported")
    assert "\x1b[" not in out  # no colour when not a terminal


def test_json_output_round_trips_through_the_models(sources_file, capsys, tmp_path):
    answer_file = tmp_path / "answer.txt"
    answer_file.write_text(ANSWER, encoding="utf-8")
    assert (
        main(
            [
                "align",
                "--answer-file",
                str(answer_file),
                "--sources",
                str(sources_file),
                "--format",
                "json",
                "--config",
                "strict",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    spans = [SpanCitations.model_validate(item) for item in data]
    assert [s.status for s in spans][0] == "supported"
    assert (
        data[0]["citations"][0]["exact_evidence"] == "Deforestation increased sharply between 2019 and 2021"
    )


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"id": "a", "text": "fine"}\n{"id": "b", text}\n', "sources.jsonl:2: not valid JSON"),
        ('{"id": "a"}\n', 'sources.jsonl:1: "text" must be a string'),
        ("[1, 2]\n", "sources.jsonl:1: expected a JSON object"),
        ("\n\n", "sources.jsonl: no sources"),
    ],
)
def test_bad_sources_exit_2_with_the_line(tmp_path, capsys, content, message):
    path = tmp_path / "sources.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["align", "--answer", "x", "--sources", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_missing_files_exit_2(tmp_path, capsys, sources_file):
    assert main(["align", "--answer", "x", "--sources", str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl: cannot read the sources" in capsys.readouterr().err
    assert main(["align", "--answer-file", str(tmp_path / "none.txt"), "--sources", str(sources_file)]) == 2
    assert "none.txt: cannot read the answer" in capsys.readouterr().err


def test_answer_is_required(sources_file, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["align", "--sources", str(sources_file)])
    assert exc.value.code == 2


def test_colour_only_on_a_terminal(sources_file, capsys, monkeypatch):
    import sys

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["align", "--answer", ANSWER, "--sources", str(sources_file)]) == 0
    out = capsys.readouterr().out
    assert "\x1b[1;32mDeforestation increased sharply between 2019 and 2021\x1b[0m" in out
    assert "[[" not in out
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["align", "--answer", ANSWER, "--sources", str(sources_file)]) == 0
    assert "\x1b[" not in capsys.readouterr().out
