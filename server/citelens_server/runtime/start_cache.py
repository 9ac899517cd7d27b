"""Compiled code for the classes of `lsprotocol.types`, kept between server starts.

Importing `lsprotocol.types` defines about 570 attrs classes, and attrs writes the source
of every class's `__init__`, `__eq__`, ... and compiles it: about a third of the time from
process start to the `initialize` answer. That source is the same on every start with the
same attrs and lsprotocol, so the compiled code objects are kept in the user's cache
(`marshal`, one file per Python version, written atomically when a start compiled something
new) and evaluated instead of compiling again. They are looked up by their exact source and
file name, and code compiled from the same source is the same code: an upgraded attrs or
lsprotocol only misses, it can never get stale code. With an attrs that has no
`_compile_and_eval` to wrap, or an unreadable cache, attrs compiles as it always does.
"""

from __future__ import annotations

import logging
import marshal
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger("citelens_server")

CompileAndEval = Callable[..., None]
# A few classes (frozen ones with a generated `__hash__`) have a per-process hash seed in
# their source, so they miss on every start; rewriting 2 MB for them would be waste.
WORTH_WRITING = 10


class StartCache:
    """Wraps attrs' compile step with a cache of code objects keyed by (file name, source)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.misses = 0
        self._code: dict[str, Any] = {}
        self._used: dict[str, Any] = {}
        self._original: CompileAndEval | None = None

    def install(self) -> bool:
        """Start serving attrs' compilations from the cache (before lsprotocol is imported)."""
        try:
            import attr._make as make
        except ImportError:
            return False
        original = getattr(make, "_compile_and_eval", None)
        if original is None:
            return False
        try:
            with self.path.open("rb") as f:
                loaded = marshal.load(f)
            if isinstance(loaded, dict):
                self._code = loaded
        except (OSError, EOFError, ValueError, TypeError):
            self._code = {}  # absent or from another interpreter: compile, then write it anew
        code, used = self._code, self._used

        def compile_and_eval(
            script: str,
            globs: dict[str, Any] | None,
            locs: Mapping[str, object] | None = None,
            filename: str = "",
        ) -> None:
            key = f"{filename}\0{script}"
            compiled = code.get(key)
            if compiled is None:
                self.misses += 1
                compiled = code[key] = compile(script, filename, "exec")
            used[key] = compiled
            eval(compiled, globs, locs)

        self._original = original
        make._compile_and_eval = compile_and_eval
        return True

    def uninstall(self) -> None:
        """Give attrs its own compile step back (classes built later are not worth caching)."""
        if self._original is not None:
            import attr._make as make

            make._compile_and_eval = self._original
            self._original = None

    def save(self) -> None:
        """Write the code this start used, when it had to compile much of it (so entries of
        an older attrs or lsprotocol drop out instead of piling up)."""
        if self.misses < WORTH_WRITING:
            return
        from citelens.files import FileError, write_file

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_file(self.path, marshal.dumps(self._used))
        except (FileError, OSError, ValueError) as exc:
            log.info("start-up cache not written (%s)", exc)


def server_cache_dir() -> Path:
    """The server's folder of the user's cache (this cache, early_answer.py's)."""
    from citelens.files.user_cache import cache_root

    return cache_root() / "server"


def default_path() -> Path:
    """One file per Python version (code objects are only valid for the one that made them)."""
    return server_cache_dir() / f"lsprotocol-{sys.implementation.cache_tag}.marshal"
