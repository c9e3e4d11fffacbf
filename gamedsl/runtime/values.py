"""Values at run time as plain JSON data: numbers, texts, cells, lists — their checks and how
a person reads them. Shared by the built-in functions, the tile builtins and the machine.
"""

from __future__ import annotations

from typing import Callable, Optional

import attrs

from gamedsl.errors import RuleError
from gamedsl.runtime.ctx import charge
from gamedsl.language import MAX_NUMBER
from gamedsl.runtime.wordlists import WordList


MAX_LENGTH = 1_000_000


@attrs.frozen
class Builtin:
    impl: Callable
    zone_args: frozenset = frozenset()
    impure: bool = False
    yields: Optional[str] = None  # 'player', 'component', 'cell', 'same' (as the first argument)
    wants_kind: bool = False      # receives the value kind of its first argument (for writing it)


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def plain(v) -> str:
    """A value written without knowing its kind (for messages)."""
    if v is None:
        return "none"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list):
        return "[" + ", ".join(plain(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {plain(x)}" for k, x in v.items()) + "}"
    return str(v)


def as_list(v, span) -> list:
    if isinstance(v, list):
        return v
    if isinstance(v, str):
        return list(v)
    raise RuleError("E504", f"a list is needed here, not {plain(v)}", span)


def nonempty(v, span, what):
    items = as_list(v, span)
    if not items:
        raise RuleError("E504", f"{what} of an empty list", span)
    return items


def cell_key(cell) -> str:
    return f"{int(cell[0])},{int(cell[1])}"


# The keys of the cells of the grids games have, by their two whole numbers: read from here a
# key costs a look-up, not a text written (the hot spot of a grid's lines checked cell by cell).
CELL_KEYS = {(x, y): f"{x},{y}" for x in range(-2, 34) for y in range(-2, 34)}


def key_cell(key: str) -> list:
    x, y = key.split(",")
    return [int(x), int(y)]


def cell_sort_key(key: str):
    x, y = key.split(",")
    return (int(y), int(x))


_COORDINATE_TYPES = (int, float)  # exact types: true is not a coordinate


def is_cell(c) -> bool:
    """A list of two numbers. (Asked for every placement a word game lists: the common case
    is checked first, by exact types.)"""
    if type(c) is list and len(c) == 2:
        x, y = c
        if type(x) in _COORDINATE_TYPES and type(y) in _COORDINATE_TYPES:
            return True
    return isinstance(c, list) and len(c) == 2 and all(is_number(v) for v in c)


def check_cell(c, span):
    if not is_cell(c):
        raise RuleError("E504", f"a cell (x, y) is needed, not {plain(c)}", span)
    return c


def bounded(r, span):
    """A computed number, refused (E504) beyond ±MAX_NUMBER or when it is no number at all (nan)."""
    if not -MAX_NUMBER <= r <= MAX_NUMBER:
        raise RuleError("E504", f"a number beyond ±{MAX_NUMBER:.0e}: the rules compute without end?", span)
    return r


def grid_of(ctx, zone, span):
    name, owner = zone
    z = ctx.state["zones"][name]
    if owner >= 0:
        z = z[owner]
    if not isinstance(z, dict):
        raise RuleError("E504", f"'{name}' is not a grid", span)
    return z, ctx.program.grid_size(name)


def sized(v, span):
    """A text or list built by a rule, refused (E504) when longer than MAX_LENGTH, counting the
    items of the lists a list holds (one list held many times counts each time: written out,
    sent or saved, it is that long)."""
    if len(v) > MAX_LENGTH or (type(v) is list and written_size(v) > MAX_LENGTH):
        raise RuleError("E504", f"a text or list longer than {MAX_LENGTH:,} (counting the items of the "
                        "lists it holds): the rules grow it without end?", span)
    return v


def _holds_lists(x: list) -> bool:
    # The checker gives a list's items one type: lists hold lists throughout or not at all
    # (bar none, in a list of optional values), so its ends tell.
    return bool(x) and (type(x[0]) is list or type(x[-1]) is list)


def written_size(v: list, most: int = MAX_LENGTH) -> int:
    """The items of `v` and of the lists it holds, at every depth, counted as written out (a
    list held twice, twice), stopping past `most`; nesting deeper than MAX_NESTING counts as
    too long (it would be written by recursion)."""
    total, todo = 0, [(v, 0)]
    while todo:
        x, depth = todo.pop()
        total += len(x)
        if total > most or depth > MAX_NESTING:
            return most + 1
        if _holds_lists(x):
            todo.extend((y, depth + 1) for y in x if type(y) is list)
    return total


MAX_NESTING = 100  # lists in lists in lists...: the real games nest three deep


def equal(ctx, a, b, span) -> bool:
    """`a == b` for values of the rules, its work counted. Two lists that hold the same list
    many times (`[l for x in L]`) are compared once per pair of lists met, not once per
    time they are held: Python's own == would compare them item by item, for ever."""
    if type(a) is not list or type(b) is not list:
        return a == b
    if a is b:
        return True
    seen, todo = set(), [(a, b)]
    while todo:
        x, y = todo.pop()
        if len(x) != len(y):
            return False
        pair = (id(x), id(y))
        if pair in seen:
            continue
        seen.add(pair)
        charge(ctx, len(x), span)
        if _holds_lists(x) or _holds_lists(y):
            for u, w in zip(x, y):
                if type(u) is list and type(w) is list:
                    if u is not w:
                        todo.append((u, w))
                elif u != w:
                    return False
        elif x != y:
            return False
    return True


def word_list(span, what, words):
    if not isinstance(words, WordList):
        raise RuleError("E504", f"{what} needs a word list, not {plain(words)}", span)
    return words


def in_round(state: dict) -> list:
    """The players who have not left this round (`leave round`), in seat order."""
    out = state["flow"].get("out") or ()
    return [p for p in range(state["n"]) if p not in out]


def zone_items(state: dict, name: str, owner: int) -> list:
    z = state["zones"][name]
    if owner >= 0:
        z = z[owner]
    if isinstance(z, dict):  # a grid: its components, in cell order (a piece with faces once)
        return list(dict.fromkeys(z[k] for k in sorted(z, key=cell_sort_key)))
    return list(z)
