"""The support judge: does one cited document support one report sentence?

The sentence is taken whole (never re-split). Its content terms (stems, numbers, names;
never stopwords) are looked up in the document; up to ``max_passages`` document sentences
are chosen greedily to cover as many of them as possible, and the matched words in those
passages become the evidence spans. The verdict follows from the weighted coverage and
the thresholds in thresholds.toml; see docs/support.md.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import replace
from itertools import pairwise

from citelens.support.amounts import other_amount
from citelens.support.clauses import clauses
from citelens.support.document_terms import PREFIX_BUCKET, SUFFIX_BUCKET, PreparedDocument, PreparedDocuments
from citelens.support.language import different_languages, guess_language
from citelens.support.negation import states_negation
from citelens.support.settings import SupportSettings, default_settings, month_names
from citelens.support.terms import NAME, NUMBER, WORD, Term, extract_terms
from citelens.support.verdict import HIGH, LOW, Evidence, SupportVerdict, UncheckedReason, Verdict, unchecked

_DOCUMENTS = PreparedDocuments()


def judge_support(
    sentence: str,
    document: str | None,
    settings: SupportSettings | None = None,
) -> SupportVerdict:
    """Judge ``sentence`` against the text of one cited document (None: not available)."""
    settings = settings or default_settings()
    if document is None or not document.strip():
        return unchecked(UncheckedReason.DOCUMENT_NOT_AVAILABLE)
    if not any(c.isalpha() for c in sentence):
        has_digits = any(c.isdigit() for c in sentence)
        return unchecked(UncheckedReason.NUMBERS_ONLY if has_digits else UncheckedReason.TOO_LITTLE_CONTENT)
    doc = _DOCUMENTS.get(document, settings)
    sentence_guess = guess_language(sentence, settings)
    if different_languages(sentence_guess, doc.guess):
        return unchecked(UncheckedReason.DIFFERENT_LANGUAGE, sentence_guess.language)
    language = doc.guess.language
    sentence_terms = extract_terms(sentence, language)
    weights = _content_weights(sentence_terms, settings)
    if len(weights) < settings.min_content_terms:
        return unchecked(UncheckedReason.TOO_LITTLE_CONTENT, language)
    if doc.content_terms < settings.min_content_terms:
        return unchecked(UncheckedReason.TOO_LITTLE_CONTENT, language)
    name_keys = frozenset(t.key for t in sentence_terms if t.kind == NAME)
    verdict, found, covered = _judge_terms(weights, doc, settings, name_keys)
    if verdict.verdict is Verdict.PARTIAL and language == "english" and settings.use_synonyms:
        verdict, found, covered = _with_synonyms(verdict, weights, found, covered, doc, settings)
    if verdict.verdict is Verdict.SUPPORTED:
        verdict = _each_part_there(sentence, sentence_terms, weights, covered, doc, settings, verdict)
    missing = _missing_words(sentence, sentence_terms, found)
    if verdict.verdict is Verdict.SUPPORTED and len(missing) > settings.max_missing_terms:
        # most words are there, but the claim has words the document never uses
        verdict = replace(verdict, verdict=Verdict.PARTIAL)
    verdict = _refined(sentence, sentence_terms, verdict, doc, language)
    # one replace for the explanation and the tier (a judgement's biggest fixed cost)
    tier = _tier(verdict, settings)
    if tier == HIGH and not verdict.other_amount and language == "english" and settings.use_synonyms:
        tier = _tier_with_synonyms(weights, found, doc, settings)
    topic: tuple[str, ...] = ()
    if verdict.verdict is Verdict.UNSUPPORTED and verdict.details.get("topic_only"):
        topic = _topic_words(sentence, sentence_terms, found, doc, settings)
    return replace(
        verdict,
        missing_terms=missing,
        tier=tier,
        passage=_best_passage(doc, verdict),
        topic_terms=topic,
    )


def _topic_words(
    sentence: str, terms: list[Term], found: set[str], doc: PreparedDocument, settings: SupportSettings
) -> tuple[str, ...]:
    """The sentence's content words (as written) that the document has only as topic
    words: what the explanation of a topic-only "unsupported" shows as found but not
    telling."""
    out: dict[str, None] = {}
    for t in terms:
        if t.content and t.key in found:
            keys = _document_keys(t.key, doc, settings)
            if all(doc.topical(k, settings.topic_passage_share) for k in keys):
                out.setdefault(sentence[t.start : t.end], None)
    return tuple(out)


def _with_synonyms(
    verdict: SupportVerdict,
    weights: dict[str, float],
    found: set[str],
    covered: set[str],
    doc: PreparedDocument,
    settings: SupportSettings,
) -> tuple[SupportVerdict, set[str], set[str]]:
    """A "partial" whose missing words are in the document as synonyms or other forms
    (WordNet, synonyms.py) becomes "supported" when the coverage with them reaches
    `supported_coverage` and no number is missing. Only ever raises a partial: an
    "unsupported" is never looked at, so a synonym cannot clear a flag."""
    if verdict.missing_numbers:
        return verdict, found, covered
    from citelens.support.synonyms import synonyms

    # in the evidence passages, as the words themselves must be
    passages = _evidence_passages(doc, verdict)
    lo = bisect_left(doc.passage_of_term, min(passages, default=0))
    hi = bisect_right(doc.passage_of_term, max(passages, default=-1))
    there = {doc.terms[i].key for i in range(lo, hi) if doc.passage_of_term[i] in passages}
    extra = {k for k in weights if k not in covered and any(s in there for s in synonyms(k))}
    if not extra:
        return verdict, found, covered
    total = sum(weights.values())
    coverage = sum(weights[k] for k in covered | extra) / total
    if coverage < settings.supported_coverage:
        return verdict, found, covered
    raised = replace(
        verdict, verdict=Verdict.SUPPORTED, score=round(coverage, 4), matched_terms=len(covered | extra)
    )
    return raised, found | extra, covered | extra


def _each_part_there(
    sentence: str,
    terms: list[Term],
    weights: dict[str, float],
    covered: set[str],
    doc: PreparedDocument,
    settings: SupportSettings,
    verdict: SupportVerdict,
) -> SupportVerdict:
    """A "supported" stays so only if every clause is covered and every counted number
    comes with its noun; else partial, naming what is not there."""
    uncovered: list[str] = []
    if settings.clause_coverage > 0:
        parts = clauses(sentence, terms, doc.guess.language, settings.min_content_terms)
        if len(parts) > 1:
            for part in parts:
                keys = {t.key: weights[t.key] for t in part if t.key in weights}
                total = sum(keys.values())
                if (
                    total
                    and sum(w for k, w in keys.items() if k in covered) / total < settings.clause_coverage
                ):
                    uncovered.append(sentence[part[0].start : part[-1].end])
    mismatched = _mismatched_numbers(sentence, terms, doc, settings) if settings.number_pair_window else ()
    if not uncovered and not mismatched:
        return verdict
    return replace(
        verdict, verdict=Verdict.PARTIAL, uncovered_clauses=tuple(uncovered), mismatched_numbers=mismatched
    )


def _mismatched_numbers(
    sentence: str, terms: list[Term], doc: PreparedDocument, settings: SupportSettings
) -> tuple[str, ...]:
    """Numbers of the sentence directly followed by a noun ("15 worms") that the document
    has, but never with that noun within ``number_pair_window`` terms after it. Years
    ("the 2020 transcript") and days of dates ("13 August") are left alone."""
    out: list[str] = []
    window = settings.number_pair_window
    for term, following in pairwise(terms):
        if term.kind != NUMBER or following.kind not in (WORD, NAME) or _year_like(term.key):
            continue
        written = sentence[term.start : term.end]
        before = sentence[term.start - 1] if term.start else ""
        if not written.isdigit() or (before and unicodedata.category(before) == "Sc"):
            # a count written in digits only: a number word is often part of a name ("Page
            # Six published"), and an amount ("$4.2 billion") is checked as an amount
            continue
        if sentence[following.start : following.end].casefold() in month_names():
            continue  # a day of a date ("13 August"), not 13 of something
        places = doc.postings.get(term.key)
        if not places:
            continue  # missing altogether: missing_numbers says so
        nouns = set(_document_keys(following.key, doc, settings))
        n = len(doc.terms)
        if not any(doc.terms[j].key in nouns for i in places for j in range(i + 1, min(i + 1 + window, n))):
            out.append(sentence[term.start : following.end])
    return tuple(out)


def _year_like(key: str) -> bool:
    digits = key[1:]
    return digits.isdigit() and len(digits) == 4 and 1000 <= int(digits) <= 2999


#: a passage longer than this is cut to the part around its evidence
PASSAGE_CHARS = 480


def _best_passage(doc: PreparedDocument, verdict: SupportVerdict) -> Evidence | None:
    """The document sentence holding the most evidence, with the next one when the
    evidence goes on there (a claim often spans two): what the explanation shows whole."""
    if not verdict.evidence:
        return None
    starts = [a for a, _ in doc.passages]
    weight: dict[int, int] = {}
    for e in verdict.evidence:
        p = max(0, bisect_right(starts, e.start) - 1)
        weight[p] = weight.get(p, 0) + (e.end - e.start)
    best = min(weight, key=lambda p: (-weight[p], p))
    last = best + 1 if best + 1 in weight else best
    start, end = doc.passages[best][0], doc.passages[last][1]
    if end - start > PASSAGE_CHARS:
        inside = [e for e in verdict.evidence if start <= e.start < end]
        middle = (inside[0].start + inside[-1].end) // 2
        start = max(start, middle - PASSAGE_CHARS // 2)
        end = min(end, start + PASSAGE_CHARS)
    while end > start and doc.text[end - 1].isspace():
        end -= 1
    while start < end and doc.text[start].isspace():
        start += 1
    return Evidence(start, end, doc.text[start:end])


def _tier(verdict: SupportVerdict, settings: SupportSettings) -> str:
    """High: an "unsupported" with almost nothing of the sentence found, or another
    amount; every other lexical verdict is low (the words are there or not; meaning is
    not checked)."""
    high = verdict.verdict is Verdict.UNSUPPORTED and (
        verdict.other_amount or verdict.score < settings.high_tier_coverage
    )
    return HIGH if high else LOW


def _tier_with_synonyms(
    weights: dict[str, float], found: set[str], doc: PreparedDocument, settings: SupportSettings
) -> str:
    """A confident "unsupported" says almost none of the claim is in the document; when
    the document has enough of it as synonyms or other forms ("wet" ~ "moist"), the claim
    may be paraphrased: the verdict stays "unsupported" (a synonym never clears a flag),
    its confidence drops to the low tier."""
    from citelens.support.synonyms import synonyms

    there = doc.postings  # the document's content keys
    extra = {k for k in weights if k not in found and any(s in there for s in synonyms(k))}
    total = sum(weights.values())
    coverage = sum(weights[k] for k in (found & weights.keys()) | extra) / total if total else 0.0
    return LOW if extra and coverage >= settings.high_tier_coverage else HIGH


def _missing_words(sentence: str, terms: list[Term], found: set[str]) -> tuple[str, ...]:
    """The sentence's content words (as written) found nowhere in the document."""
    out: dict[str, None] = {}
    for t in terms:
        if t.content and t.key not in found:
            out.setdefault(sentence[t.start : t.end], None)
    return tuple(out)


