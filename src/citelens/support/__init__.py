"""Support verdicts: does a cited document support a report sentence?

A separate layer over ``citelens.align`` (whose cite-right-compatible behaviour stays
exact): stemmed, number-aware matching of one whole report sentence against one document,
with thresholds kept as data (thresholds.toml). Importing this package is cheap; the
stemmer loads on the first judgement.

    from citelens.support import judge_support
    v = judge_support("Worms live in the dirt.", "Earthworms live in soil ...")
    v.verdict, v.score, v.evidence
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citelens import lazy_export

if TYPE_CHECKING:  # what `__getattr__` loads on first use, for the type checker
    from citelens.support.judge import judge_support as judge_support
    from citelens.support.settings import SupportSettings as SupportSettings
    from citelens.support.settings import default_settings as default_settings
    from citelens.support.verdict import Evidence as Evidence
    from citelens.support.verdict import SupportVerdict as SupportVerdict
    from citelens.support.verdict import UncheckedReason as UncheckedReason
    from citelens.support.verdict import Verdict as Verdict

_EXPORTS = {
    "judge_support": "judge",
    "SupportVerdict": "verdict",
    "Verdict": "verdict",
    "UncheckedReason": "verdict",
    "Evidence": "verdict",
    "SupportSettings": "settings",
    "default_settings": "settings",
}

__all__ = sorted(_EXPORTS)
_MODULES = {n: f"citelens.support.{m}" for n, m in _EXPORTS.items()}


def __getattr__(name: str) -> object:
    return lazy_export(globals(), _MODULES, name)


def __dir__() -> list[str]:
    return __all__
