"""`citelens trust [PATH]`: let one project file name document services and tokens.

PATH is a `citelens.toml` or `pyproject.toml`, or a folder (its nearest project file is
meant, as `check` would find it); by default the current folder. The file is trusted with
its current bytes: when it changes, it is untrusted again and `trust` must be run anew.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citelens.cli import EXIT_OK, EXIT_USAGE


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path", nargs="?", default=".", help="a project file, or a folder (default: the current one)"
    )
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list the trusted project files and their state")
    what.add_argument("--revoke", action="store_true", help="stop trusting the project file")
    what.add_argument("--show", action="store_true", help="show what the file asks for that needs trust")


def _project_file(raw: str) -> Path | str:
    from citelens.config import CONFIG_FILES, find_config

    path = Path(raw).absolute()
    if path.is_dir():
        found = find_config(path)
        return (
            found
            if found is not None
            else f"no citelens.toml or pyproject.toml with [tool.citelens] at or above {path}"
        )
    if path.name not in CONFIG_FILES:
        return f"{path} is not a project file (expected {' or '.join(CONFIG_FILES)})"
    if not path.is_file():
        return f"no file {path}"
    return path


def run(args: argparse.Namespace) -> int:
    from citelens.config import trust

    if args.list:
        records = trust.trusted_files()
        if not records:
            print(f"no trusted project files (the list lives in {trust.trust_store()})")
        for record in records:
            print(f"{record.path}\t{record.state}\t(trusted {record.since})")
        return EXIT_OK
    path = _project_file(args.path)
    if isinstance(path, str):
        print(f"citelens trust: {path}", file=sys.stderr)
        return EXIT_USAGE
    if args.revoke:
        if trust.revoke(path):
            print(f"{path}: no longer trusted")
        else:
            print(f"{path}: was not trusted")
        return EXIT_OK
    asks = _needs_trust(path)
    if isinstance(asks, int):
        return asks
    if args.show:
        print("\n".join(asks) if asks else f"{path}: asks for nothing that needs trust")
        return EXIT_OK
    try:
        record = trust.trust(path)
    except OSError as exc:
        print(f"citelens trust: cannot record the trust: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for line in asks:
        print(f"  {line}")
    print(
        f"{record.path}: trusted as it is now (sha256 {record.sha256[:12]}...); a change to it needs trust again"
    )
    return EXIT_OK


def _needs_trust(path: Path) -> list[str] | int:
    """What the file asks for that needs trust, one line each (an exit code if unreadable)."""
    import tomllib

    from citelens.config import CONFIG_FILES
    from citelens.config.sensitive import why_sensitive

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        print(
            f"citelens trust: {path}: cannot read it as TOML ({type(exc).__name__}); not trusted",
            file=sys.stderr,
        )
        return EXIT_USAGE
    table: object = data
    for part in CONFIG_FILES[path.name]:
        table = table.get(part, {}) if isinstance(table, dict) else {}
    lines = []
    for key, value in table.items() if isinstance(table, dict) else ():
        for entry in value if isinstance(value, list) else [value]:
            if isinstance(entry, str):
                lines += [f"{key}: {entry!r} would {does}" for does in why_sensitive(key, entry)]
    return lines
