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

TESTS = Path(__file__).parent
NLTK_STUB = TESTS / "fixtures" / "nltk_data"
SAMPLES = TESTS / "models" / "data"

#: The spec ids CiteLens shares with the reference library (same values).
SHARED_SPECS = ("rag26", "rag25", "rag25-autojudge", "ragtime25", "ragtime26", "dragun25", "kiddie")


class _NoNetwork(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # introspection (e.g. __file__) is not network use
        raise RuntimeError(f"the reference oracle must not use the network (requests.{name})")


def _refuse_download(*_args: Any, **_kwargs: Any) -> bool:
    raise RuntimeError("the reference oracle must not download NLTK data")


@cache
def reference() -> types.SimpleNamespace:
    """The reference modules: report, request, document, track_spec, report_export."""
    os.environ.setdefault("NLTK_DATA", str(NLTK_STUB))
    sys.modules.setdefault("requests", _NoNetwork("requests"))
    import nltk

    nltk.download = _refuse_download
    if str(NLTK_STUB) not in nltk.data.path:
        nltk.data.path.insert(0, str(NLTK_STUB))
    import autojudge_base.document.document as document
    import autojudge_base.document.text_chunker as text_chunker
    import autojudge_base.report as report
    import autojudge_base.report_export as report_export
    import autojudge_base.request as request
    import autojudge_base.track_spec as track_spec

    return types.SimpleNamespace(report=report, request=request, document=document, track_spec=track_spec,
                                 report_export=report_export, text_chunker=text_chunker)


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
