"""A spec named as `ID | FILE | FILE#ID` means the same spec wherever it is named: on
the command line, in citelens.toml, in `Report.verify`, in a conversion."""

from __future__ import annotations

from pathlib import Path

import pytest

from citelens.cli import main
from citelens.config import ConfigError, settings_for
from citelens.models import Report
from citelens.source.located_error import LocatedError
from citelens.specs import SpecError, get_spec, parse_spec_ref, resolve_spec

TWO_SPECS = """\
[specs.short]
extends = "rag26"
run_id_max_len = 3

[specs."long.v2"]
extends = "rag26"
description = "a dotted id"
"""


@pytest.fixture
def spec_file(tmp_path: Path) -> Path:
    path = tmp_path / "specs" / "mine.toml"
    path.parent.mkdir()
    path.write_text(TWO_SPECS, encoding="utf-8")
    return path


def test_the_three_forms(spec_file: Path) -> None:
    assert resolve_spec("rag26") is get_spec("rag26")
    assert resolve_spec(f"{spec_file}#short").run_id_max_len == 3
    assert resolve_spec(f"{spec_file}#long.v2").description == "a dotted id"
    ref = parse_spec_ref("mine.toml#short", spec_file.parent)
    assert ref.path == spec_file and ref.spec_id == "short"
    assert resolve_spec("mine.toml#short", spec_file.parent) == resolve_spec(f"{spec_file}#short")


def test_a_file_of_several_specs_needs_an_id(spec_file: Path) -> None:
    with pytest.raises(SpecError, match=r"defines 2 specs \(short, long.v2\); name one as .*mine.toml#ID"):
        resolve_spec(str(spec_file))
    with pytest.raises(SpecError, match=r"no spec 'other' in this file; it has: short, long\.v2"):
        resolve_spec(f"{spec_file}#other")


def test_unknown_names_are_plain_errors(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="unknown track spec 'rag99': not a built-in id"):
        resolve_spec("rag99")
    with pytest.raises(SpecError, match="no such file") as info:
        resolve_spec(str(tmp_path / "gone.toml"))
    assert info.value.path == str(tmp_path / "gone.toml")
    with pytest.raises(TypeError, match="spec must be a TrackSpec, a track id or None; got int"):
        resolve_spec(26)  # type: ignore[arg-type]


def test_config_command_line_and_models_read_the_same_spec(spec_file: Path, capsys) -> None:
    project = spec_file.parent.parent
    (project / "citelens.toml").write_text('spec = "specs/mine.toml#short"\n', encoding="utf-8")
    settings = settings_for(project / "run.jsonl")
    assert resolve_spec(settings.spec) == resolve_spec(f"{spec_file}#short")

    assert main(["specs", f"{spec_file}#short"]) == 0
    assert "run_id" in capsys.readouterr().out

    report = Report.model_validate(
        {
            "metadata": {
                "team_id": "t",
                "run_id": "too-long",
                "narrative_id": "1",
                "narrative": "q",
                "run_desc": "d",
            },
            "responses": [{"text": "x", "citations": []}],
            "references": [],
        }
    )
    assert report.verify("rag26") is True
    with pytest.raises(RuntimeError, match="run_id"):
        report.verify(f"{spec_file}#short")


def test_spec_and_config_errors_share_one_located_base(tmp_path: Path) -> None:
    bad_spec = tmp_path / "bad.toml"
    bad_spec.write_text('[specs.x]\nextends = "rag26"\nlength_unit = "tokens"\n', encoding="utf-8")
    with pytest.raises(SpecError) as spec_err:
        resolve_spec(str(bad_spec))
    (tmp_path / "citelens.toml").write_text('spec = "rag26"\nstrict = "yes"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as config_err:
        settings_for(tmp_path / "run.jsonl")
    for err, line in ((spec_err.value, 3), (config_err.value, 2)):
        assert isinstance(err, LocatedError) and err.line == line
        assert str(err) == f"{err.path}:{line}: {err.reason}"


def test_a_dotted_key_in_a_toml_spec_file_is_found_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "dotted.toml"
    path.write_text('[specs]\nx.extends = "rag26"\nx.smells = ["lenght"]\n', encoding="utf-8")
    with pytest.raises(SpecError, match="unknown smell category 'lenght'") as info:
        resolve_spec(str(path))
    assert info.value.line == 3
