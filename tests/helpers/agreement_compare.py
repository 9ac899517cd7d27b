"""Compare CiteLens's findings for a run file with autojudge-base 1.0.0's, line by line.

Per report line the reference can load: our set of (code, severity) (minus structure
codes, CiteLens-only codes and cross-report codes) must equal the reference's per-report
(category, severity) set, computed with doc-id patterns matched against the whole id.
Per line it cannot load: at least one `error` from us. Over the loadable reports of the
file: the same cross-report categories, about the same topics.

The two documented deviations are computed, not ignored: `docid_prefix` (the reference's
unanchored `re.match` gives a different set) and `coercion` (a rag24 index or ragtime
score that pydantic coerces: we compare our rules on the coerced value with the
reference, and separately record what the raw value adds).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citelens.check import Checker, check_report
from citelens.check.view import ReportView, is_int_like
from citelens.specs import get_spec
from citelens.specs.model import FILE_CODES, STRUCTURE_CODES
from tests.helpers import agreement_reference as R

CITELENS_ONLY = ("citation_duplicate", "response_length", "metadata_value", "id_type", "run_consistency")
EXCLUDED = frozenset(STRUCTURE_CODES + CITELENS_ONLY + FILE_CODES)
COVERAGE_CODES = ("duplicate_topics", "missing_topics", "new_topics", "narrative")


@dataclass
class Mismatch:
    kind: str  # "per_report" | "unloadable_no_error" | "schema_on_loadable" | "coverage"
    spec: str
    line: int | None
    ours: Any
    ref: Any
    text: str = ""

    def __str__(self) -> str:
        return (
            f"[{self.kind}] {self.spec} line {self.line}: ours={sorted(self.ours) if isinstance(self.ours, set) else self.ours} "
            f"ref={sorted(self.ref) if isinstance(self.ref, set) else self.ref}\n    {self.text[:400]}"
        )


@dataclass
class Outcome:
    lines: int = 0
    loadable: int = 0
    unloadable: int = 0
    compared: int = 0  # per-report set comparisons
    deviations: Counter = field(default_factory=Counter)  # documented, computed
    mismatches: list[Mismatch] = field(default_factory=list)
    categories: Counter = field(default_factory=Counter)  # reference categories seen (coverage of the test)

    def merge(self, other: Outcome) -> None:
        self.lines += other.lines
        self.loadable += other.loadable
        self.unloadable += other.unloadable
        self.compared += other.compared
        self.deviations.update(other.deviations)
        self.categories.update(other.categories)
        self.mismatches.extend(other.mismatches)


def json_or_none(lines: list[str]) -> list[Any]:
    """Each line's JSON value, None for a line that is not JSON (the seeded faults)."""
    values: list[Any] = []
    for line in lines:
        try:
            values.append(json.loads(line))
        except ValueError:
            values.append(None)
    return values


def _coerce(value: dict, spec) -> dict | None:
    """The report with the rag24 indices and ragtime scores that pydantic coerces replaced
    by their coerced numbers (None when nothing is coerced)."""
    view = ReportView.build(value, spec)
    changed = False
    out = json.loads(json.dumps(value, allow_nan=True))
    sentences = out.get(view.sentences_ptr[1:])
    for i, s in enumerate(view.sentences or []):
        if not isinstance(s, dict):
            continue
        cits = s.get("citations")
        shape = view.sentence_shape(i)
        if shape == "rag24" and isinstance(cits, list):
            new = []
            for c in cits:
                if is_int_like(c) and (isinstance(c, bool) or not isinstance(c, int)):
                    c, changed = int(float(c)) if not isinstance(c, str) else int(c), True
                new.append(c)
            sentences[i]["citations"] = new
        elif shape == "ragtime" and isinstance(cits, dict):
            new_d = {}
            for d, sc in cits.items():
                if isinstance(sc, (bool, str)):
                    sc, changed = float(sc), True
                new_d[d] = sc
            sentences[i]["citations"] = new_d
    return out if changed else None


class Topics(dict):
    """topic id -> an object with .id, .text, .limit (what the Checker reads)."""

    @classmethod
    def from_requests(cls, requests: dict) -> Topics:
        from types import SimpleNamespace

        return cls({tid: SimpleNamespace(id=tid, text=q.title, limit=q.limit) for tid, q in requests.items()})


