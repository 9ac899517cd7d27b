"""Make the shared test helpers (reference oracle, report generator) importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
