"""MS MARCO v2.1 segment ids and their parent documents.

A segment id is the document id, `#`, the segment number, `_` and a byte offset:
`msmarco_v2.1_doc_00_378699409#2_708658780` belongs to `msmarco_v2.1_doc_00_378699409`.
"""

from __future__ import annotations

import re

_SEGMENT = re.compile(r"^(msmarco_v2\.1_doc_\d+_\d+)#\d+_\d+$")


def parent_document_id(doc_id: str) -> str | None:
    """The parent document id of an MS MARCO v2.1 segment id; None for any other id."""
    m = _SEGMENT.match(doc_id)
    return m.group(1) if m else None
