"""Line numbers of TOML keys, for error messages (tomllib gives values, not positions):
one reader for `citelens.toml`/`pyproject.toml` settings and for TOML spec files."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
#: `[[name]]`: an entry of an array of tables; its keys are under (*name, "N"), N from 0
_ARRAY_HEADER = re.compile(r"^\s*\[\[\s*([^\[\]]+?)\s*\]\]\s*(#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*'))*)\s*="""
)
_PART = re.compile(r"""[A-Za-z0-9_\-]+|"[^"]*"|'[^']*'""")

_AT = re.compile(r"\(at line (\d+), column \d+\)")

Table = tuple[str, ...]


def syntax_error(exc: ValueError) -> tuple[str, int | None]:
    """A `tomllib.TOMLDecodeError` as (reason without its position, 1-based line)."""
    m = _AT.search(str(exc))
    return _AT.sub("", str(exc)).strip(), int(m.group(1)) if m else None


def _parts(dotted: str) -> Table:
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in _PART.findall(dotted))


class TomlLines:
    """Where each `table.key` is written (1-based), including dotted and inline keys."""

    def __init__(self, text: str):
        self.keys: dict[tuple[Table, str], int] = {}
        self.tables: dict[Table, int] = {}
        self._lines = text.splitlines()
        table: Table = ()
        entries: dict[Table, int] = {}
        for n, line in enumerate(self._lines, start=1):
            if m := _ARRAY_HEADER.match(line):
                name = _parts(m.group(1))
                entries[name] = entries.get(name, -1) + 1
                table = (*name, str(entries[name]))
                self.tables.setdefault(table, n)
            elif m := _HEADER.match(line):
                table = _parts(m.group(1))
                self.tables.setdefault(table, n)
            elif m := _KEY.match(line):
                parts = _parts(m.group(1))
                self.keys.setdefault((table + parts[:-1], parts[-1]), n)

    def line_of(self, table: Table, key: str) -> int | None:
        """The key's line; else the line of the inline table (`t = {key = ..}`) or of
        the table header that holds it."""
        if (table, key) in self.keys:
            return self.keys[(table, key)]
        if table and (parent := self.keys.get((table[:-1], table[-1]))) is not None:
            return parent
        return self.tables.get(table)
