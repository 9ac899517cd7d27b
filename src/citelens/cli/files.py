"""Writing files without ever leaving a half-written one behind (see `citelens.files`)."""

from __future__ import annotations

from citelens.files import write_file as write_atomic

__all__ = ["write_atomic"]
