"""The README and the documentation say what the software does: the README stays a front
page, its test command is what CI runs, every command shown in a console block runs and
prints what is shown, every relative link and anchor resolves (on the forge and on the
built site), the per-code pages are current, and the site builds with `mkdocs build --strict`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the Markdown a reader browses: README, the reference, the contributors' documents
PAGES = sorted(
    [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md"]
    + list((ROOT / "docs").rglob("*.md"))
)
#: pages whose console blocks are real sessions in the repository root
SESSIONS = [README] + sorted((ROOT / "docs").glob("*.md"))
BIN = Path(sys.executable).parent

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$", re.M)


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_readme_is_a_front_page() -> None:
    assert len(README.read_bytes()) <= 15_000


def test_readme_quickstart_commands_are_the_ci_commands() -> None:
    readme = README.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(line for line in ci.splitlines() if line.startswith("python3 -m venv"))
    assert test_command in readme


def test_readme_first_command_prints_what_the_readme_says(tmp_path_factory: pytest.TempPathFactory) -> None:
    readme = README.read_text(encoding="utf-8")
    first = next(
        line for line in readme.splitlines() if line.startswith("python3 -m venv") and "check" in line
    )
    check = first.split(" && ")[-1]  # after the install, which CI's own command exercises
    assert check.startswith(".venv/bin/citelens check ")
    said = re.search(r"The first prints `([^`]+)`", readme)
    assert said, "the README says what the first command prints"
    sandbox = sandbox_for(README, tmp_path_factory)
    proc = subprocess.run(
        [str(BIN / "citelens"), *check.split()[1:]], cwd=sandbox, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == said.group(1)


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown for it) of every `$ ` command in console blocks."""
    out: list[tuple[str, list[str]]] = []
    for m in _FENCE.finditer(text):
        if m.group(1).strip() != "console":
            continue
        for line in m.group(2).splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def _runnable(command: str, sandbox: Path) -> bool:
    """A command shown as an illustration names a file that is not in the repository."""
    words = command.split()
    if words[0] not in ("citelens", "cp", "cat"):
        return False
    outputs = {words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-o", "--output")}
    if words[0] == "cp":
        outputs.add(words[-1])
    files = [w for w in words[1:] if re.search(r"\.(jsonl|tsv|toml|ya?ml|json)$", w) and w not in outputs]
    return all((sandbox / f).exists() for f in files)


_SANDBOXES: dict[Path, Path] = {}


def sandbox_for(page: Path, factory: pytest.TempPathFactory) -> Path:
    """A directory like the repository root, with a private copy of examples/, for the
    commands of one page (run in the order the page shows them)."""
    if page not in _SANDBOXES:
        root = factory.mktemp("repo")
        shutil.copytree(ROOT / "examples", root / "examples")
        _SANDBOXES[page] = root
    return _SANDBOXES[page]


SHOWN = [(page, cmd, lines) for page in SESSIONS for cmd, lines in sessions(page.read_text(encoding="utf-8"))]


def test_the_readme_shows_commands_to_run() -> None:
    shown = [cmd for page, cmd, _ in SHOWN if page == README]
    assert any(c.startswith("citelens check") for c in shown)
    assert any("--fix" in c for c in shown) and any(c.startswith("citelens convert") for c in shown)
    assert any(c.startswith("citelens align") for c in shown)


@pytest.mark.parametrize("page, command, shown", SHOWN, ids=[f"{_rel(p)}:{c[:40]}" for p, c, _ in SHOWN])
def test_shown_commands_print_what_is_shown(
    page: Path, command: str, shown: list[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    sandbox = sandbox_for(page, tmp_path_factory)
    if not _runnable(command, sandbox):
        pytest.skip("an illustration with files of its own")
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", NO_COLOR="1")
    proc = subprocess.run(
        command, shell=True, cwd=sandbox, env=env, capture_output=True, text=True, timeout=120
    )
    printed = {line.rstrip() for line in (proc.stdout + proc.stderr).splitlines()}
    assert "Traceback" not in proc.stderr, proc.stderr
    for line in shown:
        if "..." in line or "…" in line or not line.strip():
            continue  # an elision
        assert line.rstrip() in printed, f"{_rel(page)}: `{command}` no longer prints:\n{line}"


def _slugs(heading: str) -> set[str]:
    """The anchors of a heading on the forge (GitHub style) and on the site (Python-Markdown's
    toc); a link may only use an anchor both agree on."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    forge = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    site = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_text).strip().lower())
    return {forge} if forge == site else set()


def _anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for m in _HEADING.finditer(text):
        out |= _slugs(m.group(2))
    return out


LINKS = [
    (page, target)
    for page in PAGES
    for target in _LINK.findall(_FENCE.sub("", page.read_text(encoding="utf-8")))
    if ":" not in target.split("#")[0] and not target.startswith("#!")
]


@pytest.mark.parametrize("page, target", LINKS, ids=[f"{_rel(p)}->{t}" for p, t in LINKS])
def test_relative_links_resolve(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    assert dest.is_relative_to(ROOT) and dest.exists(), f"{_rel(page)}: broken link {target}"
    if dest.is_dir():
        dest = dest / "README.md"
    if anchor:
        assert anchor in _anchors(dest), f"{_rel(page)}: no heading for #{anchor} in {_rel(dest)}"


def test_rule_pages_are_current() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "gen_rule_pages.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_every_code_has_a_page_linked_from_the_index() -> None:
    from citelens.check.catalog import all_rule_docs

    index = (ROOT / "docs" / "finding-codes.md").read_text(encoding="utf-8")
    for doc in all_rule_docs():
        page = ROOT / "docs" / "rules" / f"{doc.code}.md"
        assert f"](rules/{doc.code}.md)" in index
        assert doc.summary in page.read_text(encoding="utf-8")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    mkdocs = shutil.which("mkdocs", path=str(BIN))
    if mkdocs is None:
        if os.environ.get("CI"):
            pytest.fail("mkdocs is missing: CI installs the docs extra ('.[test,docs]')")
        pytest.skip("the docs extra is not installed (pip install -e '.[docs]')")
    proc = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site" / "rules" / "length" / "index.html").exists()
