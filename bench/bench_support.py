"""Support verdicts against hand labels: CiteLens's judge vs cite-right 0.4.0's defaults.

    python bench/bench_support.py            # the test split (held back), then the tune split
    python bench/bench_support.py --split heldout
    python bench/bench_support.py --split tune --show-errors
    python bench/bench_support.py --split tune --tier-curve   # how high_tier_coverage is chosen
    python bench/bench_support.py --judge llm --llm-endpoint http://localhost:8000/v1 --llm-model M

Prints, per split and system: 3-way agreement, precision and recall of "supported" and
of "unsupported" (all, and for CiteLens per confidence tier: the high tier is what
`citation_unsupported` warns on), the explanation coverage, and the confusion matrix
(rows: hand label; columns: verdict). The test split ("heldout") is never used to choose a
threshold or a rule; the tune split is. cite-right judges the sentence as
its answer text against the one document; when its segmenter splits the sentence, the
pair is "supported" only if every piece is, "unsupported" only if every piece is, and
"partial" otherwise. "unchecked" verdicts are counted as a column of their own (they are
neither a correct nor a wrong "unsupported").
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from support_eval_set import LABELS, LabelledPair, load_pairs
from support_tiers import Z_ONE_SIDED_95, choose_boundary, tier_curve

COLUMNS = ("supported", "partial", "unsupported", "unchecked")


def citelens_judgements(pairs: list[LabelledPair], args: argparse.Namespace | None = None) -> list[Any]:
    """The lexical verdicts, or with `--judge llm|nli|cascade` the model's where it judges
    (each pair is one sentence citing one document, so the citation limit never applies)."""
    from citelens.support import judge_support

    lexical = [judge_support(p.sentence, p.document) for p in pairs]
    if args is None or args.judge == "lexical":
        return lexical
    from citelens.support.backends import ModelOptions, model_backend
    from citelens.support.model_judge import Item, run_model, wanted

    options = ModelOptions.from_environment(
        endpoint=args.llm_endpoint, model=args.llm_model, key_env=args.llm_key_env, nli_model=args.nli_model
    )
    backend, cascade = model_backend(args.judge, options)
    assert backend is not None
    items = [
        Item(str(i), p.sentence, p.document, v)
        for i, (p, v) in enumerate(zip(pairs, lexical))
        if wanted(v, 0, backend, cascade)
    ]
    out = run_model(backend, items, concurrency=args.judge_concurrency)
    return [out.verdicts.get(str(i), v) for i, v in enumerate(lexical)]


def explained(verdict: Any) -> bool:
    """The verdict says what it rests on beyond its label: for "supported", the evidence;
    otherwise what is missing (content words, numbers, a clause) or contradicting."""
    if verdict.verdict.value == "unchecked":
        return verdict.reason is not None
    if verdict.verdict.value == "supported":
        return bool(verdict.evidence)
    return bool(
        verdict.missing_terms or verdict.missing_numbers or verdict.uncovered_clauses or verdict.other_amount
    )


def cite_right_verdicts(pairs: list[LabelledPair]) -> list[str]:
    from cite_right import SourceDocument, align_citations

    out = []
    for p in pairs:
        spans = align_citations(p.sentence, [SourceDocument(id=p.doc_id, text=p.document)])
        statuses = {s.status for s in spans}
        if statuses == {"supported"}:
            out.append("supported")
        elif statuses == {"unsupported"} or not statuses:
            out.append("unsupported")
        else:
            out.append("partial")
    return out


def _ratio(hit: int, n: int) -> float:
    return hit / n if n else 0.0


def precision_recall(
    labels: list[str], verdicts: list[str], which: str
) -> tuple[float, float, int, int, int]:
    """(precision, recall, hits, said, labelled) of one verdict value."""
    said = [lab for lab, v in zip(labels, verdicts) if v == which]
    hit = sum(1 for lab in said if lab == which)
    labelled = sum(1 for lab in labels if lab == which)
    return _ratio(hit, len(said)), _ratio(hit, labelled), hit, len(said), labelled


def metrics(labels: list[str], verdicts: list[str]) -> dict[str, float]:
    sp, sr, *_ = precision_recall(labels, verdicts, "supported")
    up, ur, _, flagged, _ = precision_recall(labels, verdicts, "unsupported")
    return {
        "agreement": _ratio(sum(1 for lab, v in zip(labels, verdicts) if lab == v), len(labels)),
        "supported_precision": sp,
        "supported_recall": sr,
        "unsupported_precision": up,
        "unsupported_recall": ur,
        "flagged": float(flagged),
    }


def _pr_line(name: str, labels: list[str], verdicts: list[str], which: str) -> str:
    p, r, hit, said, labelled = precision_recall(labels, verdicts, which)
    return f"  {name:<28} precision {p:.3f} ({hit} of {said})  recall {r:.3f} ({hit} of {labelled})"


def print_report(name: str, labels: list[str], verdicts: list[str]) -> dict[str, float]:
    m = metrics(labels, verdicts)
    agree = sum(1 for lab, v in zip(labels, verdicts) if lab == v)
    print(f"\n{name}")
    print(f"  3-way agreement {m['agreement']:.3f} ({agree} of {len(labels)})")
    print(_pr_line('"supported"', labels, verdicts, "supported"))
    print(_pr_line('"unsupported"', labels, verdicts, "unsupported"))
    counts = Counter(zip(labels, verdicts))
    print("  label \\ verdict " + "".join(f"{c:>13}" for c in COLUMNS))
    for lab in LABELS:
        print(f"  {lab:<16}" + "".join(f"{counts[(lab, c)]:>13}" for c in COLUMNS))
    return m


def report_split(split: str, args: argparse.Namespace) -> bool:
    """Print one split's figures; True when the issue's targets are met on it."""
    pairs = load_pairs(None if split == "all" else split)
    labels = [p.label for p in pairs]
    title = {
        "heldout": "TEST split (held back; nothing chosen on it)",
        "tune": "TUNE split",
        "all": "ALL pairs",
    }
    print(
        f"\n=== {title[split]}: {len(pairs)} pairs: "
        + ", ".join(f"{k} {v}" for k, v in sorted(Counter(labels).items()))
    )
    judged = citelens_judgements(pairs, args)
    ours = [j.verdict.value for j in judged]
    name = "lexical judge, default thresholds" if args.judge == "lexical" else f"--judge {args.judge}"
    m = print_report(f"citelens.support ({name})", labels, ours)
    tiers = {
        tier: [v if (v != "unsupported" or j.tier == tier) else "-" for v, j in zip(ours, judged)]
        for tier in ("high", "low")
    }
    print(_pr_line('"unsupported", high tier', labels, tiers["high"], "unsupported"))
    print(_pr_line('"unsupported", low tier', labels, tiers["low"], "unsupported"))
    shown = sum(1 for j in judged if explained(j))
    print(
        f"  explanation coverage        {shown / len(judged):.3f} ({shown} of {len(judged)} verdicts say what they rest on)"
    )
    if not args.no_cite_right:
        theirs = cite_right_verdicts(pairs)
        print_report("cite-right 0.4.0 align_citations (defaults)", labels, theirs)
    high_p = precision_recall(labels, tiers["high"], "unsupported")[0]
    met = m["supported_precision"] >= 0.8 and high_p >= 0.9 and m["agreement"] >= 0.7
    print(
        "  targets (supported precision >= 0.8, high-tier unsupported precision >= 0.9, agreement >= 0.7): "
        + (
            "met"
            if met
            else "MISSED: "
            + ", ".join(
                name
                for name, ok in (
                    ("supported precision", m["supported_precision"] >= 0.8),
                    ("high-tier precision", high_p >= 0.9),
                    ("agreement", m["agreement"] >= 0.7),
                )
                if not ok
            )
        )
    )
    if args.tier_curve:
        print_tier_curve(labels, judged, pairs)
    if args.show_errors:
        print()
        for p, v, j in zip(pairs, ours, judged):
            if v != p.label:
                print(
                    f"{p.label:>11} -> {v:<11} {j.tier:<4} {j.score:.2f} {j.matched_terms}/{j.content_terms} {p.id}"
                )
                print(f"      S: {p.sentence[:160]}")
                print(f"      E: {j.best_evidence[:160]}")
                print(f"      not found: {', '.join(j.missing_terms)[:160]}")
    return met


def print_tier_curve(labels: list[str], judged: list[Any], pairs: list[LabelledPair]) -> None:
    """The high tier at every boundary 0.00..0.40 and the one the criterion picks (each
    lexical "unsupported" judged again with that boundary: the tier also looks at synonyms)."""
    from citelens.support import judge_support
    from citelens.support.settings import default_settings

    lexical = [j.verdict.value == "unsupported" and j.judge == "lexical" for j in judged]

    def flagged_at(b: float) -> list[bool]:
        settings = default_settings().with_overrides({"high_tier_coverage": b})
        return [
            is_lexical and judge_support(p.sentence, p.document, settings).tier == "high"
            for p, is_lexical in zip(pairs, lexical, strict=True)
        ]

    curve = tier_curve(labels, flagged_at, [i / 100 for i in range(41)])
    print(f"\n  high tier by boundary (Wilson lower bound, one-sided 95%, z = {Z_ONE_SIDED_95}):")
    for t in curve:
        print(
            f"    {t.boundary:.2f}  {t.hits:>3} of {t.flagged:<3} precision {t.precision:.3f}  bound {t.lower_bound:.3f}"
        )
    best = choose_boundary(curve)
    print(
        f"  chosen: high_tier_coverage = {best.boundary:.2f} (the highest lower bound, {best.lower_bound:.3f}:"
        f" {best.hits} of {best.flagged}); "
        + ("it reaches 0.9" if best.lower_bound >= 0.9 else "no boundary's lower bound reaches 0.9")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("both", "heldout", "tune", "all"), default="both")
    parser.add_argument("--show-errors", action="store_true", help="list the pairs our judge gets wrong")
    parser.add_argument(
        "--tier-curve",
        action="store_true",
        help="the high tier's precision and its Wilson lower bound at every boundary (tune split only)",
    )
    parser.add_argument("--no-cite-right", action="store_true")
    parser.add_argument("--judge", choices=("lexical", "llm", "nli", "cascade"), default="lexical")
    parser.add_argument("--llm-endpoint")
    parser.add_argument("--llm-model")
    parser.add_argument("--llm-key-env")
    parser.add_argument("--nli-model")
    parser.add_argument("--judge-concurrency", type=int, default=4)
    args = parser.parse_args(argv)
    if args.tier_curve and args.split != "tune":
        parser.error("--tier-curve chooses a threshold: it runs on the tune split only (--split tune)")
    from citelens.support.synonyms import load

    start = time.perf_counter()
    stems = load()
    print(
        f"synonym table: {stems:,} stems loaded in {1000 * (time.perf_counter() - start):.0f} ms (target <= 50 ms)"
    )
    for split in ("heldout", "tune") if args.split == "both" else (args.split,):
        report_split(split, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
