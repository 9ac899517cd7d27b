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
    frozenset({"overview"}),  # a run at a glance: the overview page's data and HTML
    frozenset({"session"}),  # what an editor holds
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


# --- the language server: glue over citelens.session ------------------------------------

SERVER = Path(__file__).resolve().parents[1] / "server" / "citelens_server"
#: what the server may import of the engine besides `citelens.session`: the version, one
#: line index per document version (positions), file I/O (the start cache), and the
#: file-kind sniffing of run detection (moving into the engine with issue 18)
SERVER_ENGINE_ALLOWED = (
    "citelens.session",
    "citelens.source.line_index",
    "citelens.files",
    "citelens.source.file_kind",
)
#: server groups, bottom first: a module imports its own group or lower ones only
SERVER_GROUPS = ("lsp", "runtime", "features", "app")


def _server_modules(root: Path) -> dict[str, Path]:
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(("citelens_server", *parts)).removesuffix(".__init__")
        modules[name] = path
    return modules


def _runtime_imports(tree: ast.AST, module: str, is_package: bool) -> list[tuple[str, int]]:
    """Like `_imported`, without the bodies of `if TYPE_CHECKING:` (annotations only), and
    with `from package import module` counted as importing that module."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.If)
            and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"
        ):
            skipped |= {id(n) for child in node.body for n in ast.walk(child)}
    kept = ast.Module(body=[], type_ignores=[])
    kept.body = [
        n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skipped
    ]
    found = _imported(kept, module, is_package)
    for node in kept.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(f"{node.module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def _group(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in SERVER_GROUPS else None


def server_violations(root: Path) -> list[str]:
    """Engine imports outside the allow-list, imports up the server's groups, and import
    cycles between server modules (type-only imports aside), as `file:line: why`."""
    modules = _server_modules(root)
    problems: list[str] = []
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        relative = path.relative_to(root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for target, line in _imported(tree, name, is_package):
            top = target.split(".")[0]
            engine = top == "citelens" and target not in ("citelens", "citelens.__version__")
            if engine and not any(target == a or target.startswith(a + ".") for a in SERVER_ENGINE_ALLOWED):
                problems.append(
                    f"{relative}:{line}: the server imports {target} (not through citelens.session)"
                )
            if top == "citelens_server":
                own, theirs = _group(name), _group(target)
                if (
                    own is not None
                    and theirs is not None
                    and SERVER_GROUPS.index(theirs) > SERVER_GROUPS.index(own)
                ):
                    problems.append(f"{relative}:{line}: {own} imports {theirs} ({target})")
        for target, _line in _runtime_imports(tree, name, is_package):
            if target in modules and target != name:
                graph[name].add(target)
    problems += [f"import cycle: {' -> '.join(cycle)}" for cycle in _cycles(graph)]
    return problems


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_server_is_glue_over_the_session() -> None:
    assert server_violations(SERVER) == []


def test_a_server_shortcut_into_the_engine_or_a_cycle_is_caught(tmp_path: Path) -> None:
    """The server check is not vacuous: an import of `citelens.cli`, an lsp module
    importing a feature, and a cycle between two features each fail it."""
    copy = tmp_path / "citelens_server"
    shutil.copytree(SERVER, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "features" / "hover.py").write_text(
        (copy / "features" / "hover.py").read_text(encoding="utf-8")
        + "\n\ndef _cli() -> None:\n    from citelens.cli.align import mark_matches  # noqa\n"
        + "    from citelens_server.features import symbols  # noqa\n",
        encoding="utf-8",
    )
    (copy / "features" / "symbols.py").write_text(
        (copy / "features" / "symbols.py").read_text(encoding="utf-8")
        + "\nfrom citelens_server.features import hover  # noqa\n",
        encoding="utf-8",
    )
    (copy / "lsp" / "edits.py").write_text(
        (copy / "lsp" / "edits.py").read_text(encoding="utf-8")
        + "\nfrom citelens_server.features.sync import FEATURES  # noqa\n",
        encoding="utf-8",
    )
    problems = server_violations(copy)
    assert any("hover.py" in p and "citelens.cli.align" in p for p in problems), problems
    assert any("lsp/edits.py" in p and "lsp imports features" in p for p in problems), problems
    assert any(
        p.startswith("import cycle:") and "features.hover" in p and "features.symbols" in p for p in problems
    ), problems
    assert not any("runtime/server.py" in p for p in problems), problems  # the rest is clean
