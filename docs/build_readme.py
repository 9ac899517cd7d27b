"""Assemble README.md from its hand-written head and the per-capability sections in
docs/readme/ (each capability's owner keeps its section there).

    python docs/build_readme.py        # rewrites README.md
    python docs/build_readme.py --check  # exit 1 if README.md is out of date (a test runs this)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ROOT / "docs" / "readme"

#: (heading, fragment, replace) in README order. replace=True: the heading takes the place
#: of the fragment's own first heading and the rest keeps its level; replace=False: the
#: heading is put above the fragment, whose headings all go one level down.
SECTIONS = [
    ("## Track specs and finding codes", "rules-specs.md", False),
    ("## Topic files, configuration and output formats", "topics-config-output.md", False),
    ("## Citation evidence: `citelens align`", "align.md", True),
    ("## The data models", "models.md", True),
    ("### Conversion semantics", "convert.md", True),
    ("## Agreement, deviations and benchmarks", "agreement.md", True),
]


def shift_headings(text: str, by: int, replace_first: str | None) -> str:
    out, fenced, first = [], False, True
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            if first and replace_first is not None:
                line = replace_first
            else:
                line = "#" * by + line
            first = False
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def build() -> str:
    head = (PARTS / "head.md").read_text(encoding="utf-8").rstrip("\n") + "\n"
    parts = [head]
    for heading, name, replace in SECTIONS:
        body = (PARTS / name).read_text(encoding="utf-8")
        first = body.lstrip().split("\n", 1)[0]
        level, own = heading.split(" ", 1)[0].count("#"), first.split(" ", 1)[0].count("#")
        if replace:
            parts.append("\n" + shift_headings(body, level - own, heading))
        else:
            parts.append(f"\n{heading}\n\n" + shift_headings(body, level + 1 - own, None))
    parts.append("\n" + (PARTS / "tail.md").read_text(encoding="utf-8").rstrip("\n") + "\n")
    return "".join(parts)


def main(argv: list[str]) -> int:
    text = build()
    readme = ROOT / "README.md"
    if "--check" in argv:
        if readme.read_text(encoding="utf-8") != text:
            print("README.md is out of date: run python docs/build_readme.py", file=sys.stderr)
            return 1
        return 0
    readme.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
