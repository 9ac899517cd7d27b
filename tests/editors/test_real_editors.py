"""Real clients not written here: headless Neovim and Emacs (eglot) open a faulty run,
get the diagnostics at the positions `citelens check` gives, show a hover with evidence,
and apply a quick fix that removes its finding. `.ci/install-editors` installs both; in CI
(CI=true) a missing editor fails the test instead of skipping it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.source.line_index import LineIndex
from tests.helpers.editor_runs import hover_offset, write_run
from tests.helpers.lsp_session import cli_findings

HERE = Path(__file__).resolve().parent
FIX_CODE = "references_duplicate"


def _need(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is not installed: .ci/install-editors should have installed it")
        pytest.skip(f"{tool} is not installed (run .ci/install-editors)")
    return found


def _expected(path: Path, text: str) -> list[dict]:
    """The CLI's findings with code-point offsets (start, end) into the text."""
    index = LineIndex(text)
    out = []
    for f in cli_findings(path):
        start = index.starts[f["line"] - 1] + f["column"] - 1
        end = index.starts[f["end_line"] - 1] + f["end_column"] - 1
        out.append({"code": f["code"], "message": f["message"], "start": start, "end": end})
    return sorted(out, key=lambda f: (f["start"], f["code"]))


def _isolated_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        env[name] = str(tmp_path / "xdg" / name.lower())
    env.update(CITELENS_PY=sys.executable, **extra)
    return env


def _check_after_fix(result: dict, path: Path, before: list[dict]) -> None:
    assert result.get("applied"), f"no quick fix applied: {result.get('action')}"
    fixed = path.with_name("fixed.jsonl")
    fixed.write_text(
        result["buffer"] if result["buffer"].endswith("\n") else result["buffer"] + "\n", encoding="utf-8"
    )
    after_cli = _expected(fixed, fixed.read_text(encoding="utf-8"))
    assert sum(f["code"] == FIX_CODE for f in after_cli) < sum(f["code"] == FIX_CODE for f in before)
    assert sorted((d["code"], d["message"]) for d in result["after"]) == sorted(
        (f["code"], f["message"]) for f in after_cli
    )


def test_neovim_headless(tmp_path):
    nvim = _need("nvim")
    path, text = write_run(tmp_path)
    expected = _expected(path, text)
    index = LineIndex(text)
    at = hover_offset(text)
    line, byte_col = index.position(at, "utf-8")
    out = tmp_path / "nvim.json"
    env = _isolated_env(
        tmp_path,
        CITELENS_FILE=str(path),
        CITELENS_OUT=str(out),
        CITELENS_ROOT=str(tmp_path),
        CITELENS_HOVER_LINE=str(line),
        CITELENS_HOVER_COL=str(byte_col),
        CITELENS_FIX_CODE=FIX_CODE,
    )
    cmd = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {HERE / 'drive_nvim.lua'}"]
    run = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert out.exists(), f"nvim wrote nothing: {run.stdout}\n{run.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))

    # diagnostics where the CLI puts them (Neovim shows byte columns: UTF-16 was converted)
    got = sorted(
        (d["code"], d["message"], index.position(index.offset_at(d["line"], d["col"], "utf-8"), "utf-32"))
        for d in result["diagnostics"]
    )
    want = sorted((f["code"], f["message"], index.position(f["start"], "utf-32")) for f in expected)
    assert got == want
    assert all(d["source"] == "citelens" for d in result["diagnostics"])
    # the hover: the cited document and its evidence, escaped
    assert "msmarco" in result["hover"] and "supported" in result["hover"]
    assert "&lt;b&gt;" in result["hover"] and "<b>" not in result["hover"]
    _check_after_fix(result, path, expected)


def test_emacs_eglot(tmp_path):
    emacs = _need("emacs")
    path, text = write_run(tmp_path)
    expected = _expected(path, text)
    out = tmp_path / "emacs.json"
    env = _isolated_env(
        tmp_path,
        HOME=str(tmp_path / "home"),
        CITELENS_FILE=str(path),
        CITELENS_OUT=str(out),
        CITELENS_HOVER_POINT=str(hover_offset(text) + 1),  # Emacs points count characters from 1
        CITELENS_FIX_CODE=FIX_CODE,
    )
    cmd = [emacs, "--batch", "-l", str(HERE / "drive_eglot.el")]
    run = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert out.exists(), f"emacs wrote nothing: {run.stdout}\n{run.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))

    got = sorted((d["code"], d["message"], d["beg"] - 1, d["end"] - 1) for d in result["diagnostics"])
    want = sorted((f["code"], f["message"], f["start"], f["end"]) for f in expected)
    assert got == want
    assert "msmarco" in result["hover"] and "supported" in result["hover"]
    # eglot 1.9 without markdown-mode asks for plain text: the title as written, matches marked
    assert "Floods `and` <b>rivers</b>" in result["hover"] and "[[" in result["hover"]
    _check_after_fix(result, path, expected)


def _documented_recipe(marker: str) -> str:
    """The Lua block that follows `<!-- marker -->` in docs/editors.md."""
    page = (HERE.parents[1] / "docs" / "editors.md").read_text(encoding="utf-8")
    after = page.split(f"<!-- {marker} -->", 1)[1]
    return after.split("```lua\n", 1)[1].split("```", 1)[0]


def test_neovim_07_recipe_applies_a_quick_fix_after_non_ascii_text(tmp_path):
    nvim = _need("nvim")
    path, text = write_run(tmp_path)
    expected = _expected(path, text)
    fix_line = next(LineIndex(text).line_of(f["start"]) for f in expected if f["code"] == FIX_CODE)
    assert not text.splitlines()[fix_line].isascii()  # the columns Neovim sends back differ
    recipe = tmp_path / "recipe.lua"
    recipe.write_text(_documented_recipe("neovim-0.7-recipe"), encoding="utf-8")
    out = tmp_path / "nvim.json"
    env = _isolated_env(
        tmp_path,
        CITELENS_FILE=str(path),
        CITELENS_OUT=str(out),
        CITELENS_RECIPE=str(recipe),
        CITELENS_FIX_CODE=FIX_CODE,
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    cmd = [
        nvim,
        "--headless",
        "-u",
        "NONE",
        "-i",
        "NONE",
        "-n",
        "-c",
        f"luafile {HERE / 'drive_nvim_recipe.lua'}",
    ]
    run = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert out.exists(), f"nvim wrote nothing: {run.stdout}\n{run.stderr}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["attached"] == 1 and len(result["diagnostics"]) == len(expected)
    _check_after_fix(result, path, expected)
