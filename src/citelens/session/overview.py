"""The overview of run files named by path, checked with the settings of a `Workspace`:
what `citelens report` writes and what the editor's "Show Run Overview" shows
(`overview_page`: the HTML)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citelens.overview.collect import DocumentText, run_overview
from citelens.overview.model import Overview, RunOverview

if TYPE_CHECKING:
    from citelens.session.workspace import Workspace
    from citelens.support.run import SupportRun


@dataclass
class NamedRuns:
    """The overview, and one line for each path that could not be read."""

    overview: Overview
    problems: list[str] = field(default_factory=list)


def document_text(run: SupportRun) -> DocumentText:
    """A cited document's text as the judge read it: the report's own `documents` first,
    then the configured sources."""
    from citelens.support.document_text import embedded_documents

    def text(doc_id: str, report: Mapping[str, Any]) -> str | None:
        return run.document(doc_id, report, embedded_documents(report))

    return text


def overview_of(
    workspace: Workspace,
    paths: Sequence[str | Path],
    *,
    title: str,
    texts: Mapping[str, str] | None = None,
    docs_base: str | None = None,
    spec_label: Callable[[str], str | None] | None = None,
    each: Callable[[str], None] | None = None,
) -> NamedRuns:
    """Each run file (a directory: the run files directly inside it) checked as `citelens
    check` checks it and summed up. `texts` holds the text of files open in an editor
    (by path as given), which wins over the disk; `each` is told of every file before it
    is read (progress). Raises what a check raises for bad settings (`SpecError`, ...)."""
    from citelens import __version__
    from citelens.check.catalog import docs_uri, summary
    from citelens.files import FileError, read_bytes
    from citelens.session.open_document import OpenDocument
    from citelens.session.run_files import find_runs
    from citelens.source.run_text import decode

    named = find_runs(workspace, [str(p) for p in paths])
    problems = [str(p) for p in named.problems]
    runs: list[RunOverview] = []
    for path in named.paths:
        if path == "-":
            problems.append("standard input cannot be summed up; name the run files")
            continue
        if each is not None:
            each(path)
        open_text = (texts or {}).get(path)
        try:
            data = open_text.encode("utf-8") if open_text is not None else read_bytes(path)
        except FileError as exc:
            problems.append(str(exc))
            continue
        settings = workspace.settings_for(path)
        result = workspace.checker_for(path).check_bytes(data, path)
        text, _ = decode(data)
        # a document of its own, not registered in the workspace: an editor's open
        # document of the same file stays as it is
        doc = OpenDocument(workspace, Path(path).resolve().as_uri(), Path(path), text)
        lookup = workspace.support_run_for(settings) if settings.support else None
        runs.append(
            run_overview(
                doc,
                result,
                spec=doc.checker.spec,
                spec_id=spec_label(path) if spec_label is not None else settings.spec,
                summary=summary,
                docs_link=lambda code: docs_uri(code, docs_base),
                document_text=document_text(lookup) if lookup is not None else None,
            )
        )
    return NamedRuns(Overview(title, __version__, runs), problems)


def overview_page(
    workspace: Workspace, paths: Sequence[str | Path], texts: Mapping[str, str]
) -> dict[str, Any]:
    """The editor's answer: `{html, runs (absolute paths), problems}`, or `{html: None,
    reason}` when the settings cannot be read (an unknown spec, a broken topics file)."""
    from citelens.overview.page import render_page
    from citelens.session.errors import SETTINGS_ERRORS

    try:
        named = overview_of(workspace, paths, title="CiteLens run overview", texts=texts)
    except SETTINGS_ERRORS as exc:
        return {"html": None, "reason": str(exc)}
    return {
        "html": render_page(named.overview),
        "runs": [str(Path(r.path).resolve()) for r in named.overview.runs],
        "problems": named.problems,
    }
