"""Which spec fits a run: the specs a run passes come first, then by fewest errors."""

from __future__ import annotations

import pytest

from citelens.check.engine import Checker
from citelens.session.spec_ranking import rank_specs
from citelens.specs import builtin_specs, resolve_spec
from tests.helpers.report_factory import generate_run


@pytest.mark.parametrize("spec_id", ["rag25", "ragtime25", "dragun25"])
def test_a_clean_run_ranks_its_own_spec_among_those_it_passes(spec_id):
    lines, _ = generate_run(spec_id, 12, 5, fault_free=True)
    text = "\n".join(lines) + "\n"
    fits = rank_specs(text)
    assert sorted(f.spec for f in fits) == sorted(builtin_specs())
    own = next(f for f in fits if f.spec == spec_id)
    assert own.errors == 0
    clean = [f for f in fits if f.errors == 0]
    assert fits[: len(clean)] == clean  # those with no errors first
    errors = [f.errors for f in fits[len(clean) :]]
    assert errors == sorted(errors) and all(e > 0 for e in errors)
    for fit in fits:  # each figure is what `citelens check --spec ID` finds
        result = Checker(resolve_spec(fit.spec)).check_text(text)
        assert (fit.errors, fit.warnings) == (result.count("error"), result.count("warning"))


def test_text_that_is_no_run_has_errors_under_every_spec():
    fits = rank_specs("this is not json\n")
    assert all(f.errors > 0 for f in fits)
    assert [f.spec for f in fits] == sorted(builtin_specs())  # ties: by name
