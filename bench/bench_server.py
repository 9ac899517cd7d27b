"""Language-server latencies, timed from a plain JSON-RPC client over stdio.

    python bench/bench_server.py                 # 1,000-report rag25 run
    python bench/bench_server.py -n 1000 --edits 1000 --hovers 200

Starts `python -m citelens_server`, and measures:
  - initialize: from process start to the `initialize` answer (target < 0.5 s), for an
    installed server (bytecode compiled, as pip does), also for its very first start
    (before its start-up cache of lsprotocol's compiled classes exists: runtime/start_cache.py);
  - didOpen -> first publishDiagnostics (target < 300 ms);
  - a one-character edit (debounceMs 0) -> the diagnostics of that version (target < 30 ms, median and p95);
  - hover on a citation whose document is embedded in the report (target p95 < 50 ms);
  - the server's RSS after the first check and after all edits (target within 1.5x).
As the reference measured in the same run, `citelens check` of the same text in-process
(one Checker, cold) is timed; the open-to-diagnostics time is also given as a ratio to it.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import queue
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from report_factory.runs import generate_run  # noqa: E402


class Client:
    """Content-Length framed JSON-RPC over the server's stdin/stdout."""

    def __init__(self, cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=env
        )
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = out.read(length or 0)
            at = time.perf_counter()  # the message is here; parsing it is the client's time
            self.inbox.put((at, json.loads(body)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: dict) -> tuple[float, dict]:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m)

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def wait(self, match, timeout: float = 60.0) -> tuple[float, dict]:
        deadline = time.perf_counter() + timeout
        while True:
            at, msg = self.inbox.get(timeout=max(deadline - time.perf_counter(), 0.01))
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                self.send(
                    {
                        "id": msg["id"],
                        "result": [None] * len(msg["params"].get("items", []))
                        if msg["method"] == "workspace/configuration"
                        else None,
                    }
                )
                continue
            if match(msg):
                return at, msg

    def rss_kb(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(5)
        except Exception:
            self.proc.kill()


def make_run(n: int, out: Path) -> tuple[Path, str]:
    lines, _ = generate_run("rag25", n, seed=11, loadable_faults_only=True)
    cited = next(i for i, line in enumerate(lines) if re.search(r'"citations": [\[{](\d|")', line))
    first = json.loads(lines[cited])
    refs = list(first.get("references") or [])
    for sentence in first.get("answer") or first.get("responses") or []:
        cites = sentence.get("citations") if isinstance(sentence, dict) else None
        refs += [c for c in (cites or []) if isinstance(c, str)] + (
            list(cites) if isinstance(cites, dict) else []
        )
    first["documents"] = {
        doc_id: {
            "id": doc_id,
            "title": f"Document {i}",
            "text": " ".join(s["text"] for s in first["answer"]) + " More words here.",
        }
        for i, doc_id in enumerate(refs)
    }
    lines[cited] = json.dumps(first, ensure_ascii=False)
    text = "\n".join(lines) + "\n"
    out.mkdir(parents=True, exist_ok=True)
    (out / "citelens.toml").write_text('spec = "rag25"\n', encoding="utf-8")
    path = out / "bench-rag25.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, text


def installed_like() -> dict[str, str]:
    """The environment of an installed server: its bytecode compiled (as pip does when it
    installs a wheel; this checkout may run with PYTHONDONTWRITEBYTECODE) and a start-up
    cache of its own under bench/out, so the first start is measured too."""
    import citelens
    import citelens_server

    for package in (citelens, citelens_server):
        compileall.compile_dir(Path(package.__file__).parent, quiet=1, force=False, legacy=False)
    cache = ROOT / "bench" / "out" / "server-cache"
    shutil.rmtree(cache, ignore_errors=True)
    return {**os.environ, "CITELENS_CACHE_DIR": str(cache)}


def time_initialize(cwd: Path, env: dict[str, str]) -> float:
    client = Client([sys.executable, "-m", "citelens_server"], cwd, env)
    at, _ = client.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    client.close()
    return at - client.started


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=1000, help="reports in the run")
    ap.add_argument("--edits", type=int, default=1000)
    ap.add_argument("--hovers", type=int, default=200)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "server")
    args = ap.parse_args()

    path, text = make_run(args.n, args.out)
    uri = path.resolve().as_uri()

    # reference: the CLI's engine checking the same text, cold, in this process
    from citelens.check import Checker
    from citelens.specs import get_spec

    t = time.perf_counter()
    ref = Checker(get_spec("rag25")).check_text(text, str(path))
    cli_s = time.perf_counter() - t

    env = installed_like()
    first_start_s = time_initialize(args.out, env)  # writes the start-up cache
    starts = [time_initialize(args.out, env) for _ in range(5)]

    client = Client([sys.executable, "-m", "citelens_server"], args.out, env)
    at, init = client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": args.out.resolve().as_uri(),
            "capabilities": {},
            "initializationOptions": {"debounceMs": 0},
        },
    )
    init_s = at - client.started
    client.notify("initialized", {})

    def diagnostics_of(version: int) -> tuple[float, dict]:
        return client.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == version
            )
        )

    t = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "jsonl", "version": 1, "text": text}},
    )
    at, first = diagnostics_of(1)
    open_s = at - t
    count = len(first["params"]["diagnostics"])
    rss_first = client.rss_kb()

    # one-character edits inside sentence texts (kept balanced: insert, then delete)
    rng = random.Random(5)
    lines = text.split("\n")
    targets = [
        (i, m.start() + 9) for i, line in enumerate(lines[:50]) for m in re.finditer(r'"text": "', line)
    ]
    edit_s = []
    version = 1
    for k in range(args.edits):
        line, ch = rng.choice(targets)
        version += 1
        if k % 2 == 0:
            change = {
                "range": {"start": {"line": line, "character": ch}, "end": {"line": line, "character": ch}},
                "text": "x",
            }
            last = (line, ch)
        else:
            line, ch = last
            change = {
                "range": {
                    "start": {"line": line, "character": ch},
                    "end": {"line": line, "character": ch + 1},
                },
                "text": "",
            }
        t = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        at, _ = diagnostics_of(version)
        edit_s.append(at - t)
    rss_after = client.rss_kb()

    # hovers on a citation of the first citing report (its documents are embedded)
    cited = next(i for i, line in enumerate(lines) if re.search(r'"citations": [\[{](\d|")', line))
    m = re.search(r'"citations": [\[{](\d|")', lines[cited])
    hover_s = []
    if m:
        for _ in range(args.hovers):
            t = time.perf_counter()
            at, res = client.request(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": cited, "character": m.start(1)}},
            )
            hover_s.append(at - t)
        assert res.get("result"), "no hover on a citation"
    client.close()

    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    print(
        f"run: {args.n} reports, {len(text.encode()) / 1e6:.2f} MB, {count} diagnostics (engine: {len(ref.findings)} findings)"
    )
    print(f"reference: in-process Checker.check_text, cold: {ms(cli_s)}")
    print(
        f"initialize answered {ms(init_s)} after process start (target < 500 ms); "
        f"5 more starts: median {ms(statistics.median(starts))}; the first start ever "
        f"(no start-up cache yet): {ms(first_start_s)}"
    )
    print(
        f"didOpen -> publishDiagnostics: {ms(open_s)} = {open_s / cli_s:.2f}x the reference (target < 300 ms)"
    )
    print(
        f"one-char edit -> diagnostics ({args.edits} edits): median {ms(statistics.median(edit_s))}, p95 {ms(pct(edit_s, 95))} (target < 30 ms)"
    )
    if hover_s:
        print(
            f"hover on a citation ({len(hover_s)}): first {ms(hover_s[0])}, median {ms(statistics.median(hover_s))}, p95 {ms(pct(hover_s, 95))} (target p95 < 50 ms)"
        )
    print(
        f"RSS after first check {rss_first / 1024:.1f} MB, after {args.edits} edits {rss_after / 1024:.1f} MB = {rss_after / rss_first:.2f}x (target <= 1.5x)"
    )


if __name__ == "__main__":
    main()
