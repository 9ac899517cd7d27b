"""The tree-free pointer locator puts every finding exactly where the node tree does.

`json_locate.locate_in_text` lets the checker place findings without a positioned parse
of the whole report; these tests hold it to `json_nodes.locate` on the node tree: for
every finding of the generated runs, and for arbitrary JSON with arbitrary pointers
(existing members, absent members, duplicate keys, out-of-range indices, scalars).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citelens.check import run_rules
from citelens.check.finding import Target
from citelens.source.json_locate import Locator, locate_in_text
from citelens.source.json_nodes import locate, pointer_join
from citelens.source.json_scan import parse
from citelens.specs import get_spec
from tests.helpers.report_factory import generate_run


def _same(text: str, start: int, pointer: str, target: str, shared: Locator | None = None) -> None:
    """One pointer on a fresh locator, and on a locator shared by all the pointers of the
    value (which answers from the containers it has read already)."""
    node = parse(text, start, len(text)).node
    expected = locate(node, pointer, target)
    assert locate_in_text(text, start, pointer, target) == expected, (pointer, target, text)
    if shared is not None:
        assert shared.span(pointer, target) == expected, (pointer, target, text)


def test_every_finding_of_generated_runs_lands_where_the_node_tree_puts_it():
    count = 0
    for spec_id in ("rag26", "ragtime25", "dragun25", "rag25-autojudge"):
        lines, _ = generate_run(spec_id, 120, 5)
        for line in lines:
            try:
                value = json.loads(line)
            except ValueError:
                continue
            text = "  " + line  # the report does not start at offset 0 of the file
            shared = Locator(text, 2, unique_keys=True)  # json.dumps never repeats a key
            for f in run_rules(value, get_spec(spec_id)).findings:
                _same(text, 2, f.pointer, f.target, shared)
                count += 1
    assert count > 500


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "c~/", "é", ""]), inner, max_size=4)
    ),
    max_leaves=20,
)


def _pointers(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _pointers(v, prefix + (k,))
        yield prefix + ("absent",)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _pointers(v, prefix + (i,))
        yield prefix + (len(value),)
        yield prefix + ("x",)
    else:
        yield prefix + ("below_a_scalar", 0)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.sampled_from([0, 1, 2]), st.booleans())
def test_arbitrary_json_and_pointers(value, indent, duplicate):
    text = json.dumps(value, indent=indent or None, ensure_ascii=False)
    if duplicate and text.startswith('{"'):
        text = '{"a": [1, {"b": 2}], ' + text[1:]  # a second "a" (or a first one) at the root
        if text.endswith(", }"):
            return
    try:
        json.loads(text)
    except ValueError:
        return
    shared = Locator(text, 0)
    unique = None if duplicate else Locator(text, 0, unique_keys=True)
    for tokens in _pointers(json.loads(text)):
        for target in Target:
            _same(text, 0, pointer_join(*tokens), target, shared)
            if unique is not None:
                _same(text, 0, pointer_join(*tokens), target, unique)
