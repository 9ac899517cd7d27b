"""The release: an sdist and a wheel that hold everything CiteLens needs and nothing else,
pass `twine check`, and work when installed into a fresh environment."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import citelens

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = ROOT / "examples" / "rag26-with-mistakes.jsonl"


def _wheel_names(dist: Path) -> set[str]:
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def _sdist_names(dist: Path) -> set[str]:
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as tf:
        return {name.split("/", 1)[1] for name in tf.getnames() if "/" in name}


def test_the_wheel_holds_the_data_files_and_the_server(dist):
    names = _wheel_names(dist)
    packaged = {Path(p).parts[0] for p in names if not p.endswith(".dist-info") and ".dist-info/" not in p}
    assert packaged == {"citelens", "citelens_server"}
    for source in (ROOT / "src").rglob("*"):
        if (
            source.is_file()
            and source.suffix in (".py", ".toml", ".md", ".typed")
            and "__pycache__" not in source.parts
        ):
            assert str(source.relative_to(ROOT / "src")) in names, source
    assert "citelens_server/__main__.py" in names
    # the word matcher's WordNet table travels with its licence notice
    assert {"citelens/support/synonyms-en.txt", "citelens/support/WORDNET-LICENSE"} <= names
    assert any(n.endswith("/licenses/LICENSE") for n in names)


def test_the_sdist_holds_the_sources_and_no_tests(dist):
    names = _sdist_names(dist)
    assert {"pyproject.toml", "README.md", "LICENSE", "src/citelens/specs/builtin.toml"} <= names
    assert not any(n.startswith(("tests/", "bench/", "vscode-extension/", ".ci/")) for n in names)


def test_twine_accepts_the_distributions(dist):
    proc = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, dist.iterdir())],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _run(bin_dir: Path, *args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]], capture_output=True, text=True, cwd=kw.get("cwd")
    )


def test_the_installed_wheel_checks_converts_and_aligns(installed, tmp_path):
    version = _run(installed, "citelens", "--version")
    assert version.stdout.strip() == f"citelens {citelens.__version__}"
    where = _run(installed, "python", "-c", "import citelens; print(citelens.__file__)")
    assert str(installed.parent) in where.stdout  # the wheel, not this checkout
    checked = _run(installed, "citelens", "check", str(EXAMPLE), "--spec", "rag26", "--format", "json")
    assert checked.returncode == 1
    assert {f["code"] for f in json.loads(checked.stdout)["findings"]} >= {"citation_format", "docid_pattern"}
    out = tmp_path / "converted.jsonl"
    converted = _run(
        installed,
        "citelens",
        "convert",
        str(ROOT / "examples" / "dragun25-organizer-run.jsonl"),
        "--to",
        "ragtime26",
        "-o",
        str(out),
    )
    assert converted.returncode == 0, converted.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 30
    sources = tmp_path / "sources.jsonl"
    sources.write_text(json.dumps({"id": "d1", "text": "Trees stop making chlorophyll in autumn."}) + "\n")
    aligned = _run(
        installed,
        "citelens",
        "align",
        "--sources",
        str(sources),
        "--answer",
        "In autumn trees stop making chlorophyll.",
        "--format",
        "json",
    )
    assert aligned.returncode == 0, aligned.stderr
    assert "chlorophyll" in aligned.stdout


def _frame(body: dict) -> bytes:
    data = json.dumps(body).encode()
    return f"Content-Length: {len(data)}\r\n\r\n".encode() + data


def test_the_installed_server_answers_initialize(installed):
    server = subprocess.Popen(
        [str(installed / "citelens"), "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}},
        }
        out, _ = server.communicate(
            _frame(init)
            + _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            + _frame({"jsonrpc": "2.0", "method": "exit"}),
            timeout=60,
        )
    finally:
        server.kill()
    header, _, rest = out.partition(b"\r\n\r\n")
    fields = dict(line.split(b":", 1) for line in header.split(b"\r\n"))
    reply = json.loads(rest[: int(fields[b"Content-Length"])])
    assert reply["id"] == 1 and "capabilities" in reply["result"]
    assert reply["result"]["serverInfo"]["name"].lower().startswith("citelens")
