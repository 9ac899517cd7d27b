"""From source strings (settings `corpora`, `--docs`) to one chain of document sources.

A source string is a location, optionally followed by `;key=value` options:

    corpus.jsonl.gz;id=docno;text=contents    a corpus file or folder, fields named
    index:/path/to/index.sqlite               an index built by `citelens index --db`
    irds:neuclir/1/zh                         an ir_datasets dataset already on disk
    https://host/v1/INDEX;token_env=VAR       an Anserini REST service (token from $VAR)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from citelens.corpus.local_sources import BrokenSource, CorpusFileSource, IndexSource
from citelens.corpus.source import DocumentSource, SourceChain

#: options each kind of source takes
FIELD_OPTIONS = ("id", "text", "title", "url")
SERVICE_OPTIONS = ("token_env", "timeout", "retries", "concurrency", "cache", "encode", "max_mb")
#: the numeric options of a service: (type, default, lowest, highest); a value outside is
#: refused with the range, not clamped (`retries=2000` was a typo, not a wish)
SERVICE_RANGES: dict[str, tuple[type, float, float, float]] = {
    "timeout": (float, 10.0, 0.1, 600.0),
    "retries": (int, 2, 0, 10),
    "concurrency": (int, 8, 1, 64),
    "max_mb": (float, 64.0, 0.001, 4096.0),
}


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The location and the `;key=value` options of a source string."""
    location, *rest = spec.strip().split(";")
    options: dict[str, str] = {}
    for part in rest:
        key, sep, value = part.partition("=")
        options[key.strip()] = value.strip() if sep else ""
    return location.strip(), options


def _unknown(options: dict[str, str], known: Sequence[str]) -> str | None:
    extra = [k for k in options if k not in known]
    if extra:
        return f"unknown option {extra[0]!r} (this source takes: {', '.join(known) or 'none'})"
    return None


def _numbers(options: dict[str, str]) -> dict[str, float] | str:
    """The numeric service options, each checked against its range (or why one is bad)."""
    out: dict[str, float] = {}
    for name, (kind, default, low, high) in SERVICE_RANGES.items():
        raw = options.get(name)
        if raw is None:
            out[name] = default
            continue
        whole = "a whole number" if kind is int else "a number"
        try:
            value = kind(raw)
        except ValueError:
            return f"option {name}={raw!r} must be {whole} from {low:g} to {high:g}"
        if not low <= value <= high:  # also refuses nan and inf
            return f"option {name}={raw!r} is out of range: it must be {whole} from {low:g} to {high:g}"
        out[name] = value
    return out


def option_problem(spec: str) -> str | None:
    """Why the options of a service source string cannot be used (None: they can, or it
    is no service), so that settings name a bad value before any check runs."""
    location, options = split_spec(spec)
    if not location.startswith(("http://", "https://")):
        return None
    if problem := _unknown(options, SERVICE_OPTIONS):
        return problem
    numbers = _numbers(options)
    return numbers if isinstance(numbers, str) else None


def open_source(spec: str, base_dir: Path | None = None) -> DocumentSource:
    """One source string as a source; a string that cannot be used becomes a source that says why."""
    location, options = split_spec(spec)
    if not location:
        return BrokenSource(spec or "(empty)", "an empty document source")
    if location.startswith(("http://", "https://")):
        from citelens.corpus.rest_source import SERVICE_URL, RestSource, ServiceOptions

        if problem := _unknown(options, SERVICE_OPTIONS):
            return BrokenSource(location, problem)
        if not SERVICE_URL.match(location):
            return BrokenSource(location, "a service address must look like http(s)://HOST/v1/INDEX")
        numbers = _numbers(options)
        if isinstance(numbers, str):
            return BrokenSource(location, numbers)
        service = ServiceOptions(
            timeout=float(numbers["timeout"]),
            retries=int(numbers["retries"]),
            concurrency=int(numbers["concurrency"]),
            cache=options.get("cache", "on").lower() not in ("off", "no", "false", "0"),
            encode_twice=options.get("encode", "anserini").lower() != "once",
            max_bytes=int(numbers["max_mb"] * 1024 * 1024),
        )
        return RestSource(location, token_env=options.get("token_env") or None, options=service)
    if location.startswith("irds:"):
        from citelens.corpus.irds_source import IrdsSource

        if problem := _unknown(options, ()):
            return BrokenSource(location, problem)
        return IrdsSource(location.removeprefix("irds:"))
    explicit_index = location.startswith("index:")
    path = Path(location.removeprefix("index:")).expanduser()
    if base_dir is not None and not path.is_absolute():
        path = base_dir / path
    if explicit_index:
        return IndexSource(path)
    if problem := _unknown(options, FIELD_OPTIONS):
        return BrokenSource(location, problem)
    if not path.exists():
        return BrokenSource(str(path), "no such file or folder")
    from citelens.corpus.index_store import is_index_file

    if path.is_file() and is_index_file(path):
        return IndexSource(path)
    return CorpusFileSource(path, options)


def open_sources(specs: Sequence[str], base_dir: Path | None = None) -> SourceChain:
    """The configured sources, in order, as one chain (relative paths are taken from `base_dir`)."""
    return SourceChain([open_source(spec, base_dir) for spec in specs])
