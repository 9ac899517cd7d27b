"""`check --fix`, `check --diff` and `convert -o/--in-place` on the user's files: links
followed, modes kept, streams written into, read-only files and folders refused in one
line naming the user's path, with the findings still printed."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.cli import main
from tests.helpers.cli_capture import run
from tests.helpers.unprivileged import give_to_unprivileged, shared_folder, unprivileged

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MISTAKES = EXAMPLES / "rag26-with-mistakes.jsonl"
RAGTIME = EXAMPLES / "ragtime26-run.jsonl"


def test_fix_through_a_symlink_fixes_the_target_and_keeps_the_link(capsys, tmp_path):
    real = tmp_path / "real.jsonl"
    shutil.copy(MISTAKES, real)
    link = tmp_path / "link.jsonl"
    link.symlink_to("real.jsonl")
    code, out, err = run(capsys, "check", link, "--spec", "rag26", "--fix")
    assert f"{link}: applied" in err
    assert link.is_symlink() and os.readlink(link) == "real.jsonl"
    assert real.read_bytes() != MISTAKES.read_bytes()
    assert run(capsys, "check", real, "--spec", "rag26")[1] == out.replace(str(link), str(real))


def test_convert_in_place_and_o_force_write_through_links(capsys, tmp_path):
    real = tmp_path / "real.jsonl"
    shutil.copy(RAGTIME, real)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert run(capsys, "convert", link, "--to", "kiddie", "--in-place")[0] == 0
    assert (
        link.is_symlink()
        and b'"responses"' in real.read_bytes()
        and real.read_bytes() != RAGTIME.read_bytes()
    )
    out_real = tmp_path / "out.jsonl"
    out_real.write_text("old\n")
    out_link = tmp_path / "out-link.jsonl"
    out_link.symlink_to("out.jsonl")
    assert run(capsys, "convert", RAGTIME, "--to", "kiddie", "-o", out_link, "--force")[0] == 0
    assert out_link.is_symlink() and out_real.read_text() != "old\n"


def test_convert_to_dev_stdout_streams_and_never_replaces_it():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "citelens",
            "convert",
            str(RAGTIME),
            "--to",
            "kiddie",
            "-o",
            "/dev/stdout",
            "--force",
        ],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count(b"\n") == len(RAGTIME.read_bytes().splitlines())
    assert os.path.islink("/dev/stdout")


def test_convert_to_a_named_pipe_writes_into_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    assert main(["convert", str(RAGTIME), "--to", "kiddie", "-o", str(fifo)]) == 0  # no --force needed
    out, _ = reader.communicate(timeout=20)
    assert out.count(b"\n") == len(RAGTIME.read_bytes().splitlines()) and stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600)])
def test_a_converted_new_file_gets_the_mode_the_umask_gives(capsys, tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        assert run(capsys, "convert", RAGTIME, "--to", "kiddie", "-o", tmp_path / "new.jsonl")[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == mode


def test_fix_keeps_the_mode_of_the_file(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    shutil.copy(MISTAKES, path)
    path.chmod(0o640)
    run(capsys, "check", path, "--spec", "rag26", "--fix")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.read_bytes() != MISTAKES.read_bytes()


def test_fix_refuses_a_read_only_file_in_one_line_and_still_prints_the_findings(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    shutil.copy(MISTAKES, path)
    path.chmod(0o444)
    code, out, err = run(capsys, "check", path, "--spec", "rag26", "--fix")
    assert code == 2
    assert err == f"citelens check: {path}: the file is read-only; it was not changed\n"
    assert path.read_bytes() == MISTAKES.read_bytes()
    expected = run(capsys, "check", path, "--spec", "rag26")[1]
    assert out == expected and "5 errors" in out  # the findings of the file as it is


def test_fix_in_a_read_only_folder_names_the_folder_and_prints_the_findings():
    with shared_folder() as root:
        folder = root / "runs"
        folder.mkdir()
        path = folder / "r.jsonl"
        shutil.copy(MISTAKES, path)
        give_to_unprivileged(path)
        folder.chmod(0o555)

        def fix() -> tuple[int, str, str]:
            import contextlib
            import io

            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["check", str(path), "--spec", "rag26", "--fix"])
            return code, out.getvalue(), err.getvalue()

        code, out, err = unprivileged(fix)  # type: ignore[misc]
        assert code == 2
        assert err == (
            f"citelens check: {path}: cannot write in its folder {folder}: permission denied; "
            "it was not changed\n"
        )
        assert ".tmp" not in err and out.endswith("5 errors, 2 warnings in 1 file (3 reports)\n")
        assert path.read_bytes() == MISTAKES.read_bytes()


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "/nonexistent/x.jsonl",
            "/nonexistent/x.jsonl: cannot create it: its folder /nonexistent does not exist",
        ),
        ("{tmp}", "{tmp}: is a directory"),
    ],
)
def test_convert_to_an_impossible_output_is_one_plain_line(capsys, tmp_path, target, message):
    target, message = target.format(tmp=tmp_path), message.format(tmp=tmp_path)
    code, out, err = run(capsys, "convert", RAGTIME, "--to", "kiddie", "-o", target, "--force")
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == f"citelens convert: {message}"
    assert "internal error" not in err


def _patch(folder: Path, diff: str) -> None:
    if shutil.which("patch") is None:
        if os.environ.get("CI"):
            pytest.fail("`patch` is missing: .ci/install-patch installs it")
        pytest.skip("`patch` is not installed")
    proc = subprocess.run(
        ["patch", "-p1", "--quiet"], input=diff.encode("utf-8"), cwd=folder, capture_output=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    "shape",
    ["bom", "crlf", "cr", "no final newline", "u2028 in a string", "bom and crlf"],
)
def test_diff_applies_with_patch_to_the_file_as_it_is_on_disk(capsys, tmp_path, monkeypatch, shape):
    text = MISTAKES.read_text(encoding="utf-8")
    if "u2028" in shape:
        text = text.replace("Bees make honey", "Bees\u2028make honey")
    if "crlf" in shape:
        text = text.replace("\n", "\r\n")
    if shape == "cr":
        text = text.replace("\n", "\r")
    if shape == "no final newline":
        text = text.rstrip("\n")
    data = ("\ufeff" if "bom" in shape else "") + text
    path = tmp_path / "run.jsonl"
    path.write_bytes(data.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    code, diff, _ = run(capsys, "check", "run.jsonl", "--spec", "rag26", "--diff")
    assert diff.startswith("--- a/run.jsonl\n+++ b/run.jsonl\n")
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    shutil.copy(path, fixed / "run.jsonl")
    run(capsys, "check", fixed / "run.jsonl", "--spec", "rag26", "--fix")
    _patch(tmp_path, diff)
    assert path.read_bytes() == (fixed / "run.jsonl").read_bytes()
    assert path.read_bytes().startswith(b"\xef\xbb\xbf") == ("bom" in shape)
