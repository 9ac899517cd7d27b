"""The server, with a check that raises for any file whose name holds `boom`: an internal
error the never-stuck tests can cause on purpose (`python -m tests.server.faulty_server`)."""

from __future__ import annotations

import sys
from typing import Any

from citelens.check.engine import Checker

_file_result = Checker.file_result


def _failing(self: Checker, source: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    if "boom" in str(name):
        raise RuntimeError("the check broke")
    return _file_result(self, source, name, *args, **kwargs)


Checker.file_result = _failing  # type: ignore[method-assign]

if __name__ == "__main__":
    from citelens_server.__main__ import main

    sys.exit(main())
