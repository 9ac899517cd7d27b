"""Every offset is a code point offset: document[char_start:char_end] == evidence, always."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citelens.align import CitationConfig, OffsetMap, SourceChunk, SourceDocument, align_citations

_WORDS = [
    "river",
    "bank",
    "loan",
    "the",
    "of",
    "2019",
    "1,000",
    "50%",
    "$5",
    "caf\u00e9",
    "Stra\u00dfe",
    "\U0001f600",
    "na\u00efve",
    "e\u0301t\u00e9",
    "don\u2019t",
    "COVID\u201319",
    "\u00bd",
    "Dr.",
    "U.S.",
    "x",
]
_SEPS = [" ", " ", " ", ". ", "; ", "\n", ", ", "! "]

sentence = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12).map(" ".join)
document = st.lists(st.tuples(sentence, st.sampled_from(_SEPS)), min_size=1, max_size=12).map(
    lambda parts: "".join(s + sep for s, sep in parts)
)


def check(results, full_texts: dict[str, str]):
    for sc in results:
        for c in sc.citations:
            doc = full_texts[c.source_id]
            assert doc[c.char_start : c.char_end] == c.evidence
            for e in c.evidence_spans:
                assert doc[e.char_start : e.char_end] == e.evidence
                assert c.char_start <= e.char_start < e.char_end <= c.char_end
        for r in sc.retrieval_support:
            assert full_texts[r.source_id][r.passage_char_start : r.passage_char_end] == r.passage_text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document, st.lists(sentence, min_size=1, max_size=3), st.booleans(), st.integers(0, 40))
def test_evidence_is_the_document_slice(doc, answer_parts, multi_span, gap):
    cfg = CitationConfig(multi_span_evidence=multi_span, multi_span_merge_gap_chars=gap)
    answer = ". ".join(answer_parts)
    results = align_citations(answer, [SourceDocument(id="d", text=doc), doc], config=cfg)
    check(results, {"d": doc, "1": doc})
    for sc in results:
        assert answer[sc.answer_span.char_start : sc.answer_span.char_end] == sc.answer_span.text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document, st.data())
def test_chunk_offsets_point_into_the_full_document(doc, data):
    start = data.draw(st.integers(0, len(doc)))
    end = data.draw(st.integers(start, len(doc)))
    chunk = SourceChunk(
        source_id="d", text=doc[start:end], doc_char_start=start, doc_char_end=end, document_text=doc
    )
    answer = data.draw(sentence)
    check(align_citations(answer, [chunk]), {"d": doc})


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.data())
def test_utf16_and_utf8_offsets(text, data):
    offset = data.draw(st.integers(0, len(text)))
    m = OffsetMap(text)
    assert m.utf16(offset) == len(text[:offset].encode("utf-16-le")) // 2
    assert m.utf8(offset) == len(text[:offset].encode("utf-8"))
    assert m.span(0, offset, "utf-32") == (0, offset)
