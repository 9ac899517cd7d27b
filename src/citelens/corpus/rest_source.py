"""An Anserini/Pyserini REST service: `http(s)://HOST/v1/INDEX`, documents at `/v1/INDEX/doc/DOCID`.

The same interface serves a team's own Anserini `RestServer` and the organizers' hosted
ClimbMix API (bearer token from an environment variable; the token is never written
anywhere). Ids are percent-encoded (a raw `#` would start a URL fragment and the server
would answer with an MS MARCO parent document). Lookups run concurrently with timeouts and
retries with backoff; answers are cached on disk. When the service cannot be reached, the
remaining ids are unanswered at once instead of each waiting for its own timeout.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import logging
import os
import re
import sqlite3
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from citelens.corpus.cache_dir import service_cache_path
from citelens.corpus.corpus_document import CorpusDocument, Lookup
from citelens.corpus.fetched_cache import FetchedCache
from citelens.corpus.http_fetch import DEFAULT_MAX_BYTES, BodyTooLarge, get, token_refusal
from citelens.corpus.shapes import shapes
from citelens.files.cache_file import is_damaged, move_aside, why_unusable

_log = logging.getLogger(__name__)

SERVICE_URL = re.compile(r"^https?://[^/?#]+(/[^?#]*)?/v1/[^/?#]+/?$")
#: HTTP statuses worth asking again after a pause
_RETRY_STATUS = {429, 500, 502, 503, 504}


@dataclass(frozen=True)
class ServiceOptions:
    timeout: float = 10.0  # seconds per request
    retries: int = 2  # further attempts after a failed one
    backoff: float = 0.25  # first pause; doubles each retry
    concurrency: int = 8
    cache: bool = True
    encode_twice: bool = True  # see RestSource.doc_url
    max_bytes: int = DEFAULT_MAX_BYTES  # the largest answer read (`;max_mb=N`)


class _Answer:
    __slots__ = ("body", "found", "problem", "unreachable")

    def __init__(
        self, found: bool = False, body: Any = None, problem: str | None = None, unreachable: bool = False
    ) -> None:
        self.found, self.body, self.problem, self.unreachable = found, body, problem, unreachable


def _text_fields() -> list[str]:
    """Fields that hold a document's text, in the order of the shape table."""
    return list(dict.fromkeys(s.fields.text for s in shapes()))


def service_document(doc_id: str, doc: Any, origin: str) -> CorpusDocument:
    """The `doc` of a service answer (a string, or an object with the collection's fields)."""
    if isinstance(doc, str) and doc.startswith("{"):
        try:
            parsed = json.loads(doc)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            doc = parsed
    if isinstance(doc, dict):
        text = next((doc[f] for f in _text_fields() if isinstance(doc.get(f), str)), "")
        title = doc.get("title") if isinstance(doc.get("title"), str) else None
        url = doc.get("url") if isinstance(doc.get("url"), str) else None
        return CorpusDocument(doc_id, text, title or None, url, origin, fields=doc)
    return CorpusDocument(doc_id, "" if doc is None else str(doc), origin=origin)


