"""Support verdicts against hand labels: CiteLens's judge vs cite-right 0.4.0's defaults.

    python bench/bench_support.py            # the held-back part (the figures we report)
    python bench/bench_support.py --split tune
    python bench/bench_support.py --split all --show-errors

Prints, per system: precision and recall of "unsupported", recall of "supported", and the
confusion matrix (rows: hand label; columns: verdict). cite-right judges the sentence as
its answer text against the one document; when its segmenter splits the sentence, the
pair is "supported" only if every piece is, "unsupported" only if every piece is, and
"partial" otherwise. "unchecked" verdicts are counted as a column of their own (they are
neither a correct nor a wrong "unsupported").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from support_eval_set import LABELS, LabelledPair, load_pairs

COLUMNS = ("supported", "partial", "unsupported", "unchecked")


def citelens_verdicts(pairs: list[LabelledPair]) -> list[str]:
    from citelens.support import judge_support

    return [judge_support(p.sentence, p.document).verdict.value for p in pairs]


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


def metrics(labels: list[str], verdicts: list[str]) -> dict[str, float]:
    flagged = [lab for lab, v in zip(labels, verdicts) if v == "unsupported"]
    true_unsupported = sum(1 for lab in labels if lab == "unsupported")
    true_supported = sum(1 for lab in labels if lab == "supported")
    hit = sum(1 for lab in flagged if lab == "unsupported")
    return {
        "unsupported_precision": hit / len(flagged) if flagged else 0.0,
        "unsupported_recall": hit / true_unsupported if true_unsupported else 0.0,
        "supported_recall": sum(1 for lab, v in zip(labels, verdicts) if lab == v == "supported")
        / true_supported
        if true_supported
        else 0.0,
        "flagged": float(len(flagged)),
    }


def print_report(name: str, labels: list[str], verdicts: list[str]) -> dict[str, float]:
    m = metrics(labels, verdicts)
    print(f"\n{name}")
    print(
        f"  unsupported precision {m['unsupported_precision']:.3f}  recall {m['unsupported_recall']:.3f}"
        f"  (flagged {int(m['flagged'])})   supported recall {m['supported_recall']:.3f}"
    )
    counts = Counter(zip(labels, verdicts))
    print("  label \\ verdict " + "".join(f"{c:>13}" for c in COLUMNS))
    for lab in LABELS:
        print(f"  {lab:<16}" + "".join(f"{counts[(lab, c)]:>13}" for c in COLUMNS))
    return m


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("heldout", "tune", "all"), default="heldout")
    parser.add_argument("--show-errors", action="store_true", help="list the pairs our judge gets wrong")
    parser.add_argument("--no-cite-right", action="store_true")
    args = parser.parse_args(argv)
    pairs = load_pairs(None if args.split == "all" else args.split)
    labels = [p.label for p in pairs]
    print(
        f"{len(pairs)} pairs ({args.split}): "
        + ", ".join(f"{k} {v}" for k, v in sorted(Counter(labels).items()))
    )
    ours = citelens_verdicts(pairs)
    m = print_report("citelens.support (judge_support, default thresholds)", labels, ours)
    if not args.no_cite_right:
        theirs = cite_right_verdicts(pairs)
        r = print_report("cite-right 0.4.0 align_citations (defaults)", labels, theirs)
        better = all(m[k] > r[k] for k in ("unsupported_precision", "unsupported_recall", "supported_recall"))
        print(f"\nbetter than cite-right on each measure: {'yes' if better else 'no'}")
    targets = (
        m["unsupported_precision"] >= 0.9 and m["unsupported_recall"] >= 0.8 and m["supported_recall"] >= 0.6
    )
    print(f"targets (unsupported P>=0.9, R>=0.8; supported R>=0.6): {'met' if targets else 'MISSED'}")
    if args.show_errors:
        from citelens.support import judge_support

        print()
        for p, v in zip(pairs, ours):
            if v != p.label:
                j = judge_support(p.sentence, p.document)
                print(f"{p.label:>11} -> {v:<11} {j.score:.2f} {j.matched_terms}/{j.content_terms} {p.id}")
                print(f"      S: {p.sentence[:160]}")
                print(f"      E: {j.best_evidence[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
