"""Engine-level behaviour: the bounded search equals aligning everything, cheap import."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import citelens.align.span_alignment as span_alignment
from citelens.align import (
    CitationConfig,
    CitationWeights,
    PreparedCitationCorpus,
    SourceDocument,
    align_citations,
)


def _corpus_text(rng: random.Random, vocab: list[str], sentences: int) -> str:
    return " ".join(
        " ".join(rng.choices(vocab, k=rng.randint(6, 18))).capitalize() + "." for _ in range(sentences)
    )


def _dump(results):
    return [sc.model_dump() for sc in results]


@pytest.mark.parametrize(
    "preset, overrides",
    [
        ("balanced", {}),
        ("strict", {}),
        ("permissive", {}),
        ("fast", {}),
        ("balanced", {"multi_span_evidence": True, "multi_span_merge_gap_chars": 0}),
        ("balanced", {"weights": CitationWeights(evidence_coverage=0.5)}),
        ("balanced", {"window_size_sentences": 2}),
        ("permissive", {"max_citations_per_source": 1, "top_k": 5, "prefer_source_order": False}),
    ],
)
def test_skipping_passages_changes_nothing(preset, overrides, monkeypatch):
    rng = random.Random(11)
    vocab = [f"w{i}" for i in range(300)] + ["the", "of", "and", "not", "in"] * 20
    docs = [SourceDocument(id=f"d{k % 4}", text=_corpus_text(rng, vocab, 60)) for k in range(6)]
    answers = []
    for _ in range(12):
        doc = rng.choice(docs).text.split(". ")
        pick = rng.choice(doc)
        words = pick.split()
        answers.append(
            " ".join(rng.sample(words, len(words))) + ". " + pick + ". " + _corpus_text(rng, vocab, 1)
        )
    cfg = CitationConfig.preset(preset).model_copy(update=overrides)
    corpus = PreparedCitationCorpus.from_sources(docs, config=cfg)
    bounded_metrics, full_metrics = [], []
    bounded = [_dump(corpus.align(a, on_metrics=bounded_metrics.append)) for a in answers]
    monkeypatch.setattr(span_alignment, "can_skip", lambda cfg, ctx: False)
    full = [_dump(corpus.align(a, on_metrics=full_metrics.append)) for a in answers]
    assert bounded == full
    assert sum(m.num_alignments for m in bounded_metrics) < sum(m.num_alignments for m in full_metrics)


def test_prepared_corpus_equals_one_shot_alignment():
    docs = [
        SourceDocument(id="a", text="Alpha beta gamma. Delta epsilon zeta; eta theta."),
        "Gamma delta. Beta alpha.",
    ]
    corpus = PreparedCitationCorpus.from_sources(docs)
    for answer in ["Alpha beta gamma.", "Delta epsilon.", "Nothing here."]:
        assert _dump(corpus.align(answer)) == _dump(align_citations(answer, docs))


def test_top_k_zero_returns_nothing():
    seen = []
    assert align_citations("A b.", ["A b."], config=CitationConfig(top_k=0), on_metrics=seen.append) == []
    assert seen[0].num_answer_spans == 0


def test_metrics_callback_counts_spans_and_passages():
    seen = []
    align_citations("Alpha beta. Gamma.", ["Alpha beta. Gamma delta. Zeta."], on_metrics=seen.append)
    assert (seen[0].num_answer_spans, seen[0].num_candidates) == (2, 3)
    assert seen[0].num_alignments >= 2


def test_backends():
    assert align_citations("Alpha.", ["Alpha."], backend="python")[0].status == "supported"
    with pytest.raises(ValueError):
        align_citations("Alpha.", ["Alpha."], backend="gpu")
    with pytest.raises(RuntimeError):
        align_citations("Alpha.", ["Alpha."], backend="rust")


def test_import_is_cheap():
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import citelens.align"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    assert "citelens.align" in loaded
    assert not any(name.split(".")[0] in {"numpy", "pydantic"} for name in loaded)


def test_structured_sources_get_a_gap_free_second_pass():
    record = "name: Blue Cafe\nhours.Monday: 9:0-17:0\nhours.Friday: 9:0-17:0\nbusiness_stars: 4.5"
    answer = "Blue Cafe has 4.5 business stars."
    ours = align_citations(answer, [record])
    cite_right = pytest.importorskip("cite_right")
    ref = cite_right.PreparedCitationCorpus.from_sources([record], use_rust=False).align(
        answer, backend="python"
    )
    assert _dump(ours)[0]["status"] == ref[0].status
    assert [(c.char_start, c.char_end) for c in ours[0].citations] == [
        (c.char_start, c.char_end) for c in ref[0].citations
    ]


def test_threads_share_the_caches_safely():
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(5)
    vocab = [f"t{i}x{rng.randint(0, 10**6)}" for i in range(400)]
    docs = [_corpus_text(rng, vocab, 40) for _ in range(8)]
    answers = [d.split(". ")[3] + "." for d in docs]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda k: _dump(align_citations(answers[k], [docs[k]])), range(8)))
    assert parallel == [_dump(align_citations(answers[k], [docs[k]])) for k in range(8)]
    assert all(r[0]["status"] == "supported" for r in parallel)
