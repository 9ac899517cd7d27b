"""The server, with a check that raises for any file whose name holds `boom`: an internal
error the never-stuck tests can cause on purpose (`python -m tests.helpers.faulty_server`)."""

from __future__ import annotations

import sys

from citelens.check.result import FileResult
from citelens.session.open_document import OpenDocument

_result = OpenDocument.result.fget
assert _result is not None


def _failing(self: OpenDocument) -> FileResult:
    if "boom" in self.uri:
        raise RuntimeError("the check broke")
    return _result(self)


OpenDocument.result = property(_failing)  # type: ignore[assignment,method-assign]

if __name__ == "__main__":
    from citelens_server.__main__ import main

    sys.exit(main())
