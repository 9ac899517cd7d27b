"""The language server with a lag probe: which call holds the GIL, and for how long.

    python bench/lag_probe.py LOG [server arguments]   # serves as `python -m citelens_server`

A thread sleeps 5 ms at a time and records how late it wakes. A wake-up late by more
than `LATE_S` means some thread held the GIL (one long C call: a `json.loads`, a
`pickle.loads`, an `os.fork`, a `str.join`) or the machine gave the process no core; the
probe then writes, as one JSON line in LOG, the lateness and every other thread's stack
as it is at that moment (the long call has just returned, so the function that made it
is usually still on the stack). `bench_server.py --lag-probe` starts the server this
way and prints the worst stalls. Not part of the server: the product never runs a probe.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback

#: the probe's sleep, and the lateness worth recording
SLEEP_S = 0.005
LATE_S = 0.03
#: frames kept per thread (innermost last)
FRAMES = 12


def probe(log_path: str, stop: threading.Event) -> None:
    me = threading.get_ident()
    with open(log_path, "w", encoding="utf-8") as log:
        while not stop.is_set():
            before = time.monotonic()
            cpu = time.process_time()
            time.sleep(SLEEP_S)
            late = time.monotonic() - before - SLEEP_S
            if late < LATE_S:
                continue
            names = {t.ident: t.name for t in threading.enumerate()}
            stacks = {
                names.get(ident, str(ident)): [
                    f"{os.path.basename(f.filename)}:{f.lineno} {f.name}"
                    for f in traceback.extract_stack(frame)[-FRAMES:]
                ]
                for ident, frame in sys._current_frames().items()
                if ident != me
            }
            record = {
                "at": before,
                "late_ms": round(late * 1000, 1),
                # the process's CPU during the wait: near the lateness, a thread of ours
                # ran (held the GIL); near zero, the machine gave us no core
                "cpu_ms": round((time.process_time() - cpu) * 1000, 1),
                "stacks": stacks,
            }
            log.write(json.dumps(record) + "\n")
            log.flush()


def main() -> int:
    log_path, *argv = sys.argv[1:]
    stop = threading.Event()
    threading.Thread(target=probe, args=(log_path, stop), name="lag-probe", daemon=True).start()
    from citelens_server.__main__ import main as serve

    try:
        return serve(argv)
    finally:
        stop.set()


if __name__ == "__main__":
    sys.exit(main())
