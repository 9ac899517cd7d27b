"""The rule catalog: every finding code's documentation, read from the Markdown files that
sit beside the rule modules (`check/rules/<module>.md`; `source.md` for the codes found
while reading the file: json_syntax, encoding, duplicate_key).

One file per rule module, one `## CODE` section per code, with fixed subsections:

    ## CODE
    One-line summary.
    ### What it checks
    ### Why it matters
    ### Example that fails
    ### Example that passes
    ### How to fix

An example is a fenced block whose info string names the language and the spec it is
checked under, e.g. ```` ```jsonl spec=rag26 ````. Optional extra blocks in the same
example: ```` ```tsv topics ```` / ```` ```jsonl topics ```` (the topics file the run is
checked with), ```` ```toml spec-file ```` (a user spec file; `spec=` may name a spec it
defines), ```` ```jsonl docs ```` (a corpus the run is checked against, as with `--docs`;
```` ```jsonl docs partial ```` when it stands for a partly built index),
and `saved-as=latin-1` on the run block (the run's bytes are in that encoding).
The tests run every example through the engine, so the docs cannot drift from the code.

The files are read on first use only (`citelens check` never pays for them).

Links: `docs_uri(code)` is a `file://` URI of the installed Markdown file with the code as
fragment (`.../check/rules/schema.md#schema`; the `## CODE` heading's anchor): it works
offline, always matches the installed version, and editors open it (VS Code's Markdown
preview scrolls to the heading). Pass `base=` (a URL ending in `.../check/rules/`, e.g. the
repository's tree at a release tag) to get web links of the same form instead.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from citelens.check.registry import FINDING_CODES, MODULES, RULES

RULES_DIR = Path(__file__).with_name("rules")
#: subsection title (lower case) -> RuleDoc field
SECTIONS = {
    "what it checks": "checks",
    "why it matters": "why",
    "example that fails": "failing",
    "example that passes": "passing",
    "how to fix": "fix",
}

#: a fenced block: group 1 the info string, group 2 the body (also read by `citelens rules`)
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
_CODE_HEADING = re.compile(r"^## +`?([a-z_]+)`? *$", re.M)
_SUB_HEADING = re.compile(r"^### +(.+?) *$", re.M)


def example_label(info: str, code: Callable[[str], str] = str) -> str:
    """What a fenced example block of a rule doc holds, in words ("" for a block that needs
    no label); `code` marks up the literal names in it (the docs site wraps them in
    backticks), so the terminal and the site say the same."""
    words = info.split()
    attrs = dict(w.split("=", 1) for w in words if "=" in w)
    if "topics" in words:
        return "topics file:"
    if "spec-file" in words:
        return "spec file (TOML):"
    if "docs" in words:
        if "partial" in words:
            return f"corpus, given with {code('--docs')} (its index only partly built):"
        return f"corpus file (given with {code('--docs')}):"
    if "spec" in attrs:
        label = f"run, checked under spec {code(attrs['spec'])}"
        if "saved-as" in attrs:
            label += f", saved as {attrs['saved-as']}"
        return label + ":"
    return ""


class CatalogError(ValueError):
    """A documentation file that does not follow the layout above (a packaging bug)."""


@dataclass(frozen=True)
class Example:
    spec: str  # the spec id the run is checked under
    text: str  # the run: one or more JSONL lines
    topics: str | None = None  # a topics file's text, when the code needs one
    spec_file: str | None = None  # a user spec file (TOML) defining `spec`, if not built in
    saved_as: str = "utf-8"  # the encoding of the run's bytes
    note: str = ""  # the prose around the blocks
    markdown: str = field(default="", repr=False)  # the subsection as written
    docs: str | None = None  # a corpus (JSONL) the run is checked against (`--docs`)
    docs_partial: bool = False  # ... as a partly built index (it cannot say what it lacks)

    def data(self) -> bytes:
        """The run file's bytes."""
        return self.text.encode(self.saved_as)


@dataclass(frozen=True)
class RuleDoc:
    code: str
    module: str  # "schema" -> check/rules/schema.md (and the rule in schema.py)
    summary: str
    checks: str
    why: str
    failing: Example
    passing: Example
    fix: str
    markdown: str = field(default="", repr=False)  # the whole section

    @property
    def path(self) -> Path:
        """The Markdown file the documentation comes from."""
        return RULES_DIR / f"{self.module}.md"

    @property
    def implemented_in(self) -> str:
        """The source file of the check (relative to the `citelens` package)."""
        return "source/run_text.py" if self.module == "source" else f"check/rules/{self.module}.py"


def _mask_fences(text: str) -> str:
    """The text with fenced blocks blanked (same length), so headings inside them are not seen."""
    return FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _example(code: str, where: str, body: str) -> Example:
    run: tuple[dict[str, str], str] | None = None
    topics = spec_file = docs = None
    docs_partial = False
    for m in FENCE.finditer(body):
        words = m.group(1).split()
        attrs = dict(w.split("=", 1) for w in words if "=" in w)
        flags = {w for w in words if "=" not in w}
        if "topics" in flags:
            topics = m.group(2)
        elif "spec-file" in flags:
            spec_file = m.group(2)
        elif "docs" in flags:
            docs = m.group(2)
            docs_partial = "partial" in flags
        elif "spec" in attrs and run is None:
            run = (attrs, m.group(2))
    if run is None:
        raise CatalogError(f"{where}: {code}: an example needs a fenced block with spec=ID")
    attrs, text = run
    note = " ".join(FENCE.sub("", body).split())
    return Example(
        attrs["spec"],
        text,
        topics,
        spec_file,
        attrs.get("saved-as", "utf-8"),
        note,
        body.strip(),
        docs,
        docs_partial,
    )


