"""`merged_with`: whatever the command line gives wins over the config file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citelens.config import ConfigError, Settings
from citelens.specs import FINDING_CODES
from citelens.specs.model import STRUCTURE_CODES

#: the codes whose severity may be set (the codes of reading a file are always errors)
SETTABLE = tuple(c for c in FINDING_CODES if c not in STRUCTURE_CODES)

CONFIGURED = Settings(
    spec="rag26",
    topics=Path("/p/topics.tsv"),
    strict=True,
    severity={"length": "ignore", "empty_answer": "error"},
    source=Path("/p/citelens.toml"),
)


def test_flags_not_given_keep_the_config_values() -> None:
    assert (
        CONFIGURED.merged_with({"spec": None, "topics": None, "strict": None, "severity": None}) == CONFIGURED
    )
    assert CONFIGURED.merged_with({}) == CONFIGURED


def test_given_flags_win_and_severities_merge_per_code() -> None:
    merged = CONFIGURED.merged_with(
        {
            "spec": "ragtime26",
            "topics": "/q/t.jsonl",
            "strict": False,
            "severity": {"length": "warning", "metadata": "info"},
        }
    )
    assert merged.spec == "ragtime26"
    assert merged.topics == Path("/q/t.jsonl")
    assert merged.strict is False
    assert merged.severity == {"length": "warning", "empty_answer": "error", "metadata": "info"}
    assert merged.source == CONFIGURED.source
    assert CONFIGURED.severity == {"length": "ignore", "empty_answer": "error"}  # the original is untouched


def test_bad_command_line_values_are_config_errors_without_a_file() -> None:
    with pytest.raises(ConfigError) as info:
        Settings().merged_with({"severity": {"length": "loud"}})
    assert info.value.path is None and "command line" in str(info.value)
    with pytest.raises(TypeError):
        Settings().merged_with({"format": "json"})


@given(
    st.dictionaries(st.sampled_from(SETTABLE), st.sampled_from(["error", "warning", "info", "ignore"])),
    st.dictionaries(st.sampled_from(SETTABLE), st.sampled_from(["error", "warning", "info", "ignore"])),
)
def test_command_line_severity_always_wins(config: dict[str, str], cli: dict[str, str]) -> None:
    merged = Settings(severity=config).merged_with({"severity": cli})
    assert dict(merged.severity) == {**config, **cli}
