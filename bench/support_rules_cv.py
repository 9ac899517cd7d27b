"""Candidate rules of the lexical judge, measured by nested cross-validation inside the
tune split (the test split is never read): the yardstick of bench/support_topic_cv.py.

    python bench/support_rules_cv.py                 # every candidate
    python bench/support_rules_cv.py derivation      # one

A candidate is a general rule with its settings (none, or a threshold); it is applied as
a patch of the judge for the measurement only, so a candidate that is not kept leaves no
code behind. For each candidate the grid is "the rules as they are" and the candidate at
each of its settings, each with `min_claim_found` 0.20..0.58 (the topic step's threshold,
chosen again: a rule that finds more words moves the claim share). Folds keep together
the pairs of one report and of one document (the components of support_topic_cv); in each
fold the setting with the best 3-way agreement on the other folds is chosen (ties: the
rules as they are, then the grid order) and applied to the held-out fold. Printed: the
rules as they are measured the same way (the baseline), each candidate's nested figures
(leave one component out; 5 folds x 20 random splits) and its in-sample figures at each
setting with `min_claim_found` 0.36, and the pairs whose verdict it changes there.

Candidates (see docs/support.md, "Derivations (this round)"):

- derivation: stems that differ only by a derivational ending or its Latin consonant
  alternation ("hydrolyze" ~ "hydrolysis", "provide" ~ "provision", "reliable" ~ "rely",
  "factual" ~ "fact") are the same word when the stem before the ending has at least L
  characters (L 4, 5, 6, 7), counted as found everywhere ("all") or only where the
  WordNet synonyms count ("as synonyms": raising partial to supported, the tier step).
- report_words: the words by which a report sentence speaks of its sources and of the
  act of reporting ("the article", "the claim", "the source", "notes", "states",
  "confirming", "matching") are stopwords.
- synonyms_found: WordNet synonyms count as found anywhere in the document for the claim
  share of the topic step (not for coverage).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from citelens.support import judge as judge_module
from citelens.support import terms as terms_module
from support_eval_set import LabelledPair, load_pairs
from support_topic_cv import MINIMA, Verdicts, components, figures

# --- derivation -------------------------------------------------------------------------
#: (ending of a Snowball stem, what it becomes): the base two derived words share
DERIVATIONS = (
    ("ysi", "yz"),  # analysis / analyze, hydrolysis / hydrolyze, paralysis / paralyze
    ("ens", "end"),  # suspension / suspend (defense / defend: the base "def" is too short)
    ("ans", "and"),  # the same alternation after "a"
    ("is", "id"),  # provision / provide (decision / decide: "dec" is too short)
    ("abl", ""),  # reliable / rely (reli)
    ("ibl", ""),  # the same ending after a Latin stem
    ("ual", ""),  # factual / fact, textual / text
)


@cache
def derivation_base(stem: str, shortest: int) -> str:
    """The base of a stem: its derivational ending rewritten when what is left has at least
    ``shortest`` characters, and a final "i" (Snowball's "y") dropped ("reli" ~ "reliabl")."""
    for ending, becomes in DERIVATIONS:
        if stem.endswith(ending) and len(stem) - len(ending) >= shortest:
            stem = stem[: len(stem) - len(ending)] + becomes
            break
    return stem[:-1] if stem.endswith("i") and len(stem) > shortest else stem


def _derived_keys(key: str, postings: dict[str, tuple[int, ...]], shortest: int) -> list[str]:
    if key.startswith("#") or len(key) < shortest:
        return []
    base = derivation_base(key, shortest)
    return [
        k for k in postings if k != key and not k.startswith("#") and derivation_base(k, shortest) == base
    ]


@contextmanager
def derivation(shortest: int, where: str) -> Iterator[None]:
    original_keys = judge_module._document_keys
    from citelens.support import synonyms as syn_module

    original_syn = syn_module.synonyms
    if where == "all":

        def keys(key, doc, settings):  # type: ignore[no-untyped-def]
            out = original_keys(key, doc, settings)
            return out + [k for k in _derived_keys(key, doc.postings, shortest) if k not in out]

        judge_module._document_keys = keys
    else:
        doc_stems: set[str] = set()

        def syns(stem: str) -> tuple[str, ...]:
            # every stem that shares the base: the judge keeps those the document has
            extra = tuple(
                k
                for k in doc_stems
                if k != stem and derivation_base(k, shortest) == derivation_base(stem, shortest)
            )
            return original_syn(stem) + extra

        original_get = judge_module._DOCUMENTS.get

        def get(text, settings):  # type: ignore[no-untyped-def]
            doc = original_get(text, settings)
            doc_stems.clear()
            doc_stems.update(k for k in doc.postings if not k.startswith("#") and len(k) >= shortest)
            return doc

        judge_module._DOCUMENTS.get = get  # type: ignore[method-assign]
        syn_module.synonyms = syns  # type: ignore[assignment]
    try:
        yield
    finally:
        judge_module._document_keys = original_keys
        syn_module.synonyms = original_syn  # type: ignore[assignment]
        judge_module._DOCUMENTS.__dict__.pop("get", None)


# --- report words -----------------------------------------------------------------------
REPORT_WORDS = (
    "article articles claim claims source sources outlet outlets report reports reported reporting "
    "note notes noted noting state states stated stating confirm confirms confirmed confirming "
    "match matches matched matching corroborate corroborates corroborated corroborating "
    "reinforce reinforces reinforced reinforcing cite cites cited citing mention mentions mentioned"
)


@contextmanager
def report_words() -> Iterator[None]:
    from citelens.support.settings import stopword_table

    table = dict(stopword_table())
    script, words = table["english"]
    table["english"] = (script, words | frozenset(REPORT_WORDS.split()))
    original = terms_module.stopword_table
    terms_module.stopword_table = lambda: table  # type: ignore[assignment]
    judge_module._DOCUMENTS._items.clear()
    try:
        yield
    finally:
        terms_module.stopword_table = original
        judge_module._DOCUMENTS._items.clear()


#: the class as a grammar gives it, not read off the errors: reporting verbs (verbs of
#: saying and writing that introduce what a source says), verbs by which one text agrees
#: with another, and nouns that name a text or what it says
REPORTING = (
    "state note report mention cite claim assert write wrote written describe explain announce add "
    "acknowledge allege argue suggest indicate reveal observe remark reiterate repeat emphasize "
    "emphasise stress highlight quote tell told "
    "confirm corroborate verify substantiate match reinforce echo support underscore affirm reaffirm "
    "article source statement story piece post outlet coverage publication"
)


@contextmanager
def report_words_in_claim(words: str = REPORT_WORDS) -> Iterator[None]:
    """The report words count in no claim share: the topic step weighs what the sentence
    claims, and "the article", "states", "confirming" are how it speaks of its source."""
    from citelens.support.terms import stem

    framing = frozenset(stem(w, "english") for w in words.split())
    original = judge_module._claim_found

    def claim(weights, found, topical):  # type: ignore[no-untyped-def]
        return original(weights, found, topical | (framing & weights.keys()))

    judge_module._claim_found = claim
    try:
        yield
    finally:
        judge_module._claim_found = original


#: the reporting verbs of REPORTING (the nouns left out)
REPORTING_VERBS = REPORTING.rsplit(" article", 1)[0]


@contextmanager
def attribution_frame() -> Iterator[None]:
    """The attribution frame of a sentence counts in no claim share: in "<source>
    <reporting verb> that <claim>" the words up to "that", in "according to <source>," and
    in "as <reported> by <source>" the frame up to the next comma or the end. The guideline
    makes a claim stated under another source partial, not unsupported; the frame's names
    and verbs are who said it, not what was said."""
    from citelens.support.terms import extract_terms, stem

    verbs = frozenset(stem(w, "english") for w in REPORTING_VERBS.split())
    frame: set[str] = set()
    original_support = judge_module.judge_support
    original_claim = judge_module._claim_found

    def frame_keys(sentence: str) -> set[str]:
        terms = extract_terms(sentence, "english")
        words = [sentence[t.start : t.end].casefold() for t in terms]
        inside = [False] * len(terms)
        for i, t in enumerate(terms):
            if t.key in verbs and i + 1 < len(terms) and words[i + 1] == "that":
                inside[: i + 2] = [True] * (i + 2)  # "<source> states that": the first frame only
                break
        for i, w in enumerate(words):
            passive = w == "as" and i + 2 < len(terms) and terms[i + 1].key in verbs and words[i + 2] == "by"
            if (w == "according" and i + 1 < len(terms) and words[i + 1] == "to") or passive:
                j = i
                while (
                    j < len(terms)
                    and "," not in sentence[terms[j - 1].end if j > i else terms[i].start : terms[j].start]
                ):
                    inside[j] = True
                    j += 1
        claim = {t.key for t, k in zip(terms, inside) if not k}
        return {t.key for t, k in zip(terms, inside) if k and t.content} - claim

    def support(sentence, document, settings=None):  # type: ignore[no-untyped-def]
        frame.clear()
        frame.update(frame_keys(sentence))
        return original_support(sentence, document, settings)

    def claim(weights, found, topical):  # type: ignore[no-untyped-def]
        return original_claim(weights, found, topical | (frame & weights.keys()))

    judge_module.judge_support = support
    judge_module._claim_found = claim
    import citelens.support as package

    original_package = package.judge_support
    package.judge_support = support  # type: ignore[assignment]
    try:
        yield
    finally:
        judge_module.judge_support = original_support
        judge_module._claim_found = original_claim
        package.judge_support = original_package  # type: ignore[assignment]


# --- synonyms in the claim share --------------------------------------------------------
@contextmanager
def synonyms_found() -> Iterator[None]:
    from citelens.support.synonyms import synonyms

    original = judge_module._claim_found
    doc_ref: list[object] = []
    original_get = judge_module._DOCUMENTS.get

    def get(text, settings):  # type: ignore[no-untyped-def]
        doc = original_get(text, settings)
        doc_ref[:] = [doc]
        return doc

    def claim(weights, found, topical):  # type: ignore[no-untyped-def]
        postings = doc_ref[0].postings  # type: ignore[attr-defined]
        more = {k for k in weights if k not in found and any(s in postings for s in synonyms(k))}
        return original(weights, found | more, topical)

    judge_module._DOCUMENTS.get = get  # type: ignore[method-assign]
    judge_module._claim_found = claim
    try:
        yield
    finally:
        judge_module._claim_found = original
        judge_module._DOCUMENTS.__dict__.pop("get", None)


@contextmanager
def synonyms_lift() -> Iterator[None]:
    """A low-tier "unsupported" by coverage (score between high_tier_coverage and
    unsupported_coverage) is partial when, with WordNet synonyms the document has anywhere,
    the coverage reaches unsupported_coverage (and the claim share its minimum)."""
    from citelens.support.synonyms import synonyms
    from citelens.support.verdict import Verdict

    original = judge_module._judge_terms

    def judge_terms(weights, doc, settings, name_keys=frozenset()):  # type: ignore[no-untyped-def]
        verdict, found, covered = original(weights, doc, settings, name_keys)
        if (
            verdict.verdict is not Verdict.UNSUPPORTED
            or verdict.details.get("topic_only")
            or verdict.score < settings.high_tier_coverage
            or doc.guess.language != "english"
        ):
            return verdict, found, covered
        extra = {k for k in weights if k not in found and any(s in doc.postings for s in synonyms(k))}
        total = sum(weights.values())
        coverage = sum(weights[k] for k in covered | extra) / total
        if (
            extra
            and coverage >= settings.unsupported_coverage
            and len(covered | extra) >= settings.min_matched_terms
            and verdict.details["claim_found"] >= settings.min_claim_found
        ):
            from dataclasses import replace

            verdict = replace(verdict, verdict=Verdict.PARTIAL)
        return verdict, found, covered

    judge_module._judge_terms = judge_terms
    try:
        yield
    finally:
        judge_module._judge_terms = original


CANDIDATES: dict[str, dict[str, Callable[[], object]]] = {
    "derivation": {
        **{f"all, L={n}": (lambda n=n: derivation(n, "all")) for n in (4, 5, 6, 7)},
        **{f"as synonyms, L={n}": (lambda n=n: derivation(n, "syn")) for n in (4, 5, 6, 7)},
    },
    "report_words": {"stopwords": report_words},
    "report_words_claim": {"claim share only": report_words_in_claim},
    "reporting_claim": {"claim share only, the grammar's class": lambda: report_words_in_claim(REPORTING)},
    "attribution_frame": {"on": attribution_frame},
    "synonyms_found": {"on": synonyms_found},
    "synonyms_lift": {"on": synonyms_lift},
}


def judged(pairs: list[LabelledPair], patch: Callable[[], object] | None) -> dict[float, Verdicts]:
    """min_claim_found -> verdicts, with the patch applied (None: the rules as they are)."""
    from citelens.support.settings import default_settings

    out: dict[float, Verdicts] = {}
    ctx = patch() if patch is not None else None
    if ctx is not None:
        ctx.__enter__()  # type: ignore[attr-defined]
    try:
        from citelens.support import judge_support  # after the patch: it may replace this

        for minimum in MINIMA:
            settings = default_settings().with_overrides({"min_claim_found": minimum})
            out[minimum] = [
                (v.verdict.value, v.tier)
                for v in (judge_support(p.sentence, p.document, settings) for p in pairs)
            ]
    finally:
        if ctx is not None:
            ctx.__exit__(None, None, None)  # type: ignore[attr-defined]
    return out


def nested(
    labels: list[str], comp: list[str], grid: dict[tuple[str, float], Verdicts], folds: list[set[str]]
) -> tuple[Verdicts, dict[tuple[str, float], int]]:
    """The pooled held-out verdicts, each fold's setting chosen on the other folds."""
    out: Verdicts = [("", "")] * len(labels)
    picks: dict[tuple[str, float], int] = {}
    order = list(grid)  # the rules as they are first, at 0.36 first
    for fold in folds:
        train = [c not in fold for c in comp]

        def agree(k: tuple[str, float], train: list[bool] = train) -> int:
            return sum(1 for lab, (v, _), t in zip(labels, grid[k], train) if t and lab == v)

        best = max(order, key=lambda k: (agree(k), -order.index(k)))
        picks[best] = picks.get(best, 0) + 1
        for i, c in enumerate(comp):
            if c in fold:
                out[i] = grid[best][i]
    return out, picks


def cross_validated(
    labels: list[str],
    comp: list[str],
    grid: dict[tuple[str, float], Verdicts],
    baseline: dict[tuple[str, float], Verdicts] | None = None,
) -> str:
    """Nested figures of a grid; with ``baseline``, also the pairs it gains over the
    baseline's nested verdicts on the same random splits."""
    units = sorted(set(comp))
    held, picks = nested(labels, comp, grid, [{u} for u in units])
    lines = [f"    nested, leave one component out: {figures(labels, held)}"]
    top = sorted(picks.items(), key=lambda kv: -kv[1])[:4]
    lines.append("      picked: " + ", ".join(f"{name} @ {m}: {n}" for (name, m), n in top))
    rng = random.Random(0)
    agreements, gains = [], []
    for _ in range(20):
        shuffled = rng.sample(units, len(units))
        folds = [set(shuffled[i::5]) for i in range(5)]
        held, _ = nested(labels, comp, grid, folds)
        agree = sum(1 for lab, (v, _) in zip(labels, held) if lab == v)
        agreements.append(agree / len(labels))
        if baseline is not None:
            before, _ = nested(labels, comp, baseline, folds)
            gains.append(agree - sum(1 for lab, (v, _) in zip(labels, before) if lab == v))
    lines.append(
        f"    nested, 5 folds x 20 repeats: agreement mean {sum(agreements) / len(agreements):.3f}"
        f" (min {min(agreements):.3f}, max {max(agreements):.3f})"
    )
    if gains:
        lines.append(f"      pairs gained on each split (against the rules as they are): {gains}")
    return "\n".join(lines)


def _ordered(base: dict[float, Verdicts], name: str) -> list[tuple[str, float]]:
    first = [(name, 0.36)]
    return first + [(name, m) for m in MINIMA if m != 0.36]


def main(argv: list[str]) -> int:
    pairs = load_pairs("tune")
    assert all(p.split == "tune" for p in pairs)
    labels = [p.label for p in pairs]
    comp = components(pairs)
    base = judged(pairs, None)
    base_grid = {k: base[k[1]] for k in _ordered(base, "as they are")}
    print(f"tune split: {len(pairs)} pairs, {len(set(comp))} report-document components")
    print(f"  the rules as they are (in-sample, min_claim_found 0.36): {figures(labels, base[0.36])}")
    print("  the rules as they are, min_claim_found chosen in the folds:")
    print(cross_validated(labels, comp, base_grid))
    for name in argv or list(CANDIDATES):
        print(f"\n  candidate {name}:")
        grid = dict(base_grid)
        for setting, patch in CANDIDATES[name].items():
            verdicts = judged(pairs, patch)
            print(f"    in-sample, {setting}, min_claim_found 0.36: {figures(labels, verdicts[0.36])}")
            for p, lab, (old, ot), (new, nt) in zip(pairs, labels, base[0.36], verdicts[0.36]):
                if (old, ot) != (new, nt):
                    mark = "right" if new == lab else ("wrong" if old == lab else "still wrong")
                    print(f"      {p.id}: {lab}: {old}/{ot} -> {new}/{nt} ({mark})")
            for m in MINIMA:
                grid[setting, m] = verdicts[m]
        # the grid's order: the rules as they are first (ties go to them)
        print(cross_validated(labels, comp, grid, base_grid))
        print("    in-sample agreement by min_claim_found (the rules as they are, then each setting):")
        print("      " + " ".join(f"{m:>4.2f}" for m in MINIMA))
        for setting in ("as they are", *CANDIDATES[name]):
            row = [sum(1 for lab, (v, _) in zip(labels, grid[setting, m]) if lab == v) for m in MINIMA]
            print("      " + " ".join(f"{a:>4}" for a in row) + f"  {setting}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
