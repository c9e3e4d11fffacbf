"""The built-in functions the word games call most answer the common case themselves and
leave the rest to their general version (`impl.general`). Both must agree on everything the
rules can see: the value, the work charged (so a runaway stops at the same point), and the
error, for any arguments."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedsl.errors import RuleError
from gamedsl.runtime.builtins import FUNCTIONS
from gamedsl.runtime.ctx import MAX_WORK, Ctx
from gamedsl.runtime.values import MAX_LENGTH
from gamedsl.runtime.wordlists import Folding, WordList

QUICK = sorted(name for name, spec in FUNCTIONS.items() if hasattr(spec.impl, "general"))

WORDS = WordList("quick.txt", lambda: "apple\nbanana\nkiwi\n", Folding(fold=(("Q", "K"),)))

texts = st.text(alphabet="abQK S+()ßŉ,-", max_size=12)
plain = st.one_of(texts, st.integers(-3, 12), st.sampled_from([0.5, 2.0, True, False, None]))
values = st.one_of(plain, st.lists(plain, max_size=8), st.lists(st.lists(plain, max_size=4), max_size=4),
                   st.lists(texts, max_size=12), st.just(WORDS))


def outcome(fn, work, args):
    ctx = Ctx(None, None, {}, None)
    ctx.work = work
    try:
        out = fn(ctx, None, *args)
    except RuleError as err:
        return ("error", err.code, err.message, ctx.work)
    except Exception as err:  # noqa: BLE001 - the closures turn these into E504; both must raise alike
        return ("raised", type(err).__name__, ctx.work)
    assert not any(out is a for a in args if type(a) is list), "a list handed back is the rules' own"
    return ("value", type(out).__name__, out, ctx.work)


def arities(name):
    params = list(inspect.signature(FUNCTIONS[name].impl).parameters.values())[2:]
    least = sum(1 for p in params if p.default is inspect.Parameter.empty)
    return range(least, len(params) + 1)


def test_the_word_games_functions_are_quick():
    assert {"letters_of", "upper", "replace", "split", "join", "flatten", "without", "range", "fold",
            "count", "covers"} <= set(QUICK)


@pytest.mark.parametrize("name", QUICK)
@settings(max_examples=300, deadline=None)
@given(data=st.data(), work=st.sampled_from([0, 1000, MAX_WORK - 3, MAX_WORK - 1, MAX_WORK]))
def test_quick_and_general_agree(name, data, work):
    impl = FUNCTIONS[name].impl
    n = data.draw(st.sampled_from(list(arities(name))))
    args = data.draw(st.tuples(*[values] * n))
    if name == "range":  # (numbers mostly: the common case)
        args = data.draw(st.tuples(st.integers(-5, 30), st.one_of(st.integers(-5, 30), plain)))
    if name == "without":  # (texts taken from texts mostly, as the word games do)
        letters = st.lists(st.sampled_from("ABCS"), max_size=20)
        args = data.draw(st.one_of(st.tuples(letters, letters), st.tuples(values, values)))
    assert outcome(impl, work, args) == outcome(impl.general, work, args)


@pytest.mark.parametrize("name, args", [
    ("join", (["x" * (MAX_LENGTH // 2)] * 2, "-")),
    ("join", (["x" * 700, "y"], "")),
    ("flatten", ([list(range(MAX_LENGTH // 2))] * 3,)),
    ("replace", ("ab" * 100, "ab", "")),
    ("range", (0, 100_001)),
    ("range", (1, 100_001)),
    ("without", (list("AABBCS") * 30, list("ABS") * 10)),
    ("letters_of", ("x" * 5000,)),
    ("upper", ("ß" * 40,)),  # (longer once upper-cased: the result is what is charged)
])
@pytest.mark.parametrize("work", [0, MAX_WORK - 20, MAX_WORK - 5000])
def test_quick_and_general_agree_on_long_values(name, args, work):
    impl = FUNCTIONS[name].impl
    assert outcome(impl, work, args) == outcome(impl.general, work, args)
