"""Time what the unit tests assert only by behaviour (they never time anything):

    python bench/bench_unit_limits.py

1. `parse_topics` on 20,000 JSON-lines topics, as a ratio to a plain `json.loads` loop over
   the same lines (measured in the same run, best of 3);
2. a REST source whose service is unreachable, asked for 200 ids: the time as a share of
   the one request timeout it is configured with (target: under 1, the ids are not each
   retried);
3. a service that accepts connections and never answers, asked for 20 ids: the time as a
   share of its budget (timeout x (retries + 1) plus the back-off; target: under 1.2).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the test helpers: tests.helpers

from citelens.corpus.rest_source import RestSource, ServiceOptions  # noqa: E402
from citelens.topics import parse_topics  # noqa: E402
from tests.helpers.anserini_server import free_port  # noqa: E402


def _best(fn, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def topics() -> None:
    lines = [
        json.dumps({"topic_id": str(i), "title": f"topic {i} " * 20, "limit": 5000}) for i in range(20000)
    ]
    text = "\n".join(lines)
    ours = _best(lambda: parse_topics(text))
    plain = _best(lambda: [json.loads(line) for line in text.splitlines()])
    print(f"parse_topics, 20,000 topics: {ours:.3f} s, {ours / plain:.2f}x a json.loads loop ({plain:.3f} s)")


def unreachable() -> None:
    options = ServiceOptions(timeout=2.0, retries=2, backoff=0.05, cache=False)
    source = RestSource(f"http://127.0.0.1:{free_port()}/v1/idx", options=options)
    started = time.monotonic()
    source.get_many([f"doc-{i}" for i in range(200)])
    took = time.monotonic() - started
    print(f"unreachable service, 200 ids: {took:.2f} s, {took / options.timeout:.2f} of one timeout")


def silent() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(50)
    options = ServiceOptions(timeout=0.5, retries=1, backoff=0.05, cache=False)
    budget = options.timeout * (options.retries + 1) + options.backoff * 4
    try:
        started = time.monotonic()
        RestSource(f"http://127.0.0.1:{server.getsockname()[1]}/v1/idx", options=options).get_many(
            [f"d{i}" for i in range(20)]
        )
        took = time.monotonic() - started
    finally:
        server.close()
    print(f"silent service, 20 ids: {took:.2f} s, {took / budget:.2f} of its budget ({budget:.2f} s)")


if __name__ == "__main__":
    print(f"load average {os.getloadavg()[0]:.1f}")
    topics()
    unreachable()
    silent()
