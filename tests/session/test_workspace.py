"""Settings per file, in the contract's precedence, one checker per distinct settings,
and reloading when a settings, spec or topics file changes."""

from __future__ import annotations

import os

import pytest

from citelens.config import ConfigError
from citelens.session import Workspace

RAG25_LINE = (
    '{"metadata": {"run_id": "r", "team_id": "t", "topic_id": "1", "narrative": "n", '
    '"type": "automatic", "use_starter_kit": 0}, "references": ["a"], '
    '"answer": [{"text": "x.", "citations": [0, 0]}]}\n'
)


def touch(path, text):
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # a visibly newer mtime


def test_precedence_per_key(tmp_path):
    project = tmp_path / "proj"
    (project / "runs").mkdir(parents=True)
    (project / "citelens.toml").write_text('spec = "rag25"\n[severity]\ncitation_duplicate = "info"\n')
    ws = Workspace(
        [tmp_path],
        init_options={"spec": "rag24", "strict": True, "support": True, "corpora": ["init"]},
        cli={"corpora": ["cli-corpus"]},
    )
    ws.set_editor_settings(
        {"spec": "ragtime25", "files": ["*.jsonl"], "severity": {"length": "ignore"}}, tmp_path
    )
    s = ws.settings_for(project / "runs" / "a.jsonl")
    assert s.spec == "rag25" and s.origins["spec"] == str(
        project / "citelens.toml"
    )  # project > editor > init
    assert s.files == ("*.jsonl",) and s.origins["files"].startswith("editor settings")
    assert s.strict is True and s.support is True and s.origins["strict"] == "initialization options"
    assert s.corpora == ("cli-corpus",) and s.origins["corpora"] == "command line"
    assert dict(s.severity) == {"citation_duplicate": "info", "length": "ignore"}  # merged per code
    outside = ws.settings_for(tmp_path / "elsewhere.jsonl")
    assert outside.spec == "ragtime25" and outside.severity == {"length": "ignore"}
    assert Workspace().settings_for(None).spec is None  # defaults


def test_a_bad_editor_value_falls_back_with_a_message(tmp_path):
    ws = Workspace(init_options={"spec": "rag24"})
    ws.set_editor_settings({"spec": 42, "strict": "yes", "severity": {"nope": "error"}})
    s = ws.settings_for(tmp_path / "r.jsonl")
    assert s.spec == "rag24" and s.strict is False and s.severity == {}
    assert any("'spec' must be" in m for m in ws.messages)
    assert any("'strict' must be" in m for m in ws.messages)


def test_editor_settings_that_set_nothing_new_keep_every_result(tmp_path):
    # an editor answers the settings request at start, most often with nothing
    ws = Workspace((tmp_path,), init_options={"spec": "rag24"})
    doc = ws.open((tmp_path / "r.jsonl").as_uri(), '{"bad json"\n', 1)
    first, generation = doc.result, ws.generation
    for settings, folder in ((None, None), ({}, None), (None, tmp_path), ({"unknown": 1}, tmp_path)):
        ws.set_editor_settings(settings, folder)
    assert ws.generation == generation and doc.result is first
    ws.set_editor_settings({"spec": "rag25"}, tmp_path)
    assert ws.generation == generation + 1
    ws.set_editor_settings({"spec": "rag25"}, tmp_path)
    assert ws.generation == generation + 1
    ws.set_editor_settings(None, tmp_path)  # the value taken away again
    assert ws.generation == generation + 2


def test_one_checker_per_distinct_settings(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "citelens.toml").write_text('spec = "rag24"\n')
    ws = Workspace(cli={"spec": None})
    assert ws.checker_for(tmp_path / "a" / "x.jsonl") is ws.checker_for(tmp_path / "a" / "y.jsonl")
    assert ws.checker_for(tmp_path / "a" / "x.jsonl") is not ws.checker_for(tmp_path / "b" / "x.jsonl")
    assert (
        ws.checker_for(tmp_path / "b" / "x.jsonl").spec
        is ws.checker_for_settings(ws.settings_for(None).merged_with({"spec": "rag24"})).spec
    )


