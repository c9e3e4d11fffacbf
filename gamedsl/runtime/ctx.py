"""What a compiled expression reads while it runs, and the limits on its work.

`Ctx` is handed to every closure and generated function the compiler makes; the memo key
and the work limits are shared by both kinds of compiled expression.
"""

from __future__ import annotations

from marshal import dumps
from typing import Callable

from gamedsl.errors import RuleError


Fn = Callable[["Ctx"], object]


MAX_CALL_DEPTH = 200


# Values one expression may go through (def calls, items of comprehensions and sorts, the
# lists given to functions and to 'in') before it is taken for a runaway: a def that calls
# itself twice per call is only n deep, yet takes 2**n calls, which neither the step budget
# nor the depth limit would stop. The real games need less than 200,000.
MAX_WORK = 2_000_000


# How many of those values count as one step of the run's step budget (--max-steps): the
# budget stops a run of statements that each stay under MAX_WORK but add up without end (a
# loop whose every turn goes through a long list). A step is a statement; a value gone through
# costs about a hundredth of one.
WORK_PER_STEP = 100


class Ctx:
    """What an expression reads: the program, the state, the local names, the catalogue."""

    __slots__ = ("program", "state", "env", "cat", "pure", "depth", "memo", "work", "observer")

    def __init__(self, program, state, env, cat, pure=False, observer=None):
        self.program, self.state, self.env, self.cat = program, state, env, cat
        self.pure, self.depth, self.work = pure, 0, 0
        self.observer = observer  # told of the table rows looked up (gamedsl/runtime/observer.py)
        # Listing legal moves reads a state that does not change meanwhile, and a def sees
        # only its arguments and the state: there, each def's value for the same arguments
        # is computed once (a dict here; None elsewhere).
        self.memo = None


PLAIN_KEY_TYPES = frozenset({int, str, type(None)})


WRITTEN_KEY = object()


def memo_key(name: str, values: list) -> tuple:
    """The memo's key for a def called with `values`: equal exactly when the values are
    written alike. Numbers, texts and none are their own key (their exact types: true is not
    1, 1.5 not a text); anything else is written out."""
    for v in values:
        if type(v) not in PLAIN_KEY_TYPES:
            return (name, WRITTEN_KEY, written(values))
    return (name, *values)


def written(values: list):
    """`values` written out, equal exactly when they are written alike: in marshal's first
    format, which keeps each value's exact type (true is not 1, 1.0 not 1) and, unlike the
    later ones, writes equal values alike whether or not they are one object or an interned
    text; and faster than `repr`. A value marshal cannot write is written with `repr`."""
    try:
        return dumps(values, 0)
    except ValueError:
        return repr(values)


def charge(ctx: Ctx, work: int, span) -> None:
    """Count `work` values gone through (a built-in function's items, components an effect
    moves) as the compiled code counts its own: against the expression's MAX_WORK here, and
    against the run's step budget when the machine adds up the statement's work."""
    ctx.work += work
    if ctx.work > MAX_WORK:
        raise RuleError("E501", f"an expression went through more than {MAX_WORK:,} values: long lists "
                        "gone through for each item of another, or a function that calls itself "
                        "more than once?", span, "compute the value in steps, or over shorter lists")
