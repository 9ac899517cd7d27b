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
SERVICE_OPTIONS = ("token_env", "timeout", "retries", "concurrency", "cache", "encode")


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
        try:
            service = ServiceOptions(
                timeout=float(options.get("timeout", 10)),
                retries=int(options.get("retries", 2)),
                concurrency=int(options.get("concurrency", 8)),
                cache=options.get("cache", "on").lower() not in ("off", "no", "false", "0"),
                encode_twice=options.get("encode", "anserini").lower() != "once",
            )
        except ValueError as exc:
            return BrokenSource(location, f"a bad option value ({exc})")
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
