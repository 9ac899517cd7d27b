"""Source documents: where the documents a report cites come from.

One interface, `DocumentSource` (`get_many(ids) -> Lookup`, `describe()`), implemented by
the report's own documents, corpus files (through the embedded index), an index built by
`citelens index`, ir_datasets, and Anserini-style REST services; `open_sources` turns the
configured source strings into one `SourceChain`. Heavy parts (ir_datasets, zstandard,
HTTP) load only when a source of that kind is used.
"""

from __future__ import annotations

from citelens.corpus.corpus_document import CorpusDocument, Lookup
from citelens.corpus.local_sources import BrokenSource, CorpusFileSource, EmbeddedSource, IndexSource
from citelens.corpus.msmarco import parent_document_id
from citelens.corpus.opening import open_source, open_sources, split_spec
from citelens.corpus.source import DocumentSource, SourceChain, lookup_one

__all__ = [
    "BrokenSource",
    "CorpusDocument",
    "CorpusFileSource",
    "DocumentSource",
    "EmbeddedSource",
    "IndexSource",
    "Lookup",
    "SourceChain",
    "lookup_one",
    "open_source",
    "open_sources",
    "parent_document_id",
    "split_spec",
]