class RestSource:
    """Documents from an Anserini-style REST service (see the module docstring)."""

    def __init__(
        self, base_url: str, *, token_env: str | None = None, options: ServiceOptions | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token_env = token_env
        self.options = options or ServiceOptions()
        self._cache: FetchedCache | None = None
        self._down_reason = "the service could not be reached"

    def describe(self) -> str:
        token = f" (token from ${self.token_env})" if self.token_env else ""
        return f"service {self.base_url}{token}"

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    def doc_url(self, doc_id: str) -> str:
        """The document's address, the id percent-encoded.

        Anserini's RestServer decodes the path twice (measured with 1.7.1), so an id holding
        `%` is encoded twice for it; every other id reads the same under one or two decodings.
        (A `+` reaches that server as a space however it is encoded.) `;encode=once` is for a
        service that decodes once.
        """
        encoded = urllib.parse.quote(doc_id, safe="")
        if self.options.encode_twice and "%" in doc_id:
            encoded = urllib.parse.quote(encoded, safe="")
        return f"{self.base_url}/doc/{encoded}"

    def _headers(self) -> dict[str, str] | str:
        headers = {"Accept": "application/json", "User-Agent": "citelens"}
        if self.token_env:
            if refusal := token_refusal(self.base_url):
                return refusal
            token = os.environ.get(self.token_env)
            if not token:
                return f"the token variable ${self.token_env} is not set"
            headers["Authorization"] = f"Bearer {token}"
        return headers

    def _fetch(self, doc_id: str, headers: dict[str, str], down: threading.Event, deadline: float) -> _Answer:
        url = self.doc_url(doc_id)
        pause = self.options.backoff
        problem = "no answer"
        for attempt in range(self.options.retries + 1):
            if down.is_set():
                return _Answer(problem=self._down_reason, unreachable=True)
            left = deadline - time.monotonic()
            if left <= 0:
                return _Answer(problem=f"no answer within {self.options.timeout:g} s")
            try:
                body = get(url, headers, min(self.options.timeout, left), self.options.max_bytes)
                payload = json.loads(body.decode("utf-8"))
                _log.debug("GET %s -> 200", url)
                if not isinstance(payload, dict):
                    return _Answer(problem="the service answered something that is not a JSON object")
                returned = payload.get("docid")
                if returned is not None and str(returned) != doc_id:
                    _log.debug("GET %s answered another document (%s)", url, returned)
                    return _Answer(found=False)  # not the document asked for
                return _Answer(found=True, body=payload.get("doc"))
            except BodyTooLarge as exc:
                return _Answer(problem=str(exc))
            except urllib.error.HTTPError as exc:
                _log.debug("GET %s -> %s", url, exc.code)
                if exc.code == 404:
                    return _Answer(found=False)
                if exc.code in (401, 403):
                    why = (
                        f"the service refused the token (HTTP {exc.code})"
                        if self.token_env
                        else (
                            f"the service wants a token (HTTP {exc.code}); name its variable with ;token_env=NAME"
                        )
                    )
                    return _Answer(problem=why)
                problem = f"HTTP {exc.code} from the service"
                if exc.code not in _RETRY_STATUS:
                    return _Answer(problem=problem)
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                problem = f"cannot reach {self.base_url} ({reason})"
                _log.debug("GET %s failed: %s", url, reason)
                if attempt == self.options.retries:
                    self._down_reason = problem
                    down.set()
                    return _Answer(problem=problem, unreachable=True)
            except ValueError:
                return _Answer(problem="the service answered something that is not JSON")
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause *= 2
        return _Answer(problem=problem)

    def _cache_store(self) -> FetchedCache | None:
        if not self.options.cache:
            return None
        if self._cache is None:
            path = service_cache_path(self.base_url)
            try:
                self._cache = FetchedCache(path)
            except (sqlite3.Error, OSError) as exc:  # an unusable cache must not stop lookups
                aside = move_aside(path) if is_damaged(exc) else None
                if aside is not None:
                    _log.warning("the fetched-documents cache %s was damaged; moved to %s", path, aside.name)
                    return self._cache_store()
                self._drop_cache(exc)
                return None
        return self._cache

    def _drop_cache(self, exc: BaseException) -> None:
        """Go on without the disk cache, and say so once."""
        _log.warning(
            "the fetched-documents cache of %s %s; fetching without it", self.base_url, why_unusable(exc)
        )
        if self._cache is not None:
            with contextlib.suppress(sqlite3.Error):
                self._cache.close()
            self._cache = None
        self.options = ServiceOptions(**{**self.options.__dict__, "cache": False})

    def get_many(self, ids: Iterable[str]) -> Lookup:
        wanted = list(dict.fromkeys(ids))
        out = Lookup()
        cache = self._cache_store()
        try:
            cached = cache.get_many(wanted) if cache is not None else {}
        except sqlite3.Error as exc:
            self._drop_cache(exc)
            cache, cached = None, {}
        for doc_id, (found, body) in cached.items():
            out.documents[doc_id] = service_document(doc_id, body, self.base_url) if found else None
        todo = [i for i in wanted if i not in cached]
        if not todo:
            return out
        headers = self._headers()
        if isinstance(headers, str):
            out.unanswered.update(dict.fromkeys(todo, headers))
            return out
        down = threading.Event()
        opts = self.options
        budget = opts.timeout * (opts.retries + 1) + opts.backoff * (2 ** (opts.retries + 1))
        deadline = time.monotonic() + budget
        answers: dict[str, _Answer] = {}
        pool = cf.ThreadPoolExecutor(max_workers=max(1, min(opts.concurrency, len(todo))))
        try:
            futures = {pool.submit(self._fetch, i, headers, down, deadline): i for i in todo}
            done, _ = cf.wait(futures, timeout=budget + 1.0)
            for future in done:
                answers[futures[future]] = future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        fresh: dict[str, tuple[bool, Any]] = {}
        for doc_id in todo:
            answer = answers.get(doc_id)
            if answer is None:
                out.unanswered[doc_id] = f"no answer within {budget:g} s"
            elif answer.problem is not None:
                out.unanswered[doc_id] = answer.problem
            elif answer.found:
                out.documents[doc_id] = service_document(doc_id, answer.body, self.base_url)
                fresh[doc_id] = (True, answer.body)
            else:
                out.documents[doc_id] = None
                fresh[doc_id] = (False, None)
        if cache is not None:
            try:
                cache.put_many(fresh)
            except sqlite3.Error as exc:
                self._drop_cache(exc)
        return out
