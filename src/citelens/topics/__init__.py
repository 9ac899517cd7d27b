"""Topic / request files: every real shape (TSV, JSON lines, concatenated objects, JSON
arrays) read into one `TopicSet` of `Topic`s, keyed by string id in file order.

Light by design: only the stdlib is imported, so the language server can re-read a
topics buffer on every change.
"""

from __future__ import annotations

from citelens.topics.fields import TOPIC_FIELDS
from citelens.topics.model import Topic, TopicFileError, TopicFormat, TopicSet
from citelens.topics.parse import load_topics, parse_topics

__all__ = [
    "TOPIC_FIELDS",
    "Topic",
    "TopicFileError",
    "TopicFormat",
    "TopicSet",
    "load_topics",
    "parse_topics",
]
