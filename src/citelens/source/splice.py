"""A text with one range replaced, copied once.

`old[:start] + new + old[end:]` copies the text twice: the slices are new strings, and the
join copies them again. An open run is copied like this on every keystroke (26 MB for a
10,000-report run with one character past U+00FF), and the second copy was about a
tenth of a keystroke's time in the server. CPython builds its own strings by making one of the
final size (`PyUnicode_New`) and copying the parts into it (`PyUnicode_CopyCharacters`);
`spliced` calls those two through `ctypes`, a piece of at most `PIECE` characters per
call, so another thread may run between pieces, as with `text_scan.joined`.

A string must be made with the exact widest character it holds (CPython compares the
storage kind first), so the copy is only taken when that is known without a scan: the
text's kind is read off its size, and the new text is as wide or the replaced range holds
no character of that kind (so the rest still does). Otherwise, and on other Pythons or
for short texts, the plain join.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable

from citelens.source.text_scan import PIECE, joined, pieces

#: below this length the join is as fast (two small copies, no foreign calls)
SPLICE_FROM = 1 << 16

Copy = Callable[[int, int, str, int, int], int]


def spliced(old: str, start: int, end: int, new: str) -> str:
    """`old[:start] + new + old[end:]` (0 <= start <= end <= len(old))."""
    size = len(old) - (end - start) + len(new)
    big = len(old) >= SPLICE_FROM and size > 1  # (the empty and one-character strings are shared)
    widest = _result_max(old, start, end, new) if big else None
    if widest is None or _API is None:
        return joined([*pieces(old, 0, start), new, *pieces(old, end, len(old))])
    make, copy, drop = _API
    address = make(size, widest)
    if not address:
        raise MemoryError
    try:
        at = 0
        for part, lo, hi in ((old, 0, start), (new, 0, len(new)), (old, end, len(old))):
            for p in range(lo, hi, PIECE):
                n = min(PIECE, hi - p)
                copy(address, at, part, p, n)
                at += n
        return ctypes.cast(address, ctypes.py_object).value  # type: ignore[no-any-return]
    finally:
        drop(address)  # the reference `make` gave; the returned object holds its own


def _result_max(old: str, start: int, end: int, new: str) -> int | None:
    """The widest character the result can be made for, or None when unknown."""
    kind = _kind_max(old)
    if kind is None:
        return None
    new_kind = _kind_max(new)
    if new_kind is None:
        return None
    if new_kind >= kind:
        return new_kind  # nothing kept is wider
    if _kind_max(old[start:end]) == kind:
        return None  # perhaps the text's only character that wide
    return kind


def _kind_max(text: str) -> int | None:
    """The widest character of `text`'s storage kind, read off its size in memory (a
    string is stored in the narrowest kind that holds its widest character)."""
    if text.isascii():
        return 0x7F
    size = sys.getsizeof(text)
    for kind, (base, per) in _SIZES.items():
        if size == base + per * len(text):
            return kind
    return None


def _sizes() -> dict[int, tuple[int, int]]:
    """Each non-ASCII kind's (empty size, bytes per character), measured on this Python."""
    out = {}
    for kind, char in ((0xFF, "\xe9"), (0xFFFF, "\u0100"), (0x10FFFF, "\U00010000")):
        one, two = sys.getsizeof(char * 10), sys.getsizeof(char * 11)
        out[kind] = (one - 10 * (two - one), two - one)
    return out


def _load() -> tuple[Callable[[int, int], int], Copy, Callable[[int], None]] | None:
    if sys.implementation.name != "cpython":
        return None
    try:
        api = ctypes.pythonapi
        make = api.PyUnicode_New
        copy = api.PyUnicode_CopyCharacters
        drop = api.Py_DecRef
    except AttributeError:
        return None
    make.argtypes, make.restype = [ctypes.c_ssize_t, ctypes.c_uint32], ctypes.c_void_p
    copy.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.py_object, ctypes.c_ssize_t, ctypes.c_ssize_t]
    copy.restype = ctypes.c_ssize_t
    drop.argtypes, drop.restype = [ctypes.c_void_p], None
    return make, copy, drop


_SIZES = _sizes()
_API = _load()
