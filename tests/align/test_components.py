"""Pluggable parts (embedder, tokenizer, aligner, source segmenter) behave as in the reference."""

from __future__ import annotations

import zlib

import pytest

from tests.helpers.compat_cases import build_cases, to_ours, to_reference

cite_right = pytest.importorskip("cite_right")
from cite_right import PreparedCitationCorpus as RefCorpus  # noqa: E402
from cite_right.core.aligner_py import SmithWatermanAligner as RefAligner  # noqa: E402
from cite_right.text.segmenter_simple import SimpleSegmenter as RefSegmenter  # noqa: E402
from cite_right.text.tokenizer import SimpleTokenizer as RefTokenizer  # noqa: E402

from citelens.align import align_citations  # noqa: E402


class HashingEmbedder:
    """A deterministic bag-of-words embedder (no model needed)."""

    def encode(self, texts):
        vectors = []
        for text in texts:
            v = [0.0] * 16
            for word in text.lower().split():
                v[zlib.crc32(word.encode()) % 16] += 1.0
            vectors.append(v)
        return vectors


def _rounded(x):
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_rounded(v) for v in x]
    return x


CASES = build_cases()[::9]


@pytest.mark.parametrize("part", ["embedder", "tokenizer", "aligner", "segmenter"])
def test_results_equal_the_reference(part):
    for case in CASES:
        ours_sources, ours_cfg = to_ours(case)
        ref_sources, ref_cfg = to_reference(case)
        ours_kw, ref_kw, align_kw = {}, {}, {}
        if part == "embedder":
            ours_kw["embedder"] = ref_kw["embedder"] = HashingEmbedder()
        elif part == "tokenizer":
            ours_kw["tokenizer"], ref_kw["tokenizer"] = RefTokenizer(), RefTokenizer()
        elif part == "segmenter":
            ours_kw["source_segmenter"] = ref_kw["source_segmenter"] = RefSegmenter(split_on_newlines=False)
        else:
            ours_kw["aligner"] = align_kw["aligner"] = RefAligner(
                ours_cfg.match_score,
                ours_cfg.mismatch_score,
                ours_cfg.gap_score,
                return_match_blocks=ours_cfg.multi_span_evidence,
            )
        ours = align_citations(case.answer, ours_sources, config=ours_cfg, **ours_kw)
        ref = RefCorpus.from_sources(ref_sources, config=ref_cfg, use_rust=False, **ref_kw).align(
            case.answer, backend="python", **align_kw
        )
        assert _rounded([s.model_dump() for s in ours]) == _rounded([s.model_dump() for s in ref]), case.name
