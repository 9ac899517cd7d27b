"""Which JSON members hold a topic's id, text and limit: the one table, as data.

Real topic files name the id `request_id` (NeuCLIR, AJB `Request`, kiddie), `topic_id`
(RAGTIME), `narrative_id`, `id` (RAG 25) or `docid` (DRAGUN's MS MARCO documents), and the
text `title`, `narrative`, `text` or `problem_statement`. The first member present with a
non-null value wins, in the order below; a new topic shape is a new name here, not code.
"""

from __future__ import annotations

from typing import Final

#: topic attribute -> JSON member names, highest precedence first
TOPIC_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "id": ("request_id", "topic_id", "narrative_id", "id", "docid"),
    "text": ("title", "narrative", "text", "problem_statement"),
    "limit": ("limit",),
}

#: first cells of a TSV header row (skipped); the official TSV files have no header
TSV_HEADER_IDS: Final[frozenset[str]] = frozenset(
    {"id", "qid", "query_id", "topic_id", "request_id", "narrative_id"}
)