def _refined(
    sentence: str,
    sentence_terms: list[Term],
    verdict: SupportVerdict,
    doc: PreparedDocument,
    language: str | None,
) -> SupportVerdict:
    """Another amount and denials, on a verdict that is not already "unsupported" by its
    coverage (a topic-only one is looked at for another amount too: the document then
    contradicts the sentence, which puts it in the high tier)."""
    if verdict.verdict is Verdict.UNSUPPORTED and not verdict.details.get("topic_only"):
        return verdict
    passages = _evidence_passages(doc, verdict)
    if verdict.missing_numbers:
        lo = bisect_left(doc.passage_of_term, min(passages, default=0))
        hi = bisect_right(doc.passage_of_term, max(passages, default=-1))
        nearby = [t for i, t in enumerate(doc.terms[lo:hi], start=lo) if doc.passage_of_term[i] in passages]
        if other_amount(sentence_terms, verdict.missing_numbers, nearby):
            # the evidence gives another amount: the document contradicts the sentence
            return replace(verdict, verdict=Verdict.UNSUPPORTED, other_amount=True)
    denies = verdict.verdict is Verdict.SUPPORTED and states_negation(sentence, language)
    if denies and not any(states_negation(doc.text[slice(*doc.passages[p])], language) for p in passages):
        # the document reports the thing; the sentence says it is absent or denied
        return replace(
            verdict, verdict=Verdict.PARTIAL, details={**verdict.details, "negation_unmatched": 1.0}
        )
    return verdict


