"""The track a run looks like, when no spec is configured: every built-in track spec scored
on the run's first reports, from the spec's own data (where the sentences are, the topic
id field, the metadata it requires and recommends, the citation shapes it accepts, the
pattern of its doc ids), never from a list of tracks in code.

Profiles of a track (`rag25-autojudge`, `ragtime26-nist`: ids with a `-`) check the same
shape more or less strictly, so only the tracks themselves are candidates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from citelens.check.track_spec import TrackSpec

#: reports looked at
SAMPLE_REPORTS = 20
#: points per feature (a spec's score is the share of its points the run earns)
WEIGHTS = {
    "sentences": 2.0,
    "topic_id": 2.0,
    "layout": 1.0,
    "mandatory": 2.0,
    "recommended": 1.0,
    "citations": 1.0,
    "doc_ids": 3.0,
}
#: below this confidence the run is said to look like nothing in particular
CONFIDENT = 0.5
#: citation shape -> how a person calls it
SHAPE_WORDS = {
    "rag24": "integer citations",
    "ragtime": "{doc id: score} citations",
    "neuclir": "doc-id list citations",
}


@dataclass(frozen=True)
class TrackGuess:
    spec: str
    confidence: float  # 0..1: how much of the spec's shape the run has, and how clearly
    reasons: tuple[str, ...]  # what gave it away, in words
    runner_up: str | None = None

    @property
    def confident(self) -> bool:
        return self.confidence >= CONFIDENT

    def why(self) -> str:
        return ", ".join(self.reasons)


def first_reports(text: str, limit: int = SAMPLE_REPORTS) -> list[dict[str, Any]]:
    """The first JSON objects of a run (JSON lines, concatenated, or an array)."""
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    pos = 0
    text = text.lstrip("\ufeff")
    while len(out) < limit and pos < len(text):
        c = text[pos]
        if c in " \t\r\n,[]":
            pos += 1
            continue
        try:
            value, pos = decoder.raw_decode(text, pos)
        except ValueError:
            newline = text.find("\n", pos)
            if newline < 0:
                break
            pos = newline + 1
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


@dataclass
class _Facts:
    """What the sample says, independent of any spec."""

    flat: float  # share of reports without a metadata object
    keys: dict[str, float]  # top-level key -> share of reports holding it
    meta: dict[str, float]  # metadata key -> share
    shapes: set[str]
    doc_ids: list[str]


def _shape(citations: object) -> str | None:
    if isinstance(citations, dict):
        return "ragtime"
    if isinstance(citations, list) and citations:
        if all(isinstance(c, int) and not isinstance(c, bool) for c in citations):
            return "rag24"
        if all(isinstance(c, str) for c in citations):
            return "neuclir"
    return None


def _facts(reports: list[dict[str, Any]]) -> _Facts:
    n = len(reports)
    keys: dict[str, float] = {}
    meta: dict[str, float] = {}
    shapes: set[str] = set()
    doc_ids: list[str] = []
    flat = 0
    for report in reports:
        for key in report:
            keys[key] = keys.get(key, 0) + 1 / n
        metadata = report.get("metadata")
        if not isinstance(metadata, dict):
            flat += 1
            metadata = report
        for key in metadata:
            meta[key] = meta.get(key, 0) + 1 / n
        references = report.get("references")
        if isinstance(references, list):
            doc_ids.extend(r for r in references if isinstance(r, str))
        for key in ("answer", "responses"):
            for sentence in report.get(key) or ():
                if not isinstance(sentence, dict):
                    continue
                citations = sentence.get("citations")
                shape = _shape(citations)
                if shape is not None:
                    shapes.add(shape)
                if isinstance(citations, dict):
                    doc_ids.extend(str(k) for k in citations)
                elif shape == "neuclir" and isinstance(citations, list):
                    doc_ids.extend(citations)
    return _Facts(flat / n, keys, meta, shapes, doc_ids[:200])


def _score(spec: TrackSpec, facts: _Facts) -> tuple[float, float, list[str]]:
    """(points earned, points possible, reasons) of one spec."""
    earned = possible = 0.0
    reasons: list[str] = []

    def feature(name: str, share: float, reason: str | None = None) -> None:
        nonlocal earned, possible
        possible += WEIGHTS[name]
        earned += WEIGHTS[name] * share
        if reason and share >= 0.8:
            reasons.append(reason)

    feature("sentences", facts.keys.get(spec.sentences_key, 0.0), f"'{spec.sentences_key}' sentences")
    feature("topic_id", facts.meta.get(spec.topic_id_field, 0.0), f"{spec.topic_id_field} topic ids")
    feature(
        "layout",
        facts.flat if spec.layout == "flat" else 1 - facts.flat,
        "flat metadata" if spec.layout == "flat" else None,
    )
    if spec.mandatory_metadata:
        share = sum(facts.meta.get(k, 0.0) for k in spec.mandatory_metadata) / len(spec.mandatory_metadata)
        feature("mandatory", share)
    if spec.recommended_metadata:
        share = sum(facts.meta.get(k, 0.0) for k in spec.recommended_metadata) / len(
            spec.recommended_metadata
        )
        feature("recommended", share, f"{', '.join(spec.recommended_metadata)} in the metadata")
    if facts.shapes:
        fits = facts.shapes <= set(spec.sentence_type)
        words = " and ".join(SHAPE_WORDS[s] for s in sorted(facts.shapes))
        feature("citations", 1.0 if fits else 0.0, words)
    regex = spec.docid_regex
    if regex is not None and facts.doc_ids:
        share = sum(1 for d in facts.doc_ids if regex.fullmatch(d)) / len(facts.doc_ids)
        collection = (spec.collection_ids or (spec.docid_example or "",))[0]
        feature("doc_ids", share, f"doc ids of {collection}")
    return earned, possible, reasons


def _telling(reason: str) -> int:
    """Most telling first: doc ids, then the citation shape, then field names."""
    if reason.startswith("doc ids"):
        return 0
    return 1 if reason.endswith("citations") else 2


def recognise_track(text: str) -> TrackGuess | None:
    """The built-in track the run's first reports look most like; None when the text holds
    no report at all."""
    from citelens.specs import builtin_specs

    reports = first_reports(text)
    if not reports:
        return None
    facts = _facts(reports)
    scored = []
    for spec_id, spec in builtin_specs().items():
        if "-" in spec_id:
            continue  # a profile of a track, not a track
        earned, possible, reasons = _score(spec, facts)
        scored.append((earned / possible if possible else 0.0, earned, spec_id, reasons))
    scored.sort(key=lambda s: (-s[0], -s[1], s[2]))
    share, earned, spec_id, reasons = scored[0]
    runner = scored[1] if len(scored) > 1 else None
    # a clear lead over the next track (in shape, then in evidence) makes a confident
    # guess; a tie, half of one
    lead = 1.0 if runner is None else share - runner[0] + (earned - runner[1]) / sum(WEIGHTS.values())
    confidence = round(share * min(1.0, 0.5 + 2.0 * lead), 2)
    ordered = sorted(reasons, key=_telling)[:3]
    return TrackGuess(spec_id, confidence, tuple(ordered), runner[2] if runner else None)