def _by_line(result) -> tuple[dict[int, list], list]:
    per_line: dict[int, list] = {}
    for f in result.findings:
        per_line.setdefault(result.line_index.position(f.start)[0], []).append(f)
    return per_line, result.findings


def compare_lines(
    lines: list[str],
    spec_id: str,
    requests: dict | None,
    *,
    loaded: list | None = None,
    values: list | None = None,
    check_coverage: bool = True,
    topics=None,
    strict: bool = False,
) -> Outcome:
    """Compare one run (its JSONL lines) under one spec, with or without topics.

    `requests`: the reference's topic id -> Request; `topics`: ours for the same file
    (`citelens.topics.load_topics`), else built from the requests.
    `loaded`/`values`: the reference Report (or None) and json value of each line, when
    the caller has them already (they do not depend on the spec)."""
    out = Outcome()
    spec = get_spec(spec_id)
    if requests and topics is None:
        topics = Topics.from_requests(requests)
    elif not requests:
        topics = None
    checker = Checker(spec, topics, strict=strict)
    text = "\n".join(lines) + "\n"
    result = checker.check_text(text, f"<{spec_id}>")
    per_line, _ = _by_line(result)
    if loaded is None:
        loaded = [R.load_line(line) if line.strip() else None for line in lines]
    if values is None:
        values = json_or_none(lines)
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        out.lines += 1
        ours_all = per_line.get(n, [])
        report = loaded[n]
        if report is None:
            out.unloadable += 1
            if not any(f.severity == "error" for f in ours_all):
                out.mismatches.append(
                    Mismatch(
                        "unloadable_no_error",
                        spec_id,
                        n + 1,
                        {(f.code, f.severity) for f in ours_all},
                        "unloadable",
                        line,
                    )
                )
            continue
        out.loadable += 1
        schema = [f for f in ours_all if f.code == "schema"]
        if schema:
            out.mismatches.append(
                Mismatch("schema_on_loadable", spec_id, n + 1, {f.message for f in schema}, "loads", line)
            )
        own = {f.code for f in ours_all if f.code in CITELENS_ONLY}
        if own:  # the shared specs keep the library's values: our extra checks stay off
            out.mismatches.append(Mismatch("citelens_only_code", spec_id, n + 1, own, "none", line))
        ours = {(f.code, f.severity) for f in ours_all if f.code not in EXCLUDED}
        ref = R.report_categories(report, spec_id, requests, strict=strict)
        ref_prefix = R.report_categories(report, spec_id, requests, anchored=False, strict=strict)
        out.categories.update(c for c, _ in ref)
        if ref_prefix != ref:
            # documented: the reference matches doc ids only at the start
            assert ref_prefix <= ref and {c for c, _ in ref - ref_prefix} == {"docid_pattern"}, (
                ref,
                ref_prefix,
            )
            out.deviations["docid_prefix"] += 1
        out.compared += 1
        if ours == ref:
            continue
        coerced = _coerce(values[n], spec) if isinstance(values[n], dict) else None
        if coerced is not None:
            request = topics.get(ReportView.build(coerced, spec).topic_id or "") if topics else None
            ours_coerced = {
                (f.code, f.severity)
                for f in check_report(coerced, spec, request, strict=strict)
                if f.code not in EXCLUDED
            }
            if ours_coerced == ref:
                # documented: we read the raw token (a "1" is not an index, so the
                # reference it would name is also uncited); the reference coerces first
                out.deviations["coercion"] += 1
                out.deviations.update(f"coercion:{c}" for c in sorted({c for c, _ in ours ^ ref}))
                continue
        out.mismatches.append(
            Mismatch(
                "per_report",
                spec_id,
                n + 1,
                ours ^ ref,
                f"ours-ref={sorted(ours - ref)} ref-ours={sorted(ref - ours)}",
                line,
            )
        )
    if check_coverage:
        _compare_coverage(checker, lines, loaded, spec_id, requests, out, strict)
    return out