def _evidence_passages(doc: PreparedDocument, verdict: SupportVerdict) -> set[int]:
    """The indices of the document passages (sentences) the evidence lies in."""
    starts = [a for a, _ in doc.passages]
    return {max(0, bisect_right(starts, e.start) - 1) for e in verdict.evidence}


def _content_weights(terms: list[Term], settings: SupportSettings) -> dict[str, float]:
    """Distinct content keys of the sentence and the weight each carries."""
    weights: dict[str, float] = {}
    for term in terms:
        if not term.content:
            continue
        if term.kind == NUMBER:
            w = settings.number_weight
        elif term.kind == NAME:
            w = settings.name_weight
        else:
            w = settings.word_weight
        weights[term.key] = max(w, weights.get(term.key, 0.0))
    return weights


def _document_keys(key: str, doc: PreparedDocument, settings: SupportSettings) -> list[str]:
    """The document keys that count as ``key``: itself, compounds ending in it, and stems
    that begin with it or that it begins (sharing at least ``min_prefix_match`` characters)."""
    keys = [key] if key in doc.postings else []
    if key.startswith("#"):
        return keys
    n = settings.min_suffix_match
    if n and len(key) >= n:
        pool = doc.by_suffix.get(key[-SUFFIX_BUCKET:], ()) if n >= SUFFIX_BUCKET else doc.postings
        keys.extend(k for k in pool if len(k) > len(key) and k.endswith(key))
    n = settings.min_prefix_match
    if n and len(key) >= n:
        pool = doc.by_prefix.get(key[:PREFIX_BUCKET], ()) if n >= PREFIX_BUCKET else doc.postings
        keys.extend(
            k
            for k in pool
            if k != key and k[:n] == key[:n] and (k.startswith(key) or key.startswith(k)) and k not in keys
        )
    return keys


