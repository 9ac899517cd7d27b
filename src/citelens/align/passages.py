"""Sliding windows of sentences: the passages that answer spans are aligned against."""

from __future__ import annotations


def window_passages(
    segments: list[tuple[int, int]], window: int = 1, stride: int = 1
) -> list[tuple[int, int]]:
    """Character ranges of windows of ``window`` segments, moving ``stride`` segments.

    The last window may be shorter; generation stops once a window reaches the last
    segment. A passage runs from its first segment's start to its last segment's end.
    """
    if not segments:
        return []
    window = max(1, window)
    stride = max(1, stride)
    count = len(segments)
    if window == 1 and stride == 1:
        return list(segments)
    passages: list[tuple[int, int]] = []
    first = 0
    while first < count:
        last = min(count, first + window)
        passages.append((segments[first][0], segments[last - 1][1]))
        if last == count:
            break
        first += stride
    return passages
