"""A session's source chain is shared by worker threads and closed from the event loop
when settings change: closing under a running query crashed the language server (an
index's SQLite connection closed mid-query). A close during a lookup waits for it."""

from __future__ import annotations

import threading

from citelens.corpus.corpus_document import CorpusDocument, Lookup
from citelens.corpus.local_sources import IndexSource
from citelens.corpus.source import SourceChain


class SlowSource:
    """A source whose lookup holds until the test lets it go, recording what overlaps."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.closed = False
        self.closed_during_lookup = False
        self.active = 0
        self.overlapped = False

    def describe(self) -> str:
        return "slow"

    def close(self) -> None:
        self.closed = True
        self.closed_during_lookup |= self.active > 0

    def get_many(self, ids):
        self.active += 1
        self.overlapped |= self.active > 1
        self.started.set()
        self.release.wait(10)
        self.active -= 1
        return Lookup(documents={i: CorpusDocument(id=i, text="t", origin="slow") for i in ids})


def test_a_close_during_a_lookup_is_done_when_the_lookup_ends():
    source = SlowSource()
    chain = SourceChain([source])
    worker = threading.Thread(target=chain.get_many, args=(["a"],))
    worker.start()
    assert source.started.wait(10)
    chain.close()  # the event loop: must not block, must not close under the lookup
    assert not source.closed
    source.release.set()
    worker.join(10)
    assert source.closed and not source.closed_during_lookup


def test_lookups_of_two_threads_take_turns():
    source = SlowSource()
    chain = SourceChain([source])
    threads = [threading.Thread(target=chain.get_many, args=([str(n)],)) for n in range(2)]
    for t in threads:
        t.start()
    assert source.started.wait(10)
    source.release.set()
    for t in threads:
        t.join(10)
    assert not source.overlapped


def test_a_closed_index_is_opened_again_by_the_next_lookup(tmp_path):
    from tests.helpers.indexed_corpus import indexed_corpus

    indexed_corpus(tmp_path)
    chain = SourceChain([IndexSource(tmp_path / "corpus.idx")])
    first = chain.get_many(["msmarco_v2.1_doc_02_1767598871#0_2981309782"])
    chain.close()
    again = chain.get_many(["msmarco_v2.1_doc_02_1767598871#0_2981309782"])
    assert first.documents == again.documents and None not in again.documents.values()
    chain.close()
