"""`citelens specs`: the track specs, in human terms.

`citelens specs` lists the built-in specs; `citelens specs ID` shows one spec's rules and
which finding codes are warnings (smells) or errors under it; `citelens specs FILE` loads
a user spec file (YAML/TOML/JSON) and lists its specs, or explains why it does not load
(file:line). `FILE#ID` shows one spec of a file. `--format json` prints the specs as data.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from citelens.cli import EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from citelens.check.track_spec import TrackSpec

REFERENCES = {
    "retrieval_list": "a retrieval list: every cited doc must be listed, uncited entries are allowed",
    "cited_only": "exactly the cited documents",
    "none": "not allowed: the report must have no references list",
    "ignore": "not checked",
}


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "spec",
        nargs="?",
        metavar="ID|FILE",
        help="a built-in spec id, a spec file "
        "(.toml/.yml/.yaml/.json), or FILE#ID (omit to list the built-in specs)",
    )
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for people (default), json: the specs as data",
    )


def run(args: argparse.Namespace) -> int:
    from citelens.specs import SpecError, builtin_specs, parse_spec_ref

    builtin = builtin_specs()
    wanted = args.spec
    try:
        if wanted is None:
            return _show_many(builtin, args.format, "built-in specs")
        if not wanted.strip():
            raise SpecError("the spec id is empty; give a built-in id (see `citelens specs`) or a spec file")
        ref = parse_spec_ref(wanted)
        if ref.path is None:
            return _show_one(builtin[wanted], args.format)
        if ref.looks_like_file:
            from citelens.files import read_bytes

            read_bytes(ref.path)  # a FileError names the real cause (a directory, a link loop)
            specs = ref.specs()
            if ref.spec_id:
                return _show_one(specs[ref.spec_id], args.format)
            if len(specs) == 1 and args.format == "text":
                return _show_one(next(iter(specs.values())), args.format, source=str(ref.path))
            return _show_many(specs, args.format, f"specs in {ref.path}", f"citelens specs {ref.path}#ID")
    except (SpecError, OSError) as exc:
        print(f"citelens specs: {exc}", file=sys.stderr)
        return EXIT_USAGE
    close = difflib.get_close_matches(wanted, list(builtin), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    print(
        f"citelens specs: unknown spec {wanted!r}{hint} (built-in: {', '.join(builtin)}; "
        "or give a spec file)",
        file=sys.stderr,
    )
    return EXIT_USAGE


# --- output -----------------------------------------------------------------------------


def _dump(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _show_many(specs: Mapping[str, TrackSpec], fmt: str, title: str, show: str = "citelens specs ID") -> int:
    if fmt == "json":
        _dump([s.describe() for s in specs.values()])
    else:
        sys.stdout.write(render_table(list(specs.values()), title, show))
    return EXIT_OK


def _show_one(spec: TrackSpec, fmt: str, source: str | None = None) -> int:
    if fmt == "json":
        _dump(spec.describe())
    else:
        sys.stdout.write(render_spec(spec, source))
    return EXIT_OK


def length_rule(spec: TrackSpec) -> str:
    if spec.length_limit is not None:
        return f"{spec.length_limit} {spec.length_unit}"
    if spec.length_limit_request_field:
        return f"topic's {spec.length_limit_request_field} ({spec.length_unit})"
    return "-"


def render_table(specs: list[TrackSpec], title: str, show: str = "citelens specs ID") -> str:
    rows = [("ID", "TASK", "CITATIONS", "SENTENCES", "LENGTH", "DESCRIPTION")]
    for s in specs:
        rows.append(
            (
                s.track,
                s.task,
                ", ".join(s.sentence_type),
                s.sentences_key,
                length_rule(s),
                s.description or "",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = [f"{title}:", ""]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    lines += ["", f"`{show}` shows one spec's rules; `citelens rules CODE` explains a code."]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def never_reported(spec: TrackSpec) -> list[str]:
    """Per-report codes this spec's fields switch off (they cannot occur under it)."""
    checked_refs = spec.references_kind in ("cited_only", "retrieval_list")
    off = {
        "references_present": spec.references_kind != "none",
        "references_missing": not (
            (checked_refs and not spec.references_optional) or spec.require_references_key
        ),
        "references_duplicate": not checked_refs,
        "references_undeclared": not checked_refs,
        "references_uncited": not checked_refs,
        "references_max": not (spec.references_kind == "retrieval_list" and spec.references_max is not None),
        "citation_count": spec.max_citations_per_sentence is None,
        "citation_duplicate": not spec.flag_duplicate_citations,
        "docid_pattern": not spec.docid_pattern,
        "metadata_recommended": not spec.recommended_metadata,
        "run_id_length": spec.run_id_max_len is None,
        "length": spec.length_limit is None and spec.length_limit_request_field is None,
        "response_length": spec.response_length_field is None,
        "metadata_value": not spec.metadata_values,
        "id_type": not spec.string_ids,
        "narrative": not spec.require_exact_narrative,
        "run_consistency": not spec.same_on_every_line,
    }
    return [code for code, is_off in off.items() if is_off]


