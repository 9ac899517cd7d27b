"""Which project files the user trusts, and what an untrusted one may not do.

`citelens trust [PATH]` records a project file's absolute path and the SHA-256 of its
bytes in the user's config folder; a file whose bytes changed since is untrusted again
(a pull can change what it asks for). Only the values `config.sensitive` lists need trust;
without it they are left out of the settings with one message that says how to trust the
file, and everything else in the file applies as usual.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citelens.config.sensitive import why_sensitive
from citelens.files.snapshot import Snapshot

TRUST_FILE = "trusted-projects.json"
USER_CONFIG = "config.toml"  # the user's own settings: trusted, the weakest layer above the defaults


def user_config_dir() -> Path:
    """`$CITELENS_CONFIG_DIR`, else `$XDG_CONFIG_HOME/citelens`, else `~/.config/citelens`."""
    if explicit := os.environ.get("CITELENS_CONFIG_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "citelens"


def user_config_file() -> Path:
    return user_config_dir() / USER_CONFIG


def trust_store() -> Path:
    return user_config_dir() / TRUST_FILE


@dataclass(frozen=True)
class Trusted:
    """One trusted project file as recorded, and whether it still has those bytes."""

    path: Path
    sha256: str
    since: str  # when it was trusted (UTC, ISO 8601)
    state: str  # "trusted", "changed since" or "missing"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _records() -> dict[str, dict[str, str]]:
    return _read_records()[0]


def _read_records() -> tuple[dict[str, dict[str, str]], Snapshot | None]:
    """The records, and the store as read (None: there is none yet, or it is unreadable)."""
    store = trust_store()
    try:
        data = store.read_bytes()
        read_as = Snapshot.of(store, data)
        raw = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):
        return {}, None  # none yet, or unreadable: nothing is trusted (the safe reading)
    projects = raw.get("projects") if isinstance(raw, dict) else None
    if not isinstance(projects, dict):
        return {}, read_as
    return {
        k: v
        for k, v in projects.items()
        if isinstance(v, dict) and isinstance(v.get("sha256"), str) and isinstance(v.get("since", ""), str)
    }, read_as


def _save(records: Mapping[str, Mapping[str, str]], read_as: Snapshot | None) -> None:
    """Write the store, only onto the one read (another `citelens trust` may have written
    it meanwhile: its record is kept, and this one says to run the command again)."""
    from citelens.files import write_file

    store = trust_store()
    store.parent.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"version": 1, "projects": dict(sorted(records.items()))}, indent=2) + "\n"
    write_file(store, body.encode("utf-8"), unchanged_since=read_as)


def is_trusted(path: Path, data: bytes) -> bool:
    """Was this project file trusted with exactly these bytes?"""
    record = _records().get(str(path.absolute()))
    return record is not None and record["sha256"] == digest(data)


def trust(path: Path) -> Trusted:
    """Trust the project file at `path` as its bytes are now. Raises OSError if unreadable."""
    path = path.absolute()
    data = path.read_bytes()
    records, read_as = _read_records()
    since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    records[str(path)] = {"sha256": digest(data), "since": since}
    _save(records, read_as)
    return Trusted(path, digest(data), since, "trusted")


def revoke(path: Path) -> bool:
    """Stop trusting `path`; False when it was not trusted."""
    records, read_as = _read_records()
    if records.pop(str(path.absolute()), None) is None:
        return False
    _save(records, read_as)
    return True


def trusted_files() -> list[Trusted]:
    out = []
    for name, record in sorted(_records().items()):
        path = Path(name)
        try:
            state = "trusted" if digest(path.read_bytes()) == record["sha256"] else "changed since"
        except OSError:
            state = "missing"
        out.append(Trusted(path, record["sha256"], record.get("since", ""), state))
    return out


def withhold_untrusted(raw: Mapping[str, Any], path: Path) -> tuple[dict[str, Any], str | None]:
    """The settings of the project file at `path` without the values that need trust
    (when the file is not trusted), and the one message naming what was left out. The
    user's own config file is theirs: it needs no trust."""
    if path.absolute() == user_config_file().absolute():
        return dict(raw), None
    found: list[tuple[str, Any, list[str]]] = []  # (key, a string or a table, what it would do)
    for key, value in raw.items():
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            if isinstance(entry, str | Mapping) and (does := why_sensitive(key, entry)):
                found.append((key, entry, does))
    if not found:
        return dict(raw), None
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    if data and is_trusted(path, data):
        return dict(raw), None
    kept = dict(raw)
    for key, entry, _ in found:
        kept[key] = [v for v in kept[key] if v != entry] if isinstance(kept[key], list) else None
    # a list left empty is dropped, so that the user's own value of it applies
    kept = {k: v for k, v in kept.items() if v is not None and v != []}
    what = sorted({d for _, _, does in found for d in does})
    listed = "; ".join(f"{key}: {_shown(entry)}" for key, entry, _ in found)
    changed = str(path.absolute()) in _records()
    message = (
        f"{path}: ignored {len(found)} setting value(s) that would {' and '.join(what)} "
        f"({listed}), because this project file is "
        + ("not trusted since it changed" if changed else "not trusted")
        + f". If you trust it, run: citelens trust {_quoted(path)}  (see docs/security.md)"
    )
    return kept, message


def _shown(entry: Any) -> str:
    """An entry for a message: its location (a table: its keys and values), cut short, printable."""
    if isinstance(entry, Mapping):
        entry = ", ".join(f"{k}={v}" for k, v in entry.items())
    text = "".join(c if c.isprintable() else "?" for c in entry.strip())
    return repr(text if len(text) <= 120 else text[:117] + "...")


def _quoted(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))
