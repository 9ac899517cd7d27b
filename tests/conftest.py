"""Shared test helpers (reference_oracle, report_factory, sample_data) are imported by name."""

import sys
from pathlib import Path

TESTS = str(Path(__file__).parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