def _judge_terms(
    weights: dict[str, float],
    doc: PreparedDocument,
    settings: SupportSettings,
    name_keys: frozenset[str] = frozenset(),
) -> tuple[SupportVerdict, set[str], set[str]]:
    """The verdict from term coverage, the sentence keys found anywhere in the document,
    and those in the chosen evidence passages."""
    total = sum(weights.values())
    # passage -> sentence keys it holds, and the document term indices that matched
    in_passage: dict[int, set[str]] = {}
    hits: dict[int, list[int]] = {}
    found_anywhere: set[str] = set()
    topical: set[str] = set()  # sentence keys the document has as topic words only
    for key in weights:
        doc_keys = _document_keys(key, doc, settings)
        if doc_keys and all(doc.topical(k, settings.topic_passage_share) for k in doc_keys):
            topical.add(key)
        for doc_key in doc_keys:
            for t in doc.postings[doc_key]:
                p = doc.passage_of_term[t]
                in_passage.setdefault(p, set()).add(key)
                hits.setdefault(p, []).append(t)
                found_anywhere.add(key)
    chosen: list[int] = []
    covered: set[str] = set()
    for round_no in range(settings.max_passages):
        best, best_gain, best_new = -1, 0.0, 0
        for p, keys in in_passage.items():
            new = keys - covered
            gain = sum(weights[k] for k in new)
            if gain > best_gain or (gain == best_gain and best >= 0 and p < best and gain > 0):
                best, best_gain, best_new = p, gain, len(new)
        needed = 1 if round_no == 0 else settings.min_extra_terms
        if best < 0 or best_new < needed:
            break
        chosen.append(best)
        covered |= in_passage[best]
    coverage = sum(weights[k] for k in covered) / total if total else 0.0
    numbers = [k for k in weights if k.startswith("#")]
    missing = tuple(k[1:] for k in numbers if k not in found_anywhere)
    evidence = _evidence(doc, chosen, hits, covered, settings)
    claim_found = _claim_found(weights, found_anywhere, topical)
    topic_only = False
    if coverage >= settings.supported_coverage and not missing:
        verdict = Verdict.SUPPORTED
    elif coverage < settings.unsupported_coverage or len(covered) < settings.min_matched_terms:
        verdict = Verdict.UNSUPPORTED
    elif claim_found < settings.min_claim_found:
        verdict = Verdict.UNSUPPORTED  # what was found is the document's topic, not the claim
        topic_only = True
    else:
        verdict = Verdict.PARTIAL
    best_single = max((sum(weights[k] for k in keys) for keys in in_passage.values()), default=0.0) / total
    names = sum(weights[k] for k in covered if k in name_keys)
    return (
        SupportVerdict(
            verdict=verdict,
            score=round(coverage, 4),
            details={
                "best_single": best_single,
                "name_share": names / total if total else 0.0,
                "best_single_terms": max((len(k) for k in in_passage.values()), default=0),
                "claim_found": claim_found,
                "topic_only": float(topic_only),
            },
            evidence=evidence,
            matched_terms=len(covered),
            content_terms=len(weights),
            missing_numbers=missing,
            language=doc.guess.language,
        ),
        found_anywhere,
        covered,
    )


