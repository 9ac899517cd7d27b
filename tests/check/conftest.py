import pytest

from citelens.check import Checker
from citelens.specs import get_spec


@pytest.fixture
def check():
    """check(text, spec="rag26", **kw) -> list of (code, severity, token text)."""

    def run(text, spec="rag26", topics=None, **kw):
        result = Checker(get_spec(spec) if spec else None, topics, **kw).check_text(text)
        return [(f.code, f.severity, text[f.start : f.end]) for f in result.findings]

    return run
