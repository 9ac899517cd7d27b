"""Corpus shapes: the field maps of `shapes.toml`, and detecting a file's shape from its first records."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

#: the roles a field can play; `id` and `text` are required
ROLES = ("id", "text", "title", "url")


@dataclass(frozen=True)
class FieldMap:
    """Which record field holds each role (`shape` names the row of the table it came from)."""

    shape: str
    id: str
    text: str
    title: str = "title"
    url: str = "url"

    def with_overrides(self, overrides: Mapping[str, str]) -> FieldMap:
        """The same map with some fields named explicitly (`;id=docno` in a source string)."""
        named = {role: overrides[role] for role in ROLES if role in overrides}
        if not named:
            return self
        return replace(self, shape=f"{self.shape} (fields named)", **named)

    def as_dict(self) -> dict[str, str]:
        return {"shape": self.shape, "id": self.id, "text": self.text, "title": self.title, "url": self.url}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FieldMap:
        return cls(**{k: str(data[k]) for k in ("shape", *ROLES)})


@dataclass(frozen=True)
class Shape:
    name: str
    about: str
    requires: tuple[str, ...]
    fields: FieldMap


@cache
def shapes() -> tuple[Shape, ...]:
    """The table of known shapes, in detection order."""
    raw = tomllib.loads(resources.files("citelens.corpus").joinpath("shapes.toml").read_text("utf-8"))
    return tuple(
        Shape(
            name=row["name"],
            about=row["about"],
            requires=tuple(row["requires"]),
            fields=FieldMap(
                row["name"], row["id"], row["text"], row.get("title", "title"), row.get("url", "url")
            ),
        )
        for row in raw["shape"]
    )


def detect_fields(
    records: Sequence[Mapping[str, Any]], overrides: Mapping[str, str] | None = None
) -> FieldMap | None:
    """The field map for these first records: the shape most of them fit (table order breaks ties), then the overrides.

    A stray bad record among the first ones does not hide the shape; with no shape that at
    least half of them fit, explicit `id` (and `text`) overrides alone make a map; otherwise None.
    """
    overrides = overrides or {}
    best: Shape | None = None
    best_count = 0
    for shape in shapes():
        count = sum(1 for rec in records if all(f in rec for f in shape.requires))
        if count > best_count:
            best, best_count = shape, count
    if best is not None and best_count * 2 >= len(records):
        return best.fields.with_overrides(overrides)
    if records and "id" in overrides:  # an id is enough to index; the text may be called anything
        return FieldMap("named", overrides["id"], overrides.get("text", "text")).with_overrides(overrides)
    return None


def describe_shapes() -> str:
    """One line per known shape, for messages that say what was expected."""
    return "; ".join(f"{s.name} ({', '.join(s.requires)})" for s in shapes())
