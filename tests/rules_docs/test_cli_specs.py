"""`citelens specs`: the built-in specs, one spec in human terms, and a user's spec file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citelens.cli import main
from citelens.specs import builtin_specs
from citelens.specs.model import SMELL_CODES


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["specs", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_every_built_in_spec(capsys) -> None:
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    header = out.splitlines()[2].split()
    assert header == ["ID", "TASK", "CITATIONS", "SENTENCES", "LENGTH", "DESCRIPTION"]
    rows = {
        line.split()[0]: line for line in out.splitlines()[3:] if line.strip() and not line.startswith("`")
    }
    assert set(rows) == set(builtin_specs())
    assert rows["rag26"].split()[1:5] == ["generation", "rag24,", "neuclir", "answer"]
    assert "1024 words" in rows["rag26"]
    assert "topic's limit (chars)" in rows["ragtime26"]


def test_one_spec_in_human_terms(capsys) -> None:
    code, out, _ = run(capsys, "rag26")
    assert code == 0
    assert "citations per sentence  at most 3" in out
    assert "required metadata       team_id, narrative_id, narrative, run_id, run_desc" in out
    assert "must match `shard_\\d+_\\d+` as a whole" in out
    assert "at most 1024 words" in out
    smells = next(line for line in out.splitlines() if "warnings (smells):" in line)
    errors = next(line for line in out.splitlines() if line.strip().startswith("errors:"))
    assert "citation_count" in smells and "missing_topics" in smells
    assert "narrative" in errors and "blank_sentence" in errors and "citation_count" not in errors
    assert "always errors:     json_syntax, encoding, duplicate_key, schema" in out
    # every field, as it would be written in a spec file
    for name in builtin_specs()["rag26"].describe():
        assert f"\n  {name} = " in out


@pytest.mark.parametrize("spec_id", sorted(builtin_specs()))
def test_each_code_has_one_severity_line_under_each_spec(capsys, spec_id: str) -> None:
    _, out, _ = run(capsys, spec_id)
    lines = {
        k: line
        for line in out.splitlines()
        for k in ("warnings (smells):", "errors:", "notes (info):", "never reported:")
        if line.strip().startswith(k)
    }
    listed = []
    for line in lines.values():
        listed += [c.strip() for c in line.split(":", 1)[1].split("(")[0].split(",") if c.strip() != "none"]
    assert sorted(listed) == sorted(SMELL_CODES)
    spec = builtin_specs()[spec_id]
    for code in spec.smells:
        assert code in lines["warnings (smells):"] or code in lines["never reported:"]


def test_json_is_the_spec_as_data(capsys) -> None:
    code, out, _ = run(capsys, "ragtime26", "--format", "json")
    assert code == 0 and json.loads(out) == json.loads(json.dumps(builtin_specs()["ragtime26"].describe()))
    code, out, _ = run(capsys, "--format", "json")
    assert [s["track"] for s in json.loads(out)] == list(builtin_specs())


def test_unknown_spec_exits_2_with_suggestions(capsys) -> None:
    code, out, err = run(capsys, "rag2")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "unknown spec 'rag2'" in err and "rag26" in err


YAML_SPECS = """\
specs:
  my-rag26:
    extends: rag26
    description: RAG 2026 with at most 2 citations
    max_citations_per_sentence: 2
  lab-ragtime:
    extends: ragtime26
    smells: [empty_answer, length]
"""


def test_user_yaml_file_lists_its_specs(capsys, tmp_path: Path) -> None:
    path = tmp_path / "specs.yaml"
    path.write_text(YAML_SPECS, encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert code == 0 and err == ""
    assert f"specs in {path}:" in out
    assert "my-rag26" in out and "RAG 2026 with at most 2 citations" in out and "lab-ragtime" in out
    code, out, _ = run(capsys, f"{path}#my-rag26")
    assert code == 0 and "citations per sentence  at most 2" in out
    code, out, _ = run(capsys, str(path), "--format", "json")
    data = json.loads(out)
    assert [s["track"] for s in data] == ["my-rag26", "lab-ragtime"]
    assert data[1]["smells"] == ["empty_answer", "length"] and data[1]["run_id_max_len"] == 20


def test_user_toml_file_with_one_spec_shows_it(capsys, tmp_path: Path) -> None:
    path = tmp_path / "spec.toml"
    path.write_text('[specs.mine]\nextends = "dragun25"\nforbid_extra_metadata = true\n', encoding="utf-8")
    code, out, _ = run(capsys, str(path))
    assert code == 0 and out.startswith(f"mine  (from {path})")
    assert "other metadata keys     not allowed" in out


@pytest.mark.parametrize(
    "text, where, reason",
    [
        (
            "specs:\n  x:\n    extends: rag26\n    smells: [empty_answer, lenght]\n",
            ":4:",
            "unknown smell category 'lenght'",
        ),
        ("specs:\n  x:\n    extends: rag99\n", ":3:", "extends unknown spec 'rag99'"),
        (
            "specs:\n  x:\n    extends: rag26\n    length_unit: tokens\n",
            ":4:",
            "length_unit = 'tokens' is not one of",
        ),
        ("specs:\n  x: [1, 2\n", ":", "not valid YAML"),
        (
            "specs:\n  x:\n    extends: rag26\n    sentences_key: answers\n",
            ":4:",
            "sentences_key = 'answers' is not one of ['answer', 'responses']",
        ),
        (
            "specs:\n  x:\n    extends: rag26\n    topic_id_field: narative_id\n",
            ":4:",
            "topic_id_field = 'narative_id' is not one of",
        ),
        ("specs: {}\n", ":1:", "`specs` is empty: the file defines no spec"),
    ],
)
def test_broken_spec_file_exits_2_with_file_and_line(
    capsys, tmp_path: Path, text: str, where: str, reason: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"citelens specs: {path}{where}") and reason in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_unknown_id_in_a_file(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "nope.toml"))
    assert code == 2 and "no such file" in err
    path = tmp_path / "spec.toml"
    path.write_text('[specs.mine]\nextends = "rag26"\n', encoding="utf-8")
    code, _, err = run(capsys, f"{path}#other")
    assert code == 2 and "no spec 'other' in this file; it has: mine" in err
