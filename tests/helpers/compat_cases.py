"""A seeded benchmark of (answer, sources, config) cases built from the sample data.

Used by ``test_compat.py`` (our engine against cite-right 0.4.0's pure-Python path)
and runnable on its own to print the figures and every disagreement:

    .venv/bin/python tests/align/compat_cases.py [--show]
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

from tests.helpers.sample_data import DOCUMENTS, RUNS

DATA = DOCUMENTS
_RUN_NAMES = {"dragun_run.jsonl": "organizer-gpt-oss-t2.jsonl"}  # the DRAGUN organizer run
SEED = 20261130
PRESETS = ["balanced"] * 6 + ["strict", "permissive", "fast"]


@dataclass
class Case:
    name: str
    kind: str
    answer: str
    sources: list[
        tuple
    ]  # ("str", text) | ("doc", id, text) | ("chunk", id, text, start, end, document_text, index)
    preset: str = "balanced"
    overrides: dict = field(default_factory=dict)


def _jsonl(name: str) -> list[dict]:
    run = RUNS / _RUN_NAMES.get(name, name)
    path = run if run.exists() else DATA / name  # a run, or documents
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


_SENT = re.compile(r"[^.!?]+[.!?]+(?=\s|$)")


def _sentences(text: str) -> list[tuple[int, int]]:
    return [(m.start() + len(m.group()) - len(m.group().lstrip()), m.end()) for m in _SENT.finditer(text)]


def _excerpt(rng: random.Random, text: str, lo: int = 5, hi: int = 12) -> str:
    spans = [s for s in _sentences(text) if s[1] - s[0] > 25]
    if len(spans) <= lo:
        return text[:2500]
    first = rng.randrange(0, max(1, len(spans) - lo))
    last = min(len(spans), first + rng.randint(lo, hi)) - 1
    return text[spans[first][0] : spans[last][1]]


def _pick_sentence(rng: random.Random, text: str) -> str:
    spans = [s for s in _sentences(text) if 40 < s[1] - s[0] < 400]
    if not spans:
        return text[:200]
    s, e = rng.choice(spans)
    return text[s:e]


_SYNONYMS = {
    "said": "stated",
    "big": "large",
    "large": "big",
    "people": "individuals",
    "show": "demonstrate",
    "found": "discovered",
    "use": "employ",
    "used": "employed",
    "help": "assist",
    "start": "begin",
    "new": "novel",
    "many": "numerous",
    "also": "additionally",
    "about": "regarding",
    "made": "created",
    "important": "significant",
    "company": "firm",
    "study": "research",
    "results": "findings",
}


def paraphrase(rng: random.Random, sentence: str) -> str:
    words = sentence.rstrip(".!?").split()
    out = []
    for w in words:
        r = rng.random()
        if r < 0.2 and len(words) > 6:
            continue
        key = w.lower().strip(",;:")
        if key in _SYNONYMS and rng.random() < 0.8:
            w = _SYNONYMS[key]
        out.append(w)
    if len(out) > 4 and rng.random() < 0.5:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(out) + "."


def reorder(rng: random.Random, sentence: str) -> str:
    body = sentence.rstrip(".!?")
    parts = [p.strip() for p in re.split(r",|;| and ", body) if p.strip()]
    if len(parts) < 2:
        words = body.split()
        k = max(1, len(words) // 2)
        parts = [" ".join(words[k:]), " ".join(words[:k])]
    else:
        rng.shuffle(parts)
    text = ", ".join(parts)
    return text[:1].upper() + text[1:] + "."


def change_numbers(rng: random.Random, sentence: str) -> str:
    if re.search(r"\d", sentence):
        return re.sub(r"\d+", lambda m: str(int(m.group()) * 2 + rng.randint(1, 9)), sentence, count=1)
    return sentence.rstrip(".") + f" in {rng.randint(1900, 2030)}."


def negate(rng: random.Random, sentence: str) -> str:
    new, n = re.subn(r"\b(is|are|was|were|can|will|has|have|does|did)\b", r"\1 not", sentence, count=1)
    return new if n else "It is not true that " + sentence[:1].lower() + sentence[1:]


def drop_middle(rng: random.Random, sentence: str) -> str:
    words = sentence.split()
    if len(words) < 10:
        return sentence
    a = rng.randint(3, len(words) // 2)
    b = min(len(words) - 2, a + rng.randint(2, 5))
    return " ".join(words[:a] + words[b:])


_UNICODE = [
    ("'", "\u2019"),
    ("-", "\u2013"),
    ("cafe", "caf\u00e9"),
    ("strasse", "stra\u00dfe"),
    (" - ", " \u2014 "),
    ("fi", "\ufb01"),
]


def unicodify(rng: random.Random, text: str, emoji: bool) -> str:
    for a, b in _UNICODE:
        if rng.random() < 0.6:
            text = text.replace(a, b)
    if emoji:
        words = text.split(" ")
        for _ in range(3):
            words.insert(
                rng.randrange(len(words) + 1),
                rng.choice(["\U0001f600", "\u00e9t\u00e9", "na\u0131ve", "\U0001d400bc", "\u00bd"]),
            )
        text = " ".join(words)
    return text


def _pool(rng: random.Random) -> list[tuple[str, str]]:
    docs = [(d["docid"], d["body"]) for d in _jsonl("dragun_docs.jsonl")]
    docs += [(f"cranfield-{d['docno']}", d["text"]) for d in _jsonl("cranfield_docs.jsonl")]
    return docs


def build_cases(seed: int = SEED) -> list[Case]:
    rng = random.Random(seed)
    pool = _pool(rng)
    cases: list[Case] = []
    kinds = [
        "verbatim",
        "paraphrase",
        "reorder",
        "numbers",
        "negation",
        "unrelated",
        "multispan",
        "chunk",
        "unicode",
        "mixed",
    ]
    for n in range(260):
        kind = kinds[n % len(kinds)]
        doc_id, body = rng.choice(pool)
        text = _excerpt(rng, body)
        others = [p for p in pool if p[0] != doc_id]
        distractors = [(i, _excerpt(rng, b, 3, 6)) for i, b in rng.sample(others, rng.randint(0, 2))]
        sentence = _pick_sentence(rng, text)
        preset = rng.choice(PRESETS)
        overrides: dict = {}
        if rng.random() < 0.15:
            overrides["window_size_sentences"] = 2
        if kind == "verbatim":
            answer = sentence if rng.random() < 0.6 else sentence + " " + _pick_sentence(rng, text)
        elif kind == "paraphrase":
            answer = paraphrase(rng, sentence)
        elif kind == "reorder":
            answer = reorder(rng, sentence)
        elif kind == "numbers":
            answer = change_numbers(rng, sentence)
        elif kind == "negation":
            answer = negate(rng, sentence)
        elif kind == "unrelated":
            answer = _pick_sentence(rng, rng.choice(others)[1])
        elif kind == "multispan":
            answer = drop_middle(rng, sentence)
            overrides["multi_span_evidence"] = True
            overrides["multi_span_merge_gap_chars"] = rng.choice([0, 16, 40])
        elif kind == "unicode":
            text = unicodify(rng, text, emoji=rng.random() < 0.5)
            sentence = _pick_sentence(rng, text)
            answer = unicodify(
                rng, sentence if rng.random() < 0.5 else paraphrase(rng, sentence), emoji=False
            )
        elif kind == "mixed":
            parts = [
                sentence,
                paraphrase(rng, _pick_sentence(rng, text)),
                _pick_sentence(rng, rng.choice(others)[1]),
            ]
            rng.shuffle(parts)
            answer = " ".join(parts[:2]) + "\n\n" + parts[2]
        else:  # chunk
            answer = sentence if rng.random() < 0.5 else paraphrase(rng, sentence)
        if kind == "chunk":
            start = body.find(text)
            sources = [
                ("chunk", doc_id, text, start, start + len(text), body if rng.random() < 0.7 else None, None)
            ]
            for _i, (other_id, other_text) in enumerate(distractors):
                sources.append(("chunk", other_id, other_text, 0, len(other_text), other_text, None))
        elif rng.random() < 0.2:
            sources = [("str", text)] + [("str", t) for _, t in distractors]
        else:
            sources = [("doc", doc_id, text)] + [("doc", i, t) for i, t in distractors]
        if len(sources) > 1 and rng.random() < 0.5:
            rng.shuffle(sources)
        cases.append(Case(f"{kind}-{n}", kind, answer, sources, preset, overrides))

    # Real generated reports with the documents they cite.
    for run in (1, 2, 3, 4):
        for n, report in enumerate(_jsonl(f"kiddie_run{run}.jsonl")):
            docs = report.get("documents") or {}
            answer = " ".join(r["text"] for r in report["responses"])
            sources = [("doc", d["id"], d["text"]) for d in docs.values()]
            if sources:
                cases.append(Case(f"kiddie-{run}-{n}", "report", answer, sources, rng.choice(PRESETS)))
    topics = {d["docid"]: d["body"] for d in _jsonl("dragun_docs.jsonl")}
    for n, report in enumerate(_jsonl("dragun_run.jsonl")):
        body = topics.get(report["metadata"]["topic_id"])
        if body is None:
            continue
        answer = " ".join(r["text"] for r in report["responses"][:6])
        cases.append(
            Case(
                f"dragun-{n}",
                "report",
                answer,
                [("doc", report["metadata"]["topic_id"], body)],
                rng.choice(PRESETS),
            )
        )

    # The real MS MARCO segments, as chunks of their document.
    doc = _jsonl("msmarco_v2.1_doc.sample.jsonl")[0]
    for n, seg in enumerate(
        s for s in _jsonl("msmarco_v2.1_doc_segmented.sample.jsonl") if s["docid"].startswith(doc["docid"])
    ):
        for m in range(6):
            sentence = _pick_sentence(rng, seg["segment"])
            answer = [sentence, paraphrase(rng, sentence), negate(rng, sentence)][m % 3]
            src = (
                "chunk",
                doc["docid"],
                seg["segment"],
                seg["start_char"],
                seg["end_char"],
                doc["body"],
                None,
            )
            cases.append(Case(f"msmarco-{n}-{m}", "chunk", answer, [src], rng.choice(PRESETS)))
    return cases


def to_ours(case: Case):
    from citelens.align import CitationConfig, SourceChunk, SourceDocument

    return _convert(case, CitationConfig, SourceDocument, SourceChunk)


def to_reference(case: Case):
    from cite_right import CitationConfig, SourceChunk, SourceDocument

    return _convert(case, CitationConfig, SourceDocument, SourceChunk)


def _convert(case, config_cls, doc_cls, chunk_cls):
    sources = []
    for s in case.sources:
        if s[0] == "str":
            sources.append(s[1])
        elif s[0] == "doc":
            sources.append(doc_cls(id=s[1], text=s[2]))
        else:
            sources.append(
                chunk_cls(
                    source_id=s[1],
                    text=s[2],
                    doc_char_start=s[3],
                    doc_char_end=s[4],
                    document_text=s[5],
                    source_index=s[6],
                )
            )
    cfg = getattr(config_cls, case.preset)()
    if case.overrides:
        cfg = cfg.model_copy(update=case.overrides)
    return sources, cfg


def run_reference(case: Case):
    from cite_right import PreparedCitationCorpus

    sources, cfg = to_reference(case)
    return PreparedCitationCorpus.from_sources(sources, config=cfg, use_rust=False).align(
        case.answer, backend="python"
    )


def run_ours(case: Case):
    from citelens.align import align_citations

    sources, cfg = to_ours(case)
    return align_citations(case.answer, sources, config=cfg)


def iou(a: tuple[int, int], b: tuple[int, int]) -> float:
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union else 1.0


@dataclass
class Comparison:
    spans: int = 0
    status_agree: int = 0
    both_cite: int = 0
    iou_ok: int = 0
    disagreements: list = field(default_factory=list)

    @property
    def status_rate(self) -> float:
        return self.status_agree / max(1, self.spans)

    @property
    def iou_rate(self) -> float:
        return self.iou_ok / max(1, self.both_cite)


def compare(cases: list[Case]) -> Comparison:
    result = Comparison()
    for case in cases:
        ours, theirs = run_ours(case), run_reference(case)
        assert [(s.answer_span.char_start, s.answer_span.char_end) for s in ours] == [
            (s.answer_span.char_start, s.answer_span.char_end) for s in theirs
        ], case.name
        for a, b in zip(ours, theirs):
            result.spans += 1
            if a.status == b.status:
                result.status_agree += 1
            else:
                result.disagreements.append((case.name, "status", a.answer_span.text, a.status, b.status))
            if a.citations and b.citations:
                result.both_cite += 1
                ca, cb = a.citations[0], b.citations[0]
                overlap = (
                    iou((ca.char_start, ca.char_end), (cb.char_start, cb.char_end))
                    if ca.source_id == cb.source_id
                    else 0.0
                )
                if overlap >= 0.9:
                    result.iou_ok += 1
                else:
                    result.disagreements.append(
                        (case.name, "evidence", a.answer_span.text, ca.evidence, cb.evidence)
                    )
    return result


if __name__ == "__main__":
    import sys
    import time

    cases = build_cases()
    started = time.perf_counter()
    r = compare(cases)
    print(
        f"cases {len(cases)}  spans {r.spans}  status agreement {r.status_agree}/{r.spans} = {r.status_rate:.4f}  "
        f"top-evidence IoU>=0.9 {r.iou_ok}/{r.both_cite} = {r.iou_rate:.4f}  ({time.perf_counter() - started:.1f}s)"
    )
    kinds: dict = {}
    for c in cases:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    print("kinds", kinds)
    if "--show" in sys.argv:
        for d in r.disagreements:
            print(d)