def severity_by_spec(code: str, specs: Mapping[str, TrackSpec]) -> dict[str, list[str]]:
    """Spec ids under which `code` is a warning, an error, or never reported."""
    from citelens.specs.model import STRUCTURE_CODES

    out: dict[str, list[str]] = {"warning": [], "error": [], "never": []}
    for spec_id, spec in specs.items():
        if code in STRUCTURE_CODES:
            out["error"].append(spec_id)
        elif code in never_reported(spec):
            out["never"].append(spec_id)
        else:
            out["warning" if code in spec.smells else "error"].append(spec_id)
    return out


def _list(items: Iterable[object], empty: str = "none") -> str:
    return ", ".join(map(str, items)) if items else empty


def spec_rules(spec: TrackSpec) -> list[tuple[str, str]]:
    """(topic, rule in words) for every field of the spec."""
    md = "" if spec.layout == "flat" else "metadata."
    from citelens.check.view import SHAPE_NAMES

    shapes = [f"{SHAPE_NAMES[t]} ({t})" for t in spec.sentence_type]
    refs = REFERENCES[spec.references_kind]
    if spec.references_optional and spec.references_kind in ("cited_only", "retrieval_list"):
        refs += "; an absent or empty list is fine"
    if spec.references_max is not None:
        refs += f"; at most {spec.references_max} entries"
    if spec.require_references_key:
        refs += "; the `references` key must be present"
    if spec.length_limit is not None:
        length = f"at most {spec.length_limit} {spec.length_unit}"
    elif spec.length_limit_request_field:
        length = (
            f"at most the topic's `{spec.length_limit_request_field}` {spec.length_unit} (needs --topics)"
        )
    else:
        length = "no limit"
    unit = {
        "words": "whitespace-separated words of the space-joined sentence texts",
        "chars": "characters (NFKC) of the space-joined sentence texts",
    }[spec.length_unit]
    rules = [
        ("task", f"{spec.task} ({'RAG answer' if spec.task == 'generation' else 'report generation'})"),
        (
            "layout",
            "metadata keys at the top level (flat 2024 format)"
            if spec.layout == "flat"
            else "a `metadata` object, the sentence list and `references`",
        ),
        ("sentences", f"in `{spec.sentences_key}`"),
        ("citations", " or ".join(shapes) + f"; `citelens convert` writes {spec.emit_sentence_type}"),
        (
            "citations per sentence",
            f"at most {spec.max_citations_per_sentence}"
            if spec.max_citations_per_sentence is not None
            else "no limit",
        ),
        (
            "repeated citation",
            "flagged (citation_duplicate)" if spec.flag_duplicate_citations else "not checked",
        ),
        ("every citation key", "required" if spec.require_citations_key else "not required"),
        ("topic id", f"`{md}{spec.topic_id_field}`"),
        ("required metadata", _list(spec.mandatory_metadata)),
        ("recommended metadata", _list(spec.recommended_metadata)),
        ("other metadata keys", "not allowed" if spec.forbid_extra_metadata else "allowed"),
        ("string ids", _list(spec.string_ids, "no rule beyond the report model's types")),
        ("allowed values", _list([f"{k} in {list(v)}" for k, v in spec.metadata_values.items()])),
        ("same on every line", _list(spec.same_on_every_line)),
        (
            "topic text",
            f"`{md}{spec.narrative_field}` must copy the topic text exactly (needs --topics)"
            if spec.require_exact_narrative
            else "not checked",
        ),
        (
            "run_id",
            f"at most {spec.run_id_max_len} characters"
            if spec.run_id_max_len is not None
            else "no length limit",
        ),
        (
            "doc ids",
            f"must match `{spec.docid_pattern}` as a whole"
            + (f" (e.g. {spec.docid_example})" if spec.docid_example else "")
            if spec.docid_pattern
            else "any string",
        ),
        ("collections", _list(spec.collection_ids or (), "not stated")),
        ("references", refs),
        ("length", length + (f"; counted as {unit}" if length != "no limit" else "")),
        (
            "declared length",
            f"`{spec.response_length_field}` must equal the word count"
            if spec.response_length_field
            else "not checked",
        ),
    ]
    return rules


def render_spec(spec: TrackSpec, source: str | None = None) -> str:
    from citelens.specs.model import SMELL_CODES, STRUCTURE_CODES

    lines = [spec.track + (f"  (from {source})" if source else "")]
    if spec.description:
        lines.append(spec.description)
    lines.append("")
    rules = spec_rules(spec)
    width = max(len(k) for k, _ in rules)
    lines += [f"  {k.ljust(width)}  {v}" for k, v in rules]
    off = set(never_reported(spec))
    smells = [c for c in SMELL_CODES if c in spec.smells and c not in off]
    errors = [c for c in SMELL_CODES if c not in spec.smells and c not in off]
    lines += [
        "",
        "Severity of each finding code under this spec (`--strict` makes every one an error):",
        f"  warnings (smells): {_list(smells)}",
        f"  errors:            {_list(errors)}",
        f"  always errors:     {_list(STRUCTURE_CODES)}",
        f"  never reported:    {_list([c for c in SMELL_CODES if c in off])}"
        "  (switched off by the fields above)",
        "",
        "Fields (as in a spec file):",
    ]
    for name, value in spec.describe().items():
        lines.append(f"  {name} = {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"
