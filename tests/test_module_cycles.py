"""No module imports itself round: no import cycle in the engine or the server, and none
added to the type-only imports. Every import counts (module level and inside a
function: a local import hides a cycle, it does not remove it); imports under
`TYPE_CHECKING` never run, so they are counted apart. The last tests show the check
failing on a synthetic package and on a copy of the engine with one cycle added."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers.import_graph import cycles, import_graph

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "src" / "citelens"
SERVER = ROOT / "server" / "citelens_server"
#: modules on a cycle once the type-only imports count too (annotations of each other's
#: classes: check's rules and views, session and workspace, models' report and checks,
#: the server's runtime); lower a figure when a cycle goes, never raise it
TYPE_ONLY_CYCLE_MODULES = {"citelens": 29, "citelens_server": 6}


def test_the_engine_and_the_server_have_no_import_cycle() -> None:
    assert cycles(import_graph(ENGINE)) == []
    assert cycles(import_graph(SERVER)) == []


def test_type_only_imports_add_no_new_cycle() -> None:
    for root in (ENGINE, SERVER):
        found = cycles(import_graph(root, type_checking=True))
        assert sum(map(len, found)) <= TYPE_ONLY_CYCLE_MODULES[root.name], found


def _package(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "pkg"
    pkg.mkdir()
    for name, text in {"__init__.py": "", **files}.items():
        (pkg / name).write_text(text, encoding="utf-8")
    return pkg


def test_a_cycle_behind_a_local_import_is_found_and_a_type_only_one_is_counted_apart(tmp_path: Path) -> None:
    pkg = _package(
        tmp_path,
        {
            "a.py": "from pkg import b\n",
            "b.py": "def later():\n    from pkg.a import x  # the usual hiding place\n",
            "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import D\n",
            "d.py": "from . import c\n",
            "e.py": "import pkg.a\n",  # imports into a cycle, is on none
        },
    )
    assert cycles(import_graph(pkg)) == [["pkg.a", "pkg.b"]]
    assert cycles(import_graph(pkg, type_checking=True)) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"]]


def test_a_cycle_added_to_the_engine_fails_the_check(tmp_path: Path) -> None:
    copy = tmp_path / "citelens"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    rule = copy / "check" / "rule.py"  # the rule model reads the catalog, which reads the registry
    rule.write_text(
        rule.read_text(encoding="utf-8")
        + "\n\ndef _summary(code):\n    from citelens.check.catalog import summary\n",
        encoding="utf-8",
    )
    (found,) = cycles(import_graph(copy))
    assert {"citelens.check.rule", "citelens.check.catalog", "citelens.check.registry"} <= set(found)
