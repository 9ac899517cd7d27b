"""The tables of the rule documentation that list the built-in specs, generated from the
spec data (src/citelens/specs/builtin.toml), so that adding a track year is the spec and
`python docs/gen_rule_pages.py`, never a hand-edited table.

A table is found by its header line in its rule file; its rows are replaced. Specs whose
cells read the same share a row, in the order of the spec data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_MEANINGS = {
    "retrieval_list": "every cited doc is listed; uncited entries are allowed; at most `references_max`",
    "cited_only": "references are exactly the set of cited docs",
    "none": "the report has no references list",
    "ignore": "references are not checked",
}


def _grouped(cell: Callable[[Any], str | None]) -> list[tuple[list[str], str]]:
    """(spec ids, cell) in spec-data order, specs with the same cell together; a None cell
    leaves the spec out."""
    from citelens.specs import builtin_specs

    groups: dict[str, list[str]] = {}
    for spec_id, spec in builtin_specs().items():
        text = cell(spec)
        if text is not None:
            groups.setdefault(text, []).append(spec_id)
    return [(ids, text) for text, ids in groups.items()]


def _ids(ids: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in ids)


def _severity(spec: Any, code: str) -> str:
    return "smell" if spec.severity_of(code) == "warning" else "error"


def _limit(spec: Any) -> str:
    unit = "characters" if spec.length_unit == "chars" else "words"
    if spec.length_limit is not None:
        return f"{spec.length_limit} {spec.length_unit} ({_severity(spec, 'length')})"
    if spec.length_limit_request_field:
        return f"the topic's `{spec.length_limit_request_field}` in {unit} ({_severity(spec, 'length')})"
    return "none"


def length_rows() -> list[str]:
    return [f"| {_ids(ids)} | {cell} |" for ids, cell in _grouped(_limit)]


def metadata_rows() -> list[str]:
    def cell(spec: Any) -> str:
        where = " (top level)" if spec.layout == "flat" else ""
        return f"{', '.join(spec.mandatory_metadata)}{where}"

    return [f"| {_ids(ids)} | {cell} |" for ids, cell in _grouped(cell)]


def references_rows() -> list[str]:
    by_kind = dict((cell, ids) for ids, cell in _grouped(lambda s: s.references_kind))
    return [
        f"| `{kind}` | {meaning} | {_ids(by_kind[kind]) if kind in by_kind else '(none built in)'} |"
        for kind, meaning in _MEANINGS.items()
    ]


def docid_rows() -> list[str]:
    def cell(spec: Any) -> str | None:
        if not spec.docid_pattern:
            return None
        pattern = spec.docid_pattern.replace("|", "\\|")
        return f"`{pattern}` | `{spec.docid_example}`" if spec.docid_example else f"`{pattern}` |"

    return [f"| {_ids(ids)} | {cell} |" for ids, cell in _grouped(cell)]


#: rule file -> header line of its table -> the table's rows
TABLES: dict[str, dict[str, Callable[[], list[str]]]] = {
    "length.md": {"| spec | limit |": length_rows},
    "metadata.md": {"| spec | mandatory metadata |": metadata_rows},
    "references.md": {"| `references_kind` | meaning | built-in specs |": references_rows},
    "sentences.md": {"| spec | pattern | example |": docid_rows},
}


def with_tables(name: str, text: str) -> str:
    """The rule file `name` with its spec tables regenerated (unchanged if it has none)."""
    lines = text.split("\n")
    for header, rows in TABLES.get(name, {}).items():
        start = lines.index(header)
        end = start + 2  # after the header and its |---| line
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        lines[start + 2 : end] = rows()
    return "\n".join(lines)