def parse_rule_file(text: str, module: str) -> dict[str, RuleDoc]:
    """The `## CODE` sections of one documentation file."""
    where = f"{module}.md"
    masked = _mask_fences(text)
    heads = list(_CODE_HEADING.finditer(masked))
    docs: dict[str, RuleDoc] = {}
    for n, head in enumerate(heads):
        code = head.group(1)
        end = heads[n + 1].start() if n + 1 < len(heads) else len(text)
        section, masked_section = text[head.end() : end], masked[head.end() : end]
        subs = list(_SUB_HEADING.finditer(masked_section))
        if not subs:
            raise CatalogError(f"{where}: {code}: no subsections")
        summary_text = " ".join(section[: subs[0].start()].split())
        parts: dict[str, str] = {}
        for k, sub in enumerate(subs):
            name = SECTIONS.get(sub.group(1).lower())
            if name is None:
                raise CatalogError(f"{where}: {code}: unknown subsection {sub.group(1)!r}")
            stop = subs[k + 1].start() if k + 1 < len(subs) else len(section)
            parts[name] = section[sub.end() : stop].strip()
        missing = [title.capitalize() for title, name in SECTIONS.items() if not parts.get(name)]
        if not summary_text:
            missing.insert(0, "summary")
        if missing:
            raise CatalogError(f"{where}: {code}: missing or empty: {', '.join(missing)}")
        if code in docs:
            raise CatalogError(f"{where}: {code} is documented twice")
        docs[code] = RuleDoc(
            code,
            module,
            summary_text,
            parts["checks"],
            parts["why"],
            _example(code, where, parts["failing"]),
            _example(code, where, parts["passing"]),
            parts["fix"],
            text[head.start() : end].strip(),
        )
    return docs


@cache
def _catalog() -> dict[str, RuleDoc]:
    out: dict[str, RuleDoc] = {}
    for module in MODULES:
        path = RULES_DIR / f"{module}.md"
        for code, doc in parse_rule_file(path.read_text(encoding="utf-8"), module).items():
            if code in out:
                raise CatalogError(f"{code} is documented in both {out[code].module}.md and {module}.md")
            out[code] = doc
    for code, rule in RULES.items():
        if code not in out:
            raise CatalogError(f"{code} has no documentation: add a `## {code}` section to {rule.module}.md")
        if out[code].module != rule.module:
            raise CatalogError(
                f"{code} is declared in {rule.module}.py but documented in {out[code].module}.md"
            )
    return out


def all_rule_docs() -> list[RuleDoc]:
    """Every documented code, in the order of FINDING_CODES (then any others)."""
    order = {code: i for i, code in enumerate(FINDING_CODES)}
    return sorted(_catalog().values(), key=lambda d: (order.get(d.code, len(order)), d.code))


def rule_doc(code: str) -> RuleDoc:
    """One code's documentation; KeyError for an unknown code."""
    return _catalog()[code]


def summary(code: str) -> str:
    """A code's one-line summary ("" for an unknown code); usable as the output formats'
    `rule_summary`."""
    doc = _catalog().get(code)
    return doc.summary if doc else ""


def docs_uri(code: str, base: str | None = None) -> str | None:
    """A stable link to a code's documentation (LSP `codeDescription.href`, SARIF
    `helpUri`): `file:///.../check/rules/MODULE.md#CODE`, or `BASE/MODULE.md#CODE`.
    None for an unknown code.

    A rule's module names its file (the catalog refuses a code documented elsewhere), so
    the Markdown is not read for a link: an editor's first diagnostics carry one each, and
    parsing every rule file first cost their publishing some 40 ms."""
    rule = RULES.get(code)
    if rule is not None:
        module = rule.module
    else:
        doc = _catalog().get(code)
        if doc is None:
            return None
        module = doc.module
    if base is not None:
        return f"{base.rstrip('/')}/{module}.md#{code}"
    return f"{_file_uri(RULES_DIR / f'{module}.md')}#{code}"


@cache
def _file_uri(path: Path) -> str:
    """The URI of an installed documentation file, resolved once: resolving asks the file
    system for every part of the path, and each of those calls lets another thread take
    the interpreter (a hover beside a big check waited for it a dozen times)."""
    return path.resolve().as_uri()


def closest_codes(code: str, n: int = 3) -> list[str]:
    """Known codes that look like `code` (for "did you mean ...")."""
    known = list(_catalog())
    wanted = code.strip().lower().replace("-", "_")
    close = difflib.get_close_matches(wanted, known, n=n, cutoff=0.5)
    if not close:
        close = [c for c in known if wanted and (wanted in c or c in wanted)][:n]
    return close
