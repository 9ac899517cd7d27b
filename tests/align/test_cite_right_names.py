"""The cite-right names a user calls beyond `align_citations`: the segmenter's `Segment`
objects, `PreparedCitationCorpus.inverted_index`, and the convenience helpers, compared
with cite-right 0.4.0 (pure-Python path) on real documents."""

from __future__ import annotations

import json
from pathlib import Path

import cite_right
import pytest
from cite_right.text.segmenter_simple import SimpleSegmenter as RefSegmenter

from citelens import align

DATA = Path(__file__).parents[1] / "data" / "documents"


def _docs(name: str, id_key: str, limit: int) -> list[tuple[str, str]]:
    rows = [
        json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    return [(str(r[id_key]), r["text"]) for r in rows[:limit]]


# cite-right's default prepare step (Rust) segments sources at newlines differently from
# its pure-Python path, which is the one CiteLens reproduces; with the line breaks of
# these documents folded into spaces, both paths agree and the helpers compare directly.
CRANFIELD = [(d, " ".join(t.split())) for d, t in _docs("cranfield_docs.jsonl", "docno", 12)]


def _answers() -> list[str]:
    """Answers built from real document sentences, a paraphrase and an unsupported claim."""
    out = []
    for i in range(0, len(CRANFIELD) - 1, 2):
        first = CRANFIELD[i][1].split(" .")[0].strip()
        second = CRANFIELD[i + 1][1].split(" .")[1].strip() if " ." in CRANFIELD[i + 1][1] else ""
        out.append(f"{first}. {second}. The Eiffel Tower was completed in 1889 for the World's Fair.")
    return out


ANSWERS = _answers()


@pytest.mark.parametrize("split_on_newlines", [True, False])
def test_segmenter_returns_segments_like_cite_right(split_on_newlines):
    ours, theirs = align.SimpleSegmenter(split_on_newlines), RefSegmenter(split_on_newlines=split_on_newlines)
    for _doc_id, text in CRANFIELD:
        got = [(s.text, s.doc_char_start, s.doc_char_end) for s in ours.segment(text)]
        want = [(s.text, s.doc_char_start, s.doc_char_end) for s in theirs.segment(text)]
        assert got == want
        assert all(text[start:end] == seg for seg, start, end in got)


def test_segments_from_a_custom_segmenter_drive_the_alignment():
    """A segmenter returning `Segment`s (cite-right's protocol) is used as given."""
    sources = [align.SourceDocument(id=d, text=t) for d, t in CRANFIELD]
    plain = align.align_citations(ANSWERS[0], sources)
    custom = align.align_citations(ANSWERS[0], sources, source_segmenter=align.SimpleSegmenter(True))
    assert [[c.model_dump() for c in sc.citations] for sc in plain] == [
        [c.model_dump() for c in sc.citations] for sc in custom
    ]


def test_prepared_corpus_has_no_inverted_index_on_the_python_path():
    sources = [align.SourceDocument(id=d, text=t) for d, t in CRANFIELD]
    ours = align.PreparedCitationCorpus.from_sources(sources)
    theirs = cite_right.PreparedCitationCorpus.from_sources(
        [cite_right.SourceDocument(id=d, text=t) for d, t in CRANFIELD], use_rust=False
    )
    assert ours.inverted_index is None and theirs.inverted_index is None


def _ref_results(answer: str):
    prepared = cite_right.PreparedCitationCorpus.from_sources(
        [cite_right.SourceDocument(id=d, text=t) for d, t in CRANFIELD], use_rust=False
    )
    return prepared.align(answer, backend="python")


def _our_results(answer: str):
    return align.align_citations(answer, [align.SourceDocument(id=d, text=t) for d, t in CRANFIELD])


@pytest.mark.parametrize("answer", ANSWERS)
def test_check_groundedness_matches(answer):
    ours = align.check_groundedness(answer, [align.SourceDocument(id=d, text=t) for d, t in CRANFIELD])
    theirs = cite_right.check_groundedness(
        answer, [cite_right.SourceDocument(id=d, text=t) for d, t in CRANFIELD], backend="python"
    )
    assert ours.groundedness_score == pytest.approx(theirs.groundedness_score)
    assert ours.hallucination_rate == pytest.approx(theirs.hallucination_rate)
    assert (ours.num_supported, ours.num_partial, ours.num_unsupported) == (
        theirs.num_supported,
        theirs.num_partial,
        theirs.num_unsupported,
    )
    assert [s.text for s in ours.unsupported_spans] == [s.text for s in theirs.unsupported_spans]


@pytest.mark.parametrize("style", ["markdown", "superscript", "footnote"])
@pytest.mark.parametrize("include_unsupported", [True, False])
def test_format_and_annotate_match(style, include_unsupported):
    for answer in ANSWERS:
        want = cite_right.format_with_citations(
            answer, _ref_results(answer), format=style, include_unsupported=include_unsupported
        )
        got = align.format_with_citations(
            answer, _our_results(answer), format=style, include_unsupported=include_unsupported
        )
        assert got == want
        annotated = align.annotate_answer(
            answer,
            [align.SourceDocument(id=d, text=t) for d, t in CRANFIELD],
            format=style,
            include_unsupported=include_unsupported,
        )
        assert annotated == want


def test_annotated_answer_marks_the_unsupported_claim():
    annotated = align.annotate_answer(ANSWERS[0], [align.SourceDocument(id=d, text=t) for d, t in CRANFIELD])
    assert annotated.endswith("World's Fair.[?]")
    assert "[1]" in annotated


def test_unknown_marker_style_is_refused():
    with pytest.raises(ValueError, match="format must be one of"):
        align.format_with_citations(ANSWERS[0], _our_results(ANSWERS[0]), format="html")


@pytest.mark.parametrize("answer", [*ANSWERS, ""])
def test_citation_summary_matches(answer):
    ours = align.get_citation_summary(_our_results(answer) if answer else [])
    theirs = cite_right.get_citation_summary(_ref_results(answer) if answer else [])
    assert ours == theirs
