"""Rules on the answer's length: length (over the track's or the topic's limit) and
response_length (the declared word count of the 2024 format must be exact)."""

from __future__ import annotations

import unicodedata

from citelens.check.finding import Target
from citelens.check.view import ReportView


def length_count(texts: list[str], unit: str) -> int:
    """Join the sentence texts with single spaces, then count whitespace-split words or
    NFKC characters: what the official RAGTIME validator and autojudge-base do."""
    joined = " ".join(texts)
    if unit == "words":
        return len(joined.split())
    return len(joined) if joined.isascii() else len(unicodedata.normalize("NFKC", joined))


def check_length(view: ReportView) -> None:
    spec = view.spec
    limit = spec.length_limit
    if limit is None and spec.length_limit_request_field is not None and view.request is not None:
        limit = getattr(view.request, spec.length_limit_request_field, None)
    field_name = spec.response_length_field
    if limit is None and field_name is None:
        return
    texts = [s["text"] for s in view.sentences if type(s) is dict and type(s.get("text")) is str]
    if limit is not None:
        count = length_count(texts, spec.length_unit)
        if count > limit:
            key = view.sentences_ptr[1:]
            view.add(
                "length",
                f"the answer is {count} {spec.length_unit} long; the limit is {limit} "
                f"({count - limit} {spec.length_unit} over)",
                key,
                target=Target.KEY,
                limit=limit,
                count=count,
            )
    if field_name is not None and field_name in view.meta:
        declared = view.meta[field_name]
        words = sum(len(unicodedata.normalize("NFKC", t.strip()).split()) for t in texts)
        if declared != words or isinstance(declared, bool):
            view.add(
                "response_length",
                f"{field_name} is {declared!r} but the answer has {words} words; set it to {words}",
                *view.mtok(field_name),
                count=words,
            )