def _claim_found(weights: dict[str, float], found: set[str], topical: set[str]) -> float:
    """The weighted share of the sentence's content terms that are not topic words of the
    document and that the document has somewhere. Names and words a document uses
    throughout ("Apple" in an article on Apple) are found for any sentence on its topic,
    so they say nothing of whether it states the sentence's claim; the rest of the
    sentence's words do. 1 when every term is a topic word (nothing to tell by)."""
    claim = {k: w for k, w in weights.items() if k not in topical}
    total = sum(claim.values())
    return sum(w for k, w in claim.items() if k in found) / total if total else 1.0


def _evidence(
    doc: PreparedDocument,
    chosen: list[int],
    hits: dict[int, list[int]],
    covered: set[str],
    settings: SupportSettings,
) -> tuple[Evidence, ...]:
    """Spans of matched words in the chosen passages; close neighbours merge into one span."""
    spans: list[tuple[int, int]] = []
    for p in sorted(chosen):
        run: tuple[int, int] | None = None
        for t in sorted(set(hits[p])):
            term = doc.terms[t]
            if run is not None and term.start - run[1] <= settings.merge_gap_chars:
                run = (run[0], term.end)
            else:
                if run is not None:
                    spans.append(run)
                run = (term.start, term.end)
        if run is not None:
            spans.append(run)
    return tuple(Evidence(s, e, doc.text[s:e]) for s, e in spans)
