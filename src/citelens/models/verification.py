"""`Report.verify` / `check` / `check_findings`: a typed report against a track spec.

The rules live in one place, the engine `citelens.check`, which checks the report's
wire value (without a spec: the structural checks only, as the reference library does).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from citelens.check import check_report
from citelens.check.rules.length import word_count
from citelens.check.view import TOPIC_ID_ALIASES
from citelens.specs import TrackSpec, resolve_spec

if TYPE_CHECKING:
    from citelens.models.report import Report


class TrackSpecVerificationError(RuntimeError):
    """A report breaks its track spec (a RuntimeError, as the reference library raises)."""


def wire_value(report: Report, spec: TrackSpec | None, use_answer: bool = False) -> dict[str, Any]:
    """The report as the wire value the engine checks, in `spec`'s layout.

    Of the synced topic-id names only the spec's own is written, so that the aliases the
    model fills in do not read as extra metadata keys.
    """
    aliases = set(TOPIC_ID_ALIASES) - {spec.topic_id_field if spec else "topic_id"}
    metadata = {
        k: v
        for k, v in report.metadata.model_dump(mode="json", exclude_none=True).items()
        if k not in aliases
    }
    sentences = report.answer if use_answer else report.responses
    dumped = None if sentences is None else [s.model_dump(mode="json", exclude_none=True) for s in sentences]
    if spec is not None and spec.layout == "flat":
        return _flat_value(metadata, report.references, dumped, spec)
    value: dict[str, Any] = {"metadata": metadata}
    if report.references is not None:
        value["references"] = list(report.references)
    if dumped is not None:
        key = spec.sentences_key if spec is not None else ("answer" if use_answer else "responses")
        value[key] = dumped
    return value


def _flat_value(
    metadata: dict[str, Any],
    references: list[str] | None,
    sentences: list[dict[str, Any]] | None,
    spec: TrackSpec,
) -> dict[str, Any]:
    """The flat layout: metadata keys on top, the narrative under the spec's name, the length computed."""
    value = {(spec.narrative_field if k == "narrative" else k): v for k, v in metadata.items()}
    if references is not None:
        value["references"] = list(references)
    if spec.response_length_field and sentences is not None:
        value[spec.response_length_field] = word_count(s.get("text", "") for s in sentences)
    if sentences is not None:
        value[spec.sentences_key] = sentences
    return value


def topic_info(request: Any, spec: TrackSpec) -> Any:
    """The engine's view of a request: its id and the length limit the spec reads from it.

    The topic text is left out: like the reference, model-level checking does not compare
    the narrative (that needs the topics file and is a file-level check).
    """
    if request is None:
        return None
    field = spec.length_limit_request_field or "limit"
    ident = getattr(request, "request_id", None) or getattr(request, "id", None)
    return SimpleNamespace(
        id=None if ident is None else str(ident), text=None, limit=getattr(request, field, None)
    )


def findings(
    report: Report, spec: TrackSpec | str | None, *, request: Any = None, use_answer: bool = False
) -> tuple[list[str], list[str]]:
    """(error messages, warning messages) of `report` under `spec`."""
    resolved = resolve_spec(spec)
    info = topic_info(request, resolved) if resolved is not None else None
    found = check_report(wire_value(report, resolved, use_answer), resolved, info)
    errors = [f.message for f in found if f.severity == "error"]
    warnings = [f.message for f in found if f.severity != "error"]
    return errors, warnings


def verify(
    report: Report, spec: TrackSpec | str | None, *, request: Any = None, use_answer: bool = False
) -> bool:
    errors, _ = findings(report, spec, request=request, use_answer=use_answer)
    if errors:
        raise TrackSpecVerificationError(errors[0])
    return True