def test_a_hovers_support_run_is_kept_until_the_settings_change(tmp_path):
    """With support off, hovers judge through one run per settings (its memory cache
    answers an unchanged sentence); a settings change gives a new one (new thresholds)."""
    ws = Workspace([tmp_path], cli={"spec": "rag25"})
    settings = ws.settings_for(tmp_path / "a.jsonl")
    run = ws.support_run_for(settings)
    assert ws.support_run_for(ws.settings_for(tmp_path / "b.jsonl")) is run
    ws.set_editor_settings({"support_thresholds": {"supported_coverage": 0.9}})
    changed = ws.support_run_for(ws.settings_for(tmp_path / "a.jsonl"))
    assert changed is not run
    assert changed.settings.supported_coverage == 0.9


def test_a_changed_settings_file_is_read_again_and_documents_follow(tmp_path):
    config = tmp_path / "citelens.toml"
    touch(config, 'spec = "rag25"\n')
    ws = Workspace()
    doc = ws.open(tmp_path / "run.jsonl", RAG25_LINE)
    assert "docid_pattern" in {f.code for f in doc.result.findings}
    assert ws.refresh() is False
    touch(config, 'spec = "rag25"\n[severity]\ndocid_pattern = "ignore"\n')
    assert ws.refresh() is True
    assert "docid_pattern" not in {f.code for f in doc.result.findings}


def test_a_changed_topics_file_is_read_again(tmp_path):
    topics = tmp_path / "topics.jsonl"
    touch(topics, '{"request_id": "1", "title": "n"}\n')
    ws = Workspace(cli={"spec": "rag25", "topics": str(topics)})
    doc = ws.open(tmp_path / "run.jsonl", RAG25_LINE)
    assert "new_topics" not in {f.code for f in doc.result.findings}
    touch(topics, '{"request_id": "2", "title": "n"}\n')
    assert ws.refresh()
    assert "new_topics" in {f.code for f in doc.result.findings}


def test_a_new_project_file_is_found_on_refresh(tmp_path):
    ws = Workspace()
    assert ws.settings_for(tmp_path / "r.jsonl").spec is None
    (tmp_path / "citelens.toml").write_text('spec = "rag26"\n')
    assert ws.refresh()
    assert ws.settings_for(tmp_path / "r.jsonl").spec == "rag26"


def test_a_broken_project_file_is_a_positioned_error(tmp_path):
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\nsupport = "yes"\n')
    with pytest.raises(ConfigError) as err:
        Workspace().settings_for(tmp_path / "r.jsonl")
    assert ":2:" in str(err.value) and "support" in str(err.value)


def test_documents_by_uri_or_path(tmp_path):
    ws = Workspace()
    doc = ws.open((tmp_path / "r.jsonl").as_uri(), RAG25_LINE, version=4)
    assert doc.path == tmp_path / "r.jsonl" and doc.version == 4
    assert ws.get(tmp_path / "r.jsonl") is doc and ws.get(doc.uri) is doc
    untitled = ws.open("untitled:Untitled-1", RAG25_LINE)
    assert untitled.path is None and ws.get("untitled:Untitled-1") is untitled
    ws.close(doc.uri)
    assert ws.get(doc.uri) is None


def test_the_project_file_sets_corpora_files_and_support(tmp_path):
    (tmp_path / "citelens.toml").write_text(
        'spec = "rag25"\ncorpora = ["msmarco-v2.1-segmented", "docs/"]\nfiles = ["runs/*.jsonl"]\nsupport = true\n'
    )
    s = Workspace(init_options={"support": False}).settings_for(tmp_path / "runs" / "a.jsonl")
    assert s.corpora == ("msmarco-v2.1-segmented", "docs/") and s.files == ("runs/*.jsonl",)
    assert s.support is True and s.origins["support"] == str(tmp_path / "citelens.toml")


def test_a_corpora_setting_that_is_not_a_list_of_strings_is_a_positioned_error(tmp_path):
    (tmp_path / "citelens.toml").write_text('spec = "rag25"\ncorpora = ["a", 3]\n')
    with pytest.raises(ConfigError) as err:
        Workspace().settings_for(tmp_path / "r.jsonl")
    assert ":2:" in str(err.value) and "corpora" in str(err.value)
