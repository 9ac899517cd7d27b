"""The one error of the support judges that stops a check: a judge that cannot be used
(not set up, a prompt that cannot be read, an endpoint that refuses every request)."""

from __future__ import annotations


class JudgeError(ValueError):
    """A support judge that cannot be used; the message says why (never the API key)."""
