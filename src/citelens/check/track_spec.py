"""`TrackSpec`: one track-year's parameters for the rules, as data.

It lives with the rules that read it; `citelens.specs` holds the built-in specs and reads
user spec files into it.

Field names and meanings follow autojudge-base's track_specs.yml so that a user's spec
file for that library loads here unchanged; the fields after `smells` are CiteLens
additions for the flat rag24 format and the strict official-validator profiles.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import MISSING, dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any

from citelens.check.registry import DEFAULT_SMELLS
from citelens.check.spec_table import LineOf, validated_fields

if TYPE_CHECKING:
    from citelens.check.finding import Severity


@dataclass(frozen=True)
class TrackSpec:
    track: str
    task: str
    sentence_type: tuple[str, ...]  # accepted citation shapes; [0] is emitted by convert
    sentences_key: str  # "answer" | "responses"
    topic_id_field: str  # "narrative_id" | "topic_id"
    mandatory_metadata: tuple[str, ...]
    recommended_metadata: tuple[str, ...] = ()
    forbid_extra_metadata: bool = False
    require_exact_narrative: bool = False
    run_id_max_len: int | None = None
    docid_pattern: str | None = None
    collection_ids: tuple[str, ...] | None = None
    references_kind: str = "cited_only"
    references_optional: bool = False
    references_max: int | None = None
    max_citations_per_sentence: int | None = None
    length_unit: str = "words"
    length_limit: int | None = None
    length_limit_request_field: str | None = None
    smells: tuple[str, ...] = DEFAULT_SMELLS
    # --- CiteLens additions -------------------------------------------------------
    description: str = ""
    docid_example: str | None = None  # shown in docid_pattern messages
    layout: str = "metadata"  # "flat": metadata keys at the top level (rag24)
    narrative_field: str = "narrative"  # metadata key that must copy the topic text
    response_length_field: str | None = None  # rag24: declared word count, must be exact
    string_ids: tuple[str, ...] = ()  # these metadata keys must be strings, not ints
    require_references_key: bool = False
    require_citations_key: bool = False
    metadata_values: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    same_on_every_line: tuple[str, ...] = ()  # metadata values constant across a run
    flag_duplicate_citations: bool = False  # one reference cited twice in a sentence

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TrackSpec:
        """A spec from a plain mapping, checked as a spec file's table is (autojudge-base's
        constructor): `sentence_type` may be one string; an unknown field, smell category
        or value is refused with a `SpecError` (a `ValueError`) naming it."""
        if "track" not in d:
            raise KeyError("track")  # the spec's id, required as in the reference
        return spec_from_table(str(d["track"]), d)

    @property
    def emit_sentence_type(self) -> str:
        return self.sentence_type[0]

    @cached_property
    def docid_regex(self) -> re.Pattern[str] | None:
        """Compiled doc-id pattern, matched against the WHOLE id (autojudge-base only
        anchors the start, so `shard_1_2junk` passes there; see README, deviations)."""
        return re.compile(self.docid_pattern) if self.docid_pattern else None

    @cached_property
    def _docid_verdicts(self) -> dict[str, bool]:
        return {}

    @cached_property
    def _valid_ids(self) -> set[str]:
        return set()

    def all_docids_ok(self, doc_ids: Collection[object]) -> bool:
        """Every id valid (non-strings are skipped: other rules report them). Ids seen
        valid before are answered by one C-level set test, the common case on big runs."""
        valid = self._valid_ids
        try:
            if valid.issuperset(doc_ids):
                return True
        except TypeError:  # an object or a list among them (unhashable): the loop skips it
            pass
        ok = True
        for doc_id in doc_ids:
            if type(doc_id) is str and doc_id not in valid:
                if self.docid_ok(doc_id):
                    if len(valid) < 200_000:
                        valid.add(doc_id)
                else:
                    ok = False
        return ok

    def docid_ok(self, doc_id: str) -> bool:
        verdicts = self._docid_verdicts
        ok = verdicts.get(doc_id)
        if ok is None:
            rx = self.docid_regex
            ok = rx is None or rx.fullmatch(doc_id) is not None
            if len(verdicts) < 200_000:  # doc ids repeat across reports; bound the memory
                verdicts[doc_id] = ok
        return ok

    def severity_of(self, code: str) -> Severity:
        return "warning" if code in self.smells else "error"

    def describe(self) -> dict[str, Any]:
        """The spec as plain data (for `citelens specs ID` and the server)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


SPEC_FIELDS: dict[str, Any] = {f.name: f for f in fields(TrackSpec)}
REQUIRED_FIELDS = tuple(
    name for name, f in SPEC_FIELDS.items() if f.default is MISSING and f.default_factory is MISSING
)


def spec_from_table(
    spec_id: str, raw: Mapping[str, Any], path: str | None = None, lines: LineOf | None = None
) -> TrackSpec:
    """Validate one spec table (`extends` already applied) and build the spec; a
    `SpecError` names the spec, the field and, with `path` and `lines`, the place."""
    return TrackSpec(**validated_fields(spec_id, raw, SPEC_FIELDS, REQUIRED_FIELDS, path, lines))
