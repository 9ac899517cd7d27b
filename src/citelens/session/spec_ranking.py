"""Which track spec fits a run: every built-in spec, the ones the text passes first.

For "Set track spec…": a run written for rag25 has no errors under rag25 and many under
ragtime25, so the specs it already satisfies are offered first. Each spec is checked as
`citelens check --spec ID` would check the text (no topics, no overrides).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citelens.session.document import OpenDocument


@dataclass(frozen=True)
class SpecFit:
    spec: str
    errors: int
    warnings: int


def rank_specs(text: str, spec_ids: list[str] | None = None) -> list[SpecFit]:
    """The built-in specs (or `spec_ids`) with the errors and warnings of `text` under
    each: those with no errors first, then by fewest errors, fewest warnings, name."""
    from citelens.check.engine import Checker
    from citelens.source.document import read_source
    from citelens.specs import builtin_specs

    specs = builtin_specs()
    source = read_source(text)  # read once: the checks below share the parsed reports
    fits = []
    for spec_id in spec_ids if spec_ids is not None else sorted(specs):
        result = Checker(specs[spec_id], cache_size=0).check_source(source, "<text>")
        fits.append(SpecFit(spec_id, result.count("error"), result.count("warning")))
    return sorted(fits, key=lambda f: (f.errors > 0, f.errors, f.warnings, f.spec))


#: a big run is ranked on its first reports (each spec is a whole check)
SAMPLE_REPORTS = 50


def rank_document(doc: OpenDocument, sample: int = SAMPLE_REPORTS) -> list[SpecFit]:
    """`rank_specs` of an open document; a JSON-lines run of more than `sample` reports
    is ranked on its first `sample` (enough to tell the specs apart, fast on any size)."""
    text, items = doc.text, doc.items
    if doc.layout == "jsonl" and len(items) > sample:
        text = text[: items[sample - 1].end]
    return rank_specs(text)
