"""Dependencies inside the engine point down only: each package of `citelens` imports
only packages of lower layers. Every import counts: module-level, function-local (the
usual way to hide a cycle), under `TYPE_CHECKING`, relative, and `import_module("...")`
with a literal name. The last test shows the check failing on a forbidden edge."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "src" / "citelens"

#: bottom first; a package may import any package of a lower layer, none of its own or a
#: higher one. A new package gets a layer here (the test names any that has none).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"source", "files"}),  # text, positions, JSON nodes with spans, Edit/Fix; file I/O
    frozenset({"check"}),  # the rules (one unit per code), TrackSpec, the engine
    frozenset({"specs", "topics"}),  # built-in and user specs; topic files
    frozenset({"config", "models"}),  # citelens.toml; the seed models (verify, convert)
    frozenset({"convert", "fixes", "corpus"}),  # conversion as values/edits; the fix loop; sources
    frozenset({"align"}),
    frozenset({"support"}),
    frozenset({"session"}),  # what an editor holds
    frozenset({"overview"}),  # a run at a glance: the overview page's data and HTML
    frozenset({"cli"}),
)
RANK = {package: n for n, layer in enumerate(LAYERS) for package in layer}
TOP = len(LAYERS)  # citelens/__init__.py and __main__.py sit above every package
NEVER = ("citelens_server", "pygls", "lsprotocol")  # the engine knows nothing of the editor


def _imported(tree: ast.AST, module: str, is_package: bool) -> list[tuple[str, int]]:
    """(absolute module name, line) of every import in the tree, wherever it sits."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                base = parts if is_package else parts[:-1]
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((name, node.lineno))
            if name == "citelens":  # `from citelens import check`
                found += [(f"citelens.{alias.name}", node.lineno) for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.args[0].value, node.lineno))
    return found


def layer_violations(root: Path) -> list[str]:
    """Every import in the package at `root` that points sideways or up, as `file:line: why`."""
    problems: list[str] = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        module = ".".join(("citelens", *relative.with_suffix("").parts))
        is_package = path.name == "__init__.py"
        if is_package:
            module = module.removesuffix(".__init__")
        own = relative.parts[0] if len(relative.parts) > 1 else None
        if own is not None and own not in RANK:
            problems.append(f"{relative}: package {own!r} has no layer in tests/test_package_layers.py")
            continue
        own_rank = RANK[own] if own is not None else TOP
        for name, line in _imported(ast.parse(path.read_text(encoding="utf-8")), module, is_package):
            parts = name.split(".")
            if parts[0] in NEVER:
                problems.append(f"{relative}:{line}: the engine imports {name}")
            if parts[0] != "citelens" or len(parts) < 2 or parts[1] == own:
                continue
            target = parts[1]
            if target not in RANK:
                continue  # a module of the top package (citelens.__version__) or a name
            if RANK[target] >= own_rank:
                problems.append(f"{relative}:{line}: {own or 'citelens'} imports {target} ({name})")
    return problems


def test_engine_packages_import_only_lower_layers() -> None:
    assert layer_violations(ENGINE) == []


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in ENGINE.iterdir() if (p / "__init__.py").exists()}
    assert packages <= set(RANK), sorted(packages - set(RANK))


def test_a_hidden_upward_import_is_caught(tmp_path: Path) -> None:
    """The check is not vacuous: a copy of the engine with one function-local import
    from `source` up into `check` (the kind of edge that hid a cycle) fails it."""
    copy = tmp_path / "citelens"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    edits = copy / "source" / "edits.py"
    edits.write_text(
        edits.read_text(encoding="utf-8")
        + "\n\ndef _sneaky() -> None:\n    from citelens.check.engine import Checker  # noqa\n",
        encoding="utf-8",
    )
    lazy = copy / "models" / "report.py"
    lazy.write_text(
        lazy.read_text(encoding="utf-8") + '\n\nimportlib.import_module("citelens.convert.value")\n',
        encoding="utf-8",
    )
    problems = layer_violations(copy)
    assert len(problems) == 2, problems
    assert problems[0].startswith("models/report.py:") and "models imports convert" in problems[0]
    assert problems[1].startswith("source/edits.py:") and "source imports check" in problems[1]
