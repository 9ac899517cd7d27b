"""Writing a user's file: through symbolic links, keeping its mode and owner, never
replacing a stream, refusing what must not be rewritten, in one line naming the user's path."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from citelens.files import FileError, read_bytes, write_file
from tests.helpers.unprivileged import NOBODY, give_to_unprivileged, unprivileged


def test_a_symlink_is_written_through_to_its_target_and_stays_a_link(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to("real.jsonl")
    write_file(link, b"new\n")
    assert link.is_symlink() and os.readlink(link) == "real.jsonl"
    assert real.read_bytes() == b"new\n"


def test_a_chain_of_links_across_folders_reaches_the_final_file(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "work").mkdir()
    final = tmp_path / "data" / "run.jsonl"
    final.write_bytes(b"old")
    (tmp_path / "data" / "current.jsonl").symlink_to("run.jsonl")
    link = tmp_path / "work" / "mine.jsonl"
    link.symlink_to("../data/current.jsonl")
    write_file(link, b"new")
    assert final.read_bytes() == b"new"
    assert (tmp_path / "data" / "current.jsonl").is_symlink() and link.is_symlink()
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["mine.jsonl"]
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["current.jsonl", "run.jsonl"]


def test_a_link_to_a_missing_file_creates_the_file_it_names(tmp_path):
    link = tmp_path / "out.jsonl"
    link.symlink_to("target.jsonl")
    write_file(link, b"x")
    assert link.is_symlink() and (tmp_path / "target.jsonl").read_bytes() == b"x"


def test_a_rewritten_file_keeps_its_mode(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old")
    for mode in (0o640, 0o600, 0o755, 0o664, 0o2750):
        path.chmod(mode)
        write_file(path, b"new")
        assert stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_rewritten_file_keeps_its_owner_and_group(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old")
    os.chown(path, NOBODY, NOBODY)
    write_file(path, b"new")
    st = path.stat()
    assert (st.st_uid, st.st_gid) == (NOBODY, NOBODY) and path.read_bytes() == b"new"


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_follows_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        write_file(tmp_path / "new.jsonl", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == mode


def test_a_read_only_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old")
    path.chmod(0o444)
    with pytest.raises(FileError) as info:
        write_file(path, b"new")
    assert str(info.value) == f"{path}: the file is read-only; it was not changed"
    assert path.read_bytes() == b"old" and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_file_with_other_hard_links_is_refused_rather_than_split(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old")
    os.link(path, tmp_path / "other.jsonl")
    with pytest.raises(FileError, match="2 hard links"):
        write_file(path, b"new")
    assert (tmp_path / "other.jsonl").read_bytes() == b"old" == path.read_bytes()


def test_a_named_pipe_is_streamed_to_and_stays_a_pipe(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    write_file(fifo, b"through the pipe\n")
    out, _ = reader.communicate(timeout=10)
    assert out == b"through the pipe\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


_TO_STDOUT = (
    "import sys; from citelens.files import write_file; "
    "print('first', flush=True); write_file('/dev/stdout', b'second\\n'); print('third')"
)


def test_dev_stdout_is_streamed_to_in_order_when_it_is_a_pipe():
    out = subprocess.run([sys.executable, "-c", _TO_STDOUT], capture_output=True, check=True).stdout
    assert out == b"first\nsecond\nthird\n"
    assert os.path.islink("/dev/stdout")


def test_dev_stdout_redirected_to_a_file_gets_the_bytes_in_order(tmp_path):
    target = tmp_path / "captured.txt"
    with open(target, "wb") as fh:
        subprocess.run([sys.executable, "-c", _TO_STDOUT], stdout=fh, check=True)
    assert target.read_bytes() == b"first\nsecond\nthird\n"
    assert os.path.islink("/dev/stdout") and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dev_null_is_written_to_not_replaced():
    write_file("/dev/null", b"gone")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_missing_folder_is_one_line_naming_the_path(tmp_path):
    with pytest.raises(FileError) as info:
        write_file("/nonexistent/x.jsonl", b"x")
    assert str(info.value) == "/nonexistent/x.jsonl: cannot create it: its folder /nonexistent does not exist"


def test_a_directory_is_refused_as_a_target(tmp_path):
    with pytest.raises(FileError) as info:
        write_file(tmp_path, b"x")
    assert str(info.value) == f"{tmp_path}: is a directory"
    assert list(tmp_path.iterdir()) == []


def test_a_link_loop_is_named_as_a_loop(tmp_path):
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to("loop.jsonl")
    for action in (lambda: write_file(loop, b"x"), lambda: read_bytes(loop)):
        with pytest.raises(FileError) as info:
            action()
        assert str(info.value) == f"{loop}: a symbolic link loop (the link leads back to itself)"


def test_a_read_only_folder_names_the_folder_never_a_temporary_file(shared_dir):
    folder = shared_dir / "runs"
    folder.mkdir()
    path = folder / "r.jsonl"
    path.write_bytes(b"old")
    give_to_unprivileged(path)  # the file is writable by the user, its folder is not
    folder.chmod(0o555)
    with pytest.raises(FileError) as info:
        unprivileged(lambda: write_file(path, b"new"))
    assert str(info.value) == (
        f"{path}: cannot write in its folder {folder}: permission denied; it was not changed"
    )
    assert path.read_bytes() == b"old"


def test_killed_between_the_temporary_file_and_the_rename_the_file_is_whole(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"old bytes\n" * 100)
    code = (
        "import os, signal, sys; import citelens.files.write as w\n"
        "w.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
        "w.write_file(sys.argv[1], b'new')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(path)])
    assert proc.returncode == -signal.SIGKILL
    assert path.read_bytes() == b"old bytes\n" * 100


def test_reading_names_the_real_cause(tmp_path):
    (tmp_path / "dangling").symlink_to("gone.jsonl")
    cases = {
        "/dev/null": "/dev/null: not a file but a character device",
        str(tmp_path): f"{tmp_path}: not a file but a directory",
        str(
            tmp_path / "dangling"
        ): f"{tmp_path / 'dangling'}: a symbolic link to gone.jsonl, which does not exist",
        str(tmp_path / "nope"): f"{tmp_path / 'nope'}: no such file or directory",
        "": "'': an empty path (no file named)",
    }
    for path, message in cases.items():
        with pytest.raises(FileError) as info:
            read_bytes(path)
        assert str(info.value) == message


def test_an_unreadable_file_is_named_with_the_cause(shared_dir):
    path = shared_dir / "secret.jsonl"
    path.write_bytes(b"{}")
    path.chmod(0o600)  # root's, so nobody cannot read it
    if os.geteuid() != 0:
        path.chmod(0o000)
    with pytest.raises(FileError) as info:
        unprivileged(lambda: read_bytes(path))
    assert str(info.value) == f"{path}: cannot read it: permission denied"


def test_a_file_error_is_an_os_error_of_one_line(tmp_path):
    err = FileError(Path("a b.jsonl"), "why")
    assert isinstance(err, OSError) and str(err) == "a b.jsonl: why" and "\n" not in str(err)