def _compare_coverage(
    checker: Checker, lines, loaded, spec_id, requests, out: Outcome, strict: bool = False
) -> None:
    """Cross-report categories over the loadable reports only (the reference drops the
    others; we check them too, so compare on the same set of reports)."""
    kept = [line for line, r in zip(lines, loaded) if r is not None]
    reports = [r for r in loaded if r is not None]
    if not reports:
        return
    # the same Checker: its per-line cache makes this a cross-report pass only
    result = checker.check_text("\n".join(kept) + "\n", "<coverage>")
    ours = {(f.code, f.severity) for f in result.findings if f.code in COVERAGE_CODES}
    ref = R.coverage_categories(reports, spec_id, requests, strict)
    out.categories.update(c for c, _ in ref)
    if ours != ref:
        out.mismatches.append(Mismatch("coverage", spec_id, None, ours, ref))
        return
    ours_topics: dict[str, set[str]] = {}
    for f in result.findings:
        if f.code == "missing_topics":
            ours_topics.setdefault(f.code, set()).update(f.data.get("missing", ()))
        elif f.code in COVERAGE_CODES:
            ours_topics.setdefault(f.code, set()).add(f.topic_id)
    for code, ids in R.coverage_topics(reports, spec_id, requests).items():
        if ours_topics.get(code, set()) != ids:
            out.mismatches.append(
                Mismatch(
                    "coverage_topics",
                    spec_id,
                    None,
                    {code: sorted(ours_topics.get(code, set()) - ids)},
                    {code: sorted(ids - ours_topics.get(code, set()))},
                )
            )


def write_requests(path: Path, topics: list[dict]) -> tuple[dict, Any]:
    """Write a topics file; read it with both tools: (the reference's requests, our
    TopicSet). Both must see the same ids, texts and limits."""
    from citelens.topics import load_topics
    from tests.helpers.report_factory import topics_jsonl

    path.write_text(topics_jsonl(topics), encoding="utf-8")
    requests, ours = R.load_requests(path), load_topics(path)
    assert list(ours) == list(requests)
    assert all(ours[t].text == q.title and ours[t].limit == q.limit for t, q in requests.items())
    return requests, ours


def run_generated(gen: str, own_n: int, cross_n: int, seeds, tmp: Path, specs=None) -> Outcome:
    """A generated run for spec `gen` (per seed) against its own spec in full and against
    every other shared spec on its first `cross_n` lines, with and without topics."""
    from tests.helpers.report_factory import generate_run

    total = Outcome()
    for seed in seeds:
        lines, topics = generate_run(gen, own_n, seed)
        requests, ours = write_requests(tmp / f"{gen}-{seed}.topics.jsonl", topics)
        loaded = [R.load_line(line) for line in lines]
        values = json_or_none(lines)
        for spec_id in specs or R.SHARED_SPECS:
            n = len(lines) if spec_id == gen else cross_n
            for req in (None, requests):
                total.merge(
                    compare_lines(
                        lines[:n],
                        spec_id,
                        req,
                        loaded=loaded[:n],
                        values=values[:n],
                        topics=ours if req else None,
                    )
                )
    return total


def main() -> None:
    """Print the agreement figures (docs/agreement.md):
    python -m tests.helpers.agreement_compare [--own N] [--cross N] [--seeds 1,2,3]"""
    import argparse
    import tempfile
    import time

    ap = argparse.ArgumentParser()
    ap.add_argument("--own", type=int, default=500)
    ap.add_argument("--cross", type=int, default=60)
    ap.add_argument("--seeds", default="1")
    args = ap.parse_args()
    seeds = [int(x) for x in args.seeds.split(",")]
    t0 = time.perf_counter()
    grand = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        for gen in R.SHARED_SPECS:
            o = run_generated(gen, args.own, args.cross, seeds, Path(tmp))
            grand.merge(o)
            print(
                f"{gen:16} line checks {o.lines:6}  loadable {o.loadable:6}  unloadable {o.unloadable:5}  "
                f"mismatches {len(o.mismatches)}"
            )
    kinds = Counter(m.kind for m in grand.mismatches)
    print(
        f"total: {grand.lines} line checks ({grand.loadable} loadable compared, {grand.unloadable} unloadable) "
        f"over {len(R.SHARED_SPECS)} specs x 2 topic modes; mismatches {len(grand.mismatches)} {dict(kinds)}"
    )
    print("documented deviations:", dict(sorted(grand.deviations.items())))
    print("reference categories seen:", dict(sorted(grand.categories.items())))
    print(f"{time.perf_counter() - t0:.1f} s")
    for m in grand.mismatches[:20]:
        print(m)


if __name__ == "__main__":
    main()
