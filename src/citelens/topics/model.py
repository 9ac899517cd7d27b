"""Topics as the checker uses them: `Topic`, the ordered `TopicSet`, `TopicFileError`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

TopicFormat = Literal["tsv", "jsonl", "concatenated", "json-array"]


@dataclass(frozen=True, slots=True)
class Topic:
    id: str  # always a string: integer ids from JSON are converted
    text: str | None  # None when the record has none of the text members (NeuCLIR sample)
    limit: int | None  # the request's length limit, when it has one (RAGTIME, NeuCLIR)
    line: int  # 1-based line where the record starts
    fields: dict[str, Any] = field(default_factory=dict, compare=False)  # the record as read


class TopicSet(Mapping[str, Topic]):
    """Topics by id, in file order."""

    __slots__ = ("_by_id", "format", "name")

    def __init__(self, topics: Mapping[str, Topic], name: str, format: TopicFormat):
        self.name = name  # the path (or buffer name) the topics came from
        self.format: TopicFormat = format
        self._by_id = dict(topics)

    def __getitem__(self, topic_id: str) -> Topic:
        return self._by_id[topic_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def __repr__(self) -> str:
        return f"TopicSet({self.name!r}, {self.format}, {len(self)} topics)"


class TopicFileError(ValueError):
    """A topics file that cannot be read; `line`/`column` are 1-based code points
    (0 when the problem has no position, e.g. a missing file)."""

    def __init__(self, path: str, line: int, column: int, message: str):
        self.path, self.line, self.column, self.reason = path, line, column, message
        where = f"{path}:{line}:{column}" if line > 0 else path
        super().__init__(f"{where}: {message}")
