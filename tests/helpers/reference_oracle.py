"""autojudge-base 1.0.0, the reference library, loaded offline as a test oracle.

The library reads NLTK data at import (and would download it when absent) and imports
`requests` for document fetching we never use. Here NLTK finds a small stub data
directory, downloading raises, and `requests` is a stand-in that refuses every use, so
the oracle never touches the network.
"""

from __future__ import annotations

import os
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any

from tests.helpers.sample_data import RUNS

TESTS = Path(__file__).resolve().parents[1]
NLTK_STUB = TESTS / "fixtures" / "nltk_data"

SAMPLES = RUNS  # the real sample runs (tests/data/runs)

#: The spec ids CiteLens shares with the reference library (same values).
SHARED_SPECS = ("rag26", "rag25", "rag25-autojudge", "ragtime25", "ragtime26", "dragun25", "kiddie")


class _NoNetwork(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # introspection (e.g. __file__) is not network use
        raise RuntimeError(f"the reference oracle must not use the network (requests.{name})")


def _refuse_download(*_args: Any, **_kwargs: Any) -> bool:
    raise RuntimeError("the reference oracle must not download NLTK data")


def private_nltk_data() -> Path:
    """A copy of the NLTK stub that only its owner can write: NLTK refuses to read data
    that others could have planted, and a checkout made with umask 002 is group-writable."""
    import shutil
    import tempfile

    target = Path(tempfile.mkdtemp(prefix="citelens-nltk-")) / "nltk_data"
    shutil.copytree(NLTK_STUB, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


@cache
def offline_nltk() -> Path:
    """Make the reference importable offline: NLTK reads the private stub and cannot
    download; `requests` is a stand-in that refuses every use."""
    data = private_nltk_data()
    os.environ["NLTK_DATA"] = str(data)
    sys.modules.setdefault("requests", _NoNetwork("requests"))
    import nltk

    nltk.download = _refuse_download
    if str(data) not in nltk.data.path:
        nltk.data.path.insert(0, str(data))
    return data


@cache
def reference() -> types.SimpleNamespace:
    """The reference modules: report, request, document, track_spec, report_export."""
    offline_nltk()
    import autojudge_base.document.document as document
    import autojudge_base.document.text_chunker as text_chunker
    import autojudge_base.report as report
    import autojudge_base.report_export as report_export
    import autojudge_base.request as request
    import autojudge_base.track_spec as track_spec

    return types.SimpleNamespace(
        report=report,
        request=request,
        document=document,
        track_spec=track_spec,
        report_export=report_export,
        text_chunker=text_chunker,
    )


def reference_spec(spec: Any) -> Any:
    """A reference `TrackSpec` with the same values as a CiteLens spec (for custom specs)."""
    ts = reference().track_spec
    data = {k: v for k, v in spec.describe().items() if k in ts.TrackSpec.__dataclass_fields__}
    return ts.TrackSpec.from_dict(data)


def sample_lines() -> list[tuple[str, int, str]]:
    """(file name, line number, line) of every report line in the sample runs."""
    out = []
    for path in sorted(SAMPLES.glob("*.jsonl")):
        if "topics" in path.name:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                out.append((path.name, n, line))
    return out
