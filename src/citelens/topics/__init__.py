"""Topic / request files: every real shape (TSV, JSON lines, concatenated objects, JSON
arrays) read into one `TopicSet` of `Topic`s, keyed by string id in file order.

Light by design: only the stdlib is imported, so the language server can re-read a
topics buffer on every change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citelens import lazy_export
from citelens.topics.fields import TOPIC_FIELDS
from citelens.topics.model import Topic, TopicFileError, TopicFormat, TopicSet

if TYPE_CHECKING:
    from citelens.topics.parse import load_topics, parse_topics

# The readers (and the file layer under them) load on first use.
_EXPORTS = dict.fromkeys(("load_topics", "parse_topics"), "citelens.topics.parse")

__all__ = [
    "TOPIC_FIELDS",
    "Topic",
    "TopicFileError",
    "TopicFormat",
    "TopicSet",
    "load_topics",
    "parse_topics",
]


def __getattr__(name: str) -> Any:
    return lazy_export(globals(), _EXPORTS, name)
