"""The memo of a listing keeps a def's value by its arguments: two calls share a value exactly
when their arguments are written alike (the same values of the same kinds: true is not 1, 1.0
is not 1), whichever objects hold them. The key is what both back ends build."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from gamedsl.runtime.ctx import memo_key
from gamedsl.runtime.wordlists import Folding, WordList

WORDS = WordList("memo.txt", lambda: "apple\n", Folding(fold=()))

plain = st.one_of(st.text(alphabet="aAß1 ", max_size=4), st.integers(-2, 2), st.sampled_from(
    [0.0, -0.0, 1.0, 0.5, 2**40, True, False, None]))
values = st.recursive(plain, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2)), max_leaves=8)


def _copy(v):
    """The same value in other objects (texts made anew, not interned)."""
    if type(v) is list:
        return [_copy(x) for x in v]
    if type(v) is dict:
        return {_copy(k): _copy(x) for k, x in v.items()}
    if type(v) is str:
        return "".join(list(v))
    return v


@settings(max_examples=500, deadline=None)
@given(a=st.lists(values, min_size=1, max_size=3), b=st.lists(values, min_size=1, max_size=3))
def test_two_calls_share_a_key_exactly_when_their_arguments_are_written_alike(a, b):
    assert (memo_key("f", a) == memo_key("f", b)) == (repr(a) == repr(b))
    assert memo_key("f", a) == memo_key("f", _copy(a))
    assert memo_key("f", a) != memo_key("g", a)


def test_a_key_does_not_depend_on_which_objects_hold_the_values():
    shared = sys.intern("held twice")
    assert memo_key("f", [[shared, shared]]) == memo_key("f", [["held" + " twice", "".join(["held twice"])]])
    assert memo_key("f", [[1]]) != memo_key("f", [[True]]) != memo_key("f", [[1.0]])
    assert memo_key("f", [[WORDS]]) == memo_key("f", [[WORDS]])  # (what marshal cannot write: its repr)
