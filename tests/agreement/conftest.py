"""Agreement tests need the reference library (a test extra) and never the network."""

import importlib.util

import pytest

if importlib.util.find_spec("autojudge_base") is None:  # pragma: no cover
    pytest.skip("autojudge-base (test extra) is not installed", allow_module_level=True)
