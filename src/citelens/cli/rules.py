"""`citelens rules`: the finding codes and their documentation (like `ruff rule`).

`citelens rules` lists every code with its module and one-line summary; `citelens rules
CODE` prints the code's full documentation as plain text. Both come from the Markdown
files beside the rule modules (`citelens.check.catalog`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from citelens.cli import EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from citelens.check.catalog import RuleDoc


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "code",
        nargs="?",
        metavar="CODE",
        help="a finding code, e.g. citation_count (omit to list every code)",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="text for people (default), json for tools"
    )


def run(args: argparse.Namespace) -> int:
    from citelens.check.catalog import all_rule_docs, closest_codes, docs_uri, rule_doc

    out = sys.stdout
    if args.code is None:
        docs = all_rule_docs()
        if args.format == "json":
            json.dump(
                [
                    {"code": d.code, "module": d.module, "summary": d.summary, "docs_uri": docs_uri(d.code)}
                    for d in docs
                ],
                out,
                indent=2,
                ensure_ascii=False,
            )
            out.write("\n")
        else:
            out.write(render_list(docs))
        return EXIT_OK
    code = args.code.strip().lower().replace("-", "_")
    try:
        doc = rule_doc(code)
    except KeyError:
        close = closest_codes(args.code)
        hint = ""
        if close:
            hint = (
                "; did you mean "
                + (", ".join(close[:-1]) + " or " if len(close) > 1 else "")
                + close[-1]
                + "?"
            )
        print(
            f"citelens rules: unknown code {args.code!r}{hint} (`citelens rules` lists every code)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.format == "json":
        data = asdict(doc)
        data["implemented_in"] = doc.implemented_in
        data["docs_uri"] = docs_uri(doc.code)
        json.dump(data, out, indent=2, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(render_doc(doc, docs_uri(doc.code)))
    return EXIT_OK


def render_list(docs: Sequence[RuleDoc]) -> str:
    """One line per code: code, module, summary (aligned columns)."""
    width = max(len(d.code) for d in docs)
    mod_width = max(len(d.module) for d in docs)
    lines = [f"{'CODE'.ljust(width)}  {'MODULE'.ljust(mod_width)}  SUMMARY"]
    lines += [f"{d.code.ljust(width)}  {d.module.ljust(mod_width)}  {d.summary}" for d in docs]
    lines.append("")
    lines.append(
        "`citelens rules CODE` explains a code; `citelens specs ID` shows which are warnings under a spec."
    )
    return "\n".join(lines) + "\n"


def plain(markdown: str) -> str:
    """Markdown as terminal text: fenced blocks become labelled, indented blocks; emphasis
    markers go; everything else (tables, lists, `code`) reads fine as written."""

    def block(m: re.Match[str]) -> str:
        label = example_label(m.group(1))
        body = "\n".join("    " + line if line else "" for line in m.group(2).rstrip("\n").split("\n"))
        return (label + "\n" if label else "") + body + "\n"

    from citelens.check.catalog import FENCE, example_label

    text = FENCE.sub(block, markdown)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _severities(code: str) -> list[str]:
    from citelens.cli.specs import severity_by_spec
    from citelens.specs import builtin_specs

    by = severity_by_spec(code, builtin_specs())
    names = {"warning": "warning", "error": "error", "never": "not checked"}
    return [f"  {names[k] + ':':12} {', '.join(v)}" for k, v in by.items() if v]


def render_doc(doc: RuleDoc, uri: str | None = None) -> str:
    from citelens.check.catalog import SECTIONS

    titles = {name: title[0].upper() + title[1:] for title, name in SECTIONS.items()}
    out = [f"{doc.code}  (checked in citelens/{doc.implemented_in})", "", doc.summary]
    for name in ("checks", "why", "failing", "passing", "fix"):
        value = getattr(doc, name)
        text = value.markdown if hasattr(value, "markdown") else value
        out += ["", titles[name], "-" * len(titles[name]), plain(text)]
    out += ["", "Severity under the built-in specs (`--strict` makes it an error everywhere)", "-" * 75]
    out += _severities(doc.code)
    if uri:
        out += ["", f"Documentation: {uri}"]
    return "\n".join(out) + "\n"
