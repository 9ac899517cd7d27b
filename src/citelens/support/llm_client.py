"""A small client for OpenAI-compatible chat-completions endpoints (vLLM, Ollama,
llama.cpp's server, hosted APIs): one user message in, the first choice's text out, with
timeouts, retries with exponential backoff (and the server's Retry-After), and
cancellation. Standard library only (urllib), so the `llm` extra adds nothing to install.

The API key is read from an environment variable whose *name* the user's own settings
give (`api_key_from`): a project's files never choose it. The key is sent only in the
Authorization header and never appears in a message, a log line or a cache key."""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from citelens.support.errors import JudgeError

__all__ = ["CallFailed", "Cancelled", "ChatClient", "JudgeError", "api_key_from"]

#: HTTP statuses worth trying again: rate limits and a server that is busy or restarting
RETRY_STATUSES = frozenset((408, 409, 425, 429, 500, 502, 503, 504))
#: the most a Retry-After header may make us wait, in seconds
MAX_RETRY_AFTER = 60.0


class Cancelled(Exception):
    """The judging was cancelled (the user, or the editor, asked to stop)."""


class CallFailed(Exception):
    """One call failed after every retry (the run goes on; the pair stays unjudged)."""


def api_key_from(env_var: str | None) -> str | None:
    """The API key from the environment variable named `env_var` (a name resolved from
    the user's settings; None: no key is sent). The value is never printed."""
    if not env_var:
        return None
    value = os.environ.get(env_var)
    if not value:
        raise JudgeError(f"the environment variable {env_var} that should hold the API key is not set")
    return value


@dataclass
class ChatClient:
    """`complete(prompt)` against `{endpoint}/chat/completions`."""

    endpoint: str  # the API base, e.g. http://localhost:8000/v1
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 1.0  # seconds before the first retry; doubled each time
    cancel: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        if not self.endpoint.startswith(("http://", "https://")):
            raise JudgeError(f"the judge endpoint must be an http(s) URL, not {self.endpoint!r}")
        self.url = self.endpoint.rstrip("/") + "/chat/completions"

    def body(self, prompt: str, temperature: float, n: int = 1) -> dict[str, Any]:
        """The request body: the whole prompt as one user message."""
        return {
            "model": self.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": temperature,
            "n": n,
        }

    def complete(self, prompt: str, temperature: float, n: int = 1) -> str:
        """The text of the first choice ("" when the endpoint refuses this one request,
        as the organizers' script counts a refused prompt). Raises Cancelled, CallFailed
        (after the retries) or JudgeError (the endpoint cannot serve any request)."""
        data = json.dumps(self.body(prompt, temperature, n)).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        problem = ""
        for attempt in range(self.retries + 1):
            if self.cancel.is_set():
                raise Cancelled
            wait = self.backoff * (2**attempt)
            try:
                request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return _content(json.loads(response.read().decode("utf-8")))
            except urllib.error.HTTPError as exc:
                status = exc.code
                if status in (401, 403):
                    raise JudgeError(f"{self.url} refused the API key (HTTP {status})") from None
                if status == 404:
                    raise JudgeError(
                        f"{self.url}: no such endpoint or model {self.model!r} (HTTP 404)"
                    ) from None
                if status not in RETRY_STATUSES:
                    return ""  # this prompt is refused (too long, filtered): no label
                problem = f"HTTP {status}"
                wait = max(wait, _retry_after(exc.headers.get("Retry-After")))
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                reason = getattr(exc, "reason", exc)
                problem = f"{type(reason).__name__}: {reason}" if str(reason) else type(reason).__name__
            except (ValueError, KeyError, IndexError, TypeError):
                problem = "an answer that is not a chat completion"
            if attempt < self.retries and self.cancel.wait(wait):
                raise Cancelled
        raise CallFailed(f"{self.url}: {problem} after {self.retries + 1} tries")


def _content(data: Any) -> str:
    content = data["choices"][0]["message"]["content"]
    return content if isinstance(content, str) else ""


def _retry_after(value: str | None) -> float:
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER) if value else 0.0
    except ValueError:
        return 0.0  # an HTTP date: the exponential wait serves
