"""One HTTP GET for a document service, with the rules that keep a token where it belongs.

A bearer token is only sent over https, or to a loopback address (a service on this
machine, as in tests and for a local Anserini); it is never carried across a redirect to
another host or port, nor from https down to http (urllib would keep the header). The
body is read in chunks up to a cap, so one huge answer cannot fill the memory.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
import urllib.request
from http.client import HTTPMessage
from typing import IO, Any

#: default cap on one answer's body (configurable per source with `;max_mb=N`)
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
_CHUNK = 1 << 20


class BodyTooLarge(Exception):
    """The answer is larger than the cap; nothing of it is kept."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the answer is larger than {limit / 1e6:g} MB (raise the limit with ;max_mb=N)")


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def token_refusal(url: str) -> str | None:
    """Why a token may not be sent to `url` (None: it may)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and is_loopback(parts.hostname)):
        return None
    return (
        f"the token is not sent to {parts.scheme}://{parts.netloc}: a token only goes over https, "
        "or to this machine (localhost, 127.0.0.1, ::1)"
    )


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port


class _KeepTokenHome(urllib.request.HTTPRedirectHandler):
    """Follow a redirect, dropping the Authorization header when it leaves the origin
    (another scheme, host or port) or leads where a token may not go."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is None:
            return None
        if _origin(newurl) != _origin(req.full_url) or token_refusal(newurl) is not None:
            for name in [h for h in new.headers if h.lower() == "authorization"]:
                del new.headers[name]
            for name in [h for h in new.unredirected_hdrs if h.lower() == "authorization"]:
                del new.unredirected_hdrs[name]
        return new


_OPENER = urllib.request.build_opener(_KeepTokenHome())


def get(url: str, headers: dict[str, str], timeout: float, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The body of a GET (HTTPError for a status >= 400, BodyTooLarge over the cap)."""
    request = urllib.request.Request(url, headers=headers)
    response: Any
    with _OPENER.open(request, timeout=timeout) as response:
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise BodyTooLarge(max_bytes)
        chunks, total = [], 0
        while chunk := response.read(min(_CHUNK, max_bytes + 1 - total)):
            total += len(chunk)
            if total > max_bytes:
                raise BodyTooLarge(max_bytes)
            chunks.append(chunk)
        return b"".join(chunks)
