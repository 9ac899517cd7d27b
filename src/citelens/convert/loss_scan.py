"""Finding what a conversion lost: the source value and its converted value, compared.

Each difference becomes a `LossNote` pointing into the source value, so that the CLI can
list them and the editor can show them where the lost content is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from citelens.check.view import TOPIC_ID_ALIASES
from citelens.convert.flat import is_flat, structural_keys
from citelens.convert.losses import LossNote
from citelens.models.citation_ranking import ordered_ids, resolve_positions
from citelens.models.conversion import citation_limit
from citelens.models.report import Report
from citelens.models.sentences import Rag24ReportSentence, ReportSentence, tag_of_sentence
from citelens.source.json_nodes import pointer_join

if TYPE_CHECKING:
    from citelens.specs import TrackSpec

_SENTENCE_KEYS = ("responses", "answer")


class LossScan:
    """Compares a source value with its converted value and names each difference."""

    def __init__(
        self,
        value: Mapping[str, Any],
        source: TrackSpec | None,
        target: TrackSpec,
        report: Report,
        out: dict[str, Any],
    ) -> None:
        self.value, self.source, self.target, self.report, self.out = value, source, target, report, out
        self.flat_in, self.flat_out = is_flat(source), is_flat(target)
        #: the source spec when the source is flat (what `flat_in` says), else None
        self.flat_source = source if is_flat(source) else None
        self.found: list[LossNote] = []
        if self.flat_source is not None:
            self.sentence_key = self.flat_source.sentences_key
        else:
            self.sentence_key = "responses" if value.get("responses") is not None else "answer"

    def add(self, code: str, where: str, message: str, **data: Any) -> None:
        self.found.append(LossNote(code, where, message, data))

    def notes(self) -> list[LossNote]:
        self._top_level()
        self._metadata()
        self._sentences()
        self._references()
        return self.found

    def _md_pointer(self, key: str) -> str:
        return pointer_join(key) if self.flat_in else pointer_join("metadata", key)

    def _out_metadata(self) -> dict[str, Any]:
        if not self.flat_out:
            return self.out.get("metadata") or {}
        skip = structural_keys(self.target)
        return {k: v for k, v in self.out.items() if k not in skip}

    def _top_level(self) -> None:
        if self.flat_source is not None:
            length_key = self.flat_source.response_length_field
            if length_key and length_key in self.value:
                declared = self.value[length_key]
                if not self.flat_out or self.target.response_length_field is None:
                    self.add(
                        "field_dropped",
                        pointer_join(length_key),
                        f"{length_key} is not part of {self.target.track} (it is derived from the text)",
                    )
                elif self.out.get(self.target.response_length_field) != declared:
                    self.add(
                        "response_length_recomputed",
                        pointer_join(length_key),
                        f"{length_key} {declared!r} replaced by the computed word count "
                        f"{self.out.get(self.target.response_length_field)}",
                    )
            return
        kept = {"metadata", "references", self.sentence_key}
        for key, item in self.value.items():
            if key in kept or item is None:
                continue
            if key in _SENTENCE_KEYS and item == self.value.get(self.sentence_key):
                continue  # the same sentences under both names
            self.add("field_dropped", pointer_join(key), f"top-level key {key!r} is not carried over")

    def _metadata(self) -> None:
        raw = self.value if self.flat_in else self.value.get("metadata")
        if not isinstance(raw, Mapping):
            return
        flat = self.flat_source
        skip = structural_keys(flat) if flat is not None else set()
        narrative_in = flat.narrative_field if flat is not None else "narrative"
        narrative_out = self.target.narrative_field if self.flat_out else "narrative"
        out_md = self._out_metadata()
        for key, item in raw.items():
            if key in skip or item is None:
                continue
            if key in TOPIC_ID_ALIASES or (flat is not None and key == flat.topic_id_field):
                name = self.target.topic_id_field
            elif key == narrative_in:
                name = narrative_out
            else:
                name = key
            if name not in out_md:
                self.add(
                    "metadata_dropped",
                    self._md_pointer(key),
                    f"metadata key {key!r} is not kept: {self.target.track} does not list it",
                    key=key,
                )
            elif isinstance(item, int) and not isinstance(item, bool) and isinstance(out_md[name], str):
                self.add(
                    "id_stringified",
                    self._md_pointer(key),
                    f"{key} {item} is written as the string {out_md[name]!r}",
                )
        for key in self.target.mandatory_metadata:
            if key in out_md and (out_md[key] is None or out_md[key] == ""):
                self.add(
                    "metadata_unfilled",
                    "" if self.flat_in else pointer_join("metadata"),
                    f"{self.target.track} requires metadata key {key!r}, which the source does not have",
                    key=key,
                )

    def _sentences(self) -> None:
        raw_sentences = self.value.get(self.sentence_key)
        if not isinstance(raw_sentences, list):
            return
        refs = self.report.references or []
        tag_out = self.target.emit_sentence_type
        limit = citation_limit(self.target)
        scored = self.report.get_sentences_with_citation_confidences()
        sentences: Sequence[ReportSentence] = self.report.responses or []
        for i, (raw, typed) in enumerate(zip(raw_sentences, sentences)):
            where = pointer_join(self.sentence_key, i)
            if isinstance(raw, Mapping):
                extra = sorted(k for k, v in raw.items() if k not in ("text", "citations") and v is not None)
                if extra:
                    self.add(
                        "sentence_field_dropped",
                        where,
                        f"sentence keys {extra} are not carried over",
                        keys=extra,
                    )
            cites, tag = typed.citations, tag_of_sentence(typed)
            if not cites:
                continue
            where = pointer_join(self.sentence_key, i, "citations")
            if tag == "ragtime" and tag_out != "ragtime":
                self.add(
                    "confidence_dropped",
                    where,
                    f"{tag_out} citations have no confidences; only their order is kept",
                )
            if tag != "ragtime" and tag_out == "ragtime":
                self.add("confidence_invented", where, "confidences 1/rank stand in for the citation order")
            if isinstance(typed, Rag24ReportSentence):  # the class is what makes the tag "rag24"
                positions = typed.citations or []  # not empty: `cites` is
                bad = [c for c in positions if not 0 <= c < len(refs)]
                if bad:
                    self.add(
                        "citation_out_of_range",
                        where,
                        f"positions {bad} are outside references ({len(refs)} entries) and are dropped",
                        positions=bad,
                    )
                ids = resolve_positions(positions, refs)
            else:
                ids = list(typed.citations or [])
            unique = list(dict.fromkeys(ids))
            if len(unique) < len(ids):
                self.add("citation_duplicate_merged", where, "a doc id cited more than once is kept once")
            if limit is not None and len(unique) > limit:
                ordered = ordered_ids(scored[i].citations)
                self.add(
                    "citations_truncated",
                    where,
                    f"{len(unique)} citations, {self.target.track} keeps the top {limit}",
                    dropped=ordered[limit:],
                )

    def _references(self) -> None:
        src = self.value.get("references")
        src_list = [r for r in src if isinstance(r, str)] if isinstance(src, list) else []
        out_refs = self.out.get("references")
        out_set = set(out_refs or [])
        if len(set(src_list)) < len(src_list):
            self.add(
                "references_duplicate_merged",
                pointer_join("references"),
                "repeated reference ids are kept once",
            )
        dropped = [r for r in dict.fromkeys(src_list) if r not in out_set]
        if dropped:
            why = (
                "has no references" if self.target.references_kind == "none" else "keeps only cited documents"
            )
            self.add(
                "references_dropped",
                pointer_join("references"),
                f"{len(dropped)} reference(s) dropped: {self.target.track} {why}",
                ids=dropped,
            )
        src_set = set(src_list)
        added = [r for r in out_refs or [] if r not in src_set]
        if added:
            where = (
                pointer_join("references") if "references" in self.value else ""
            )  # no list yet: the whole value
            self.add(
                "references_added", where, f"{len(added)} cited doc id(s) added to references", ids=added
            )
