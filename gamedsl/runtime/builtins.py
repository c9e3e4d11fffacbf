"""The built-in functions of the language, as run by the engine.

Each takes (ctx, span, *args). Their signatures for the checker live in
gamedsl/checker/signatures.py; tests keep the two lists of names equal.
"""

from __future__ import annotations

import marshal
import math
import operator

import attrs


from gamedsl.errors import RuleError
from gamedsl.runtime import rng, tiling
from gamedsl.runtime.ctx import MAX_WORK, charge
from gamedsl.runtime.values import (MAX_LENGTH, Builtin, as_list, bounded, cell_key, cell_sort_key, check_cell,
                                    grid_of, is_number, key_cell, nonempty, plain, sized, word_list, written_size,
                                    zone_items, CELL_KEYS)
from gamedsl.runtime.wordlists import ListError, WordList


# ---------------------------------------------------------------- helpers


def _numbers(v, span, what):
    items = as_list(v, span)
    for x in items:
        if not is_number(x):
            raise RuleError("E504", f"{what} needs numbers, not {plain(x)}", span)
    return items


# ---------------------------------------------------------------- arithmetic


def _num_op(f, symbol):
    def op(a, b, span):
        if not (is_number(a) and is_number(b)):
            raise RuleError("E504", f"cannot compute {plain(a)} {symbol} {plain(b)}", span)
        try:
            r = f(a, b)
        except ZeroDivisionError:
            raise RuleError("E504", f"division by zero ({plain(a)} {symbol} {plain(b)})", span) from None
        except OverflowError:
            r = math.inf
        bounded(r, span)
        if isinstance(r, float) and r.is_integer() and abs(r) < 2**53:
            return int(r)
        return r
    return op


def _add(a, b, span):
    t = type(a)
    if (t is list or t is str) and type(b) is t and len(a) + len(b) <= MAX_LENGTH:
        return a + b  # (the common case of the test below)
    if is_number(a) and is_number(b):
        return bounded(a + b, span)
    if isinstance(a, str) and isinstance(b, str) or isinstance(a, list) and isinstance(b, list):
        sized(range(len(a) + len(b)), span)
        return a + b
    raise RuleError("E504", f"cannot add {plain(a)} and {plain(b)}", span)


ARITH = {
    "+": _add,
    "-": _num_op(operator.sub, "-"),
    "*": _num_op(operator.mul, "*"),
    "/": _num_op(operator.truediv, "/"),
    "//": _num_op(operator.floordiv, "//"),
    "%": _num_op(operator.mod, "%"),
}
ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


# ---------------------------------------------------------------- lists and numbers


def _len(ctx, span, v):
    if isinstance(v, (list, str)):
        return len(v)
    raise RuleError("E504", f"len needs a list or a text, not {plain(v)}", span)


def _range(ctx, span, a, b):
    if not (is_number(a) and is_number(b)):
        raise RuleError("E504", "range needs two numbers", span)
    if b - a > 100_000:
        raise RuleError("E504", "range of more than 100000 numbers", span)
    return list(range(int(a), int(b) + 1))


def _distinct(ctx, span, v):
    out, seen = [], set()
    for x in as_list(v, span):
        k = repr(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def _sorted(ctx, span, v):
    try:
        return sorted(as_list(v, span))
    except TypeError:
        raise RuleError("E504", "sorted needs numbers or texts of one kind", span) from None


def in_order(name: str, order: dict):
    """sorted(L), min(L) or max(L) of an enum's values: by the order the enum declares them
    (`order`: word -> place), not as texts."""
    def place(x, span):
        try:
            return order[x]
        except (KeyError, TypeError):
            raise RuleError("E504", f"{name} cannot place {plain(x)} among {', '.join(order)}", span) from None

    if name == "sorted":
        def ordered(ctx, span, v):
            out = sorted(as_list(v, span), key=lambda x: place(x, span))
            charge(ctx, len(out), span)  # (as sorted(L) counts its result)
            return out
        return ordered
    pick = min if name == "min" else max

    def extreme(ctx, span, v):
        return pick(nonempty(v, span, name), key=lambda x: place(x, span))
    return extreme


def in_found_order(name: str, orders: list):
    """sorted(L), min(L), max(L) where which enum L's items belong to is not known before they
    are seen (a scenario's expression): by the order of the one enum holding all of them, if
    any, else as the plain function."""
    plain_fn = FUNCTIONS[name].impl

    def run(ctx, span, v):
        if type(v) is list and v and all(type(x) is str for x in v):
            for order in orders:
                if all(x in order for x in v):
                    return in_order(name, order)(ctx, span, v)
        return plain_fn(ctx, span, v)
    return run


def _first_last(name: str):
    """first(L) and last(L): an item; first(L, n) and last(L, n): the first (last) n items, all
    of them if L has fewer."""
    def pick(ctx, span, v, n=None):
        if n is None:
            items = nonempty(v, span, name)
            return items[0] if name == "first" else items[-1]
        items = as_list(v, span)
        if not (is_number(n) and n == int(n) and n >= 0):
            raise RuleError("E504", f"{name}(L, n) takes a whole number of items from 0, not {plain(n)}", span)
        n = int(n)
        return items[:n] if name == "first" else items[max(0, len(items) - n):]
    return pick


def _text(ctx, span, kind, v):
    if type(v) is list:
        sized(v, span)  # measured before it is written out (a list may hold one list many times)
        charge(ctx, written_size(v), span)
    return ctx.program.write(v, kind, ctx.cat)


# ---------------------------------------------------------------- players


def _seat(ctx, span, p):
    return p + 1


def _left_of(ctx, span, p):
    return (p + 1) % ctx.state["n"]


def _right_of(ctx, span, p):
    return (p - 1) % ctx.state["n"]


def _others(ctx, span, p):
    n = ctx.state["n"]
    return [(p + i) % n for i in range(1, n)]


def _players_from(ctx, span, p):
    n = ctx.state["n"]
    return [(p + i) % n for i in range(n)]


def _distance(ctx, span, a, b):
    return (b - a) % ctx.state["n"]


def _holder(ctx, span, c):
    where = ctx.state["where"][c]
    if where is None or where[1] < 0:
        return None
    return where[1]


def _random(ctx, span, v):
    items = nonempty(v, span, "random")
    return items[rng.below(ctx.state, len(items))]


# ---------------------------------------------------------------- zones and grids


def _top(ctx, span, zone, n):
    return zone_items(ctx.state, zone[0], zone[1])[: max(0, int(n))]


def _full(ctx, span, zone):
    capacity = ctx.program.zones[zone[0]].capacity
    return capacity is not None and len(zone_items(ctx.state, zone[0], zone[1])) >= capacity


def _cells(ctx, span, zone):
    z, size = grid_of(ctx, zone, span)
    if size is None:
        return [key_cell(k) for k in sorted(z, key=cell_sort_key)]
    w, h = size
    return [[x, y] for y in range(h) for x in range(w)]


_KEYED_CELLS: dict = {}  # (width, height) -> each cell's key and coordinates, row by row


def _empty_cells(ctx, span, zone):
    z, size = grid_of(ctx, zone, span)
    if size is not None:
        # (a choice's list at every listing: the cells' keys are written once per size)
        keyed = _KEYED_CELLS.get(size)
        if keyed is None:
            w, h = size
            keyed = _KEYED_CELLS[size] = [(f"{x},{y}", x, y) for y in range(h) for x in range(w)]
        return [[x, y] for k, x, y in keyed if k not in z]
    if not z:
        return [[0, 0]]
    frontier = set()
    for k in z:
        x, y = key_cell(k)
        for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            nk = f"{nx},{ny}"
            if nk not in z:
                frontier.add(nk)
    return [key_cell(k) for k in sorted(frontier, key=cell_sort_key)]


def _at(ctx, span, zone, cell):
    # (a game's hot spot: a grid's cell read in every line checked. The common case first, a
    # grid and a cell of two whole numbers, with the key cell_key would make)
    name, owner = zone
    z = ctx.state["zones"][name]
    if owner >= 0:
        z = z[owner]
    if type(z) is dict and type(cell) is list and len(cell) == 2:
        x, y = cell
        if type(x) is int and type(y) is int:
            return z.get(CELL_KEYS.get((x, y)) or f"{x},{y}")
    z, _ = grid_of(ctx, zone, span)
    return z.get(cell_key(check_cell(cell, span)))


def _neighbours(ctx, span, cell):
    x, y = check_cell(cell, span)
    return [[x, y - 1], [x + 1, y], [x, y + 1], [x - 1, y]]


def _lines(ctx, span, zone, n):
    _, size = grid_of(ctx, zone, span)
    if size is None:
        raise RuleError("E504", "lines needs a grid with a size (grid W by H)", span)
    w, h = size
    if not is_number(n):
        raise RuleError("E504", f"lines needs a number of cells, not {plain(n)}", span)
    n = int(min(n, w + h + 1))  # (longer lines fit no grid)
    # Counted before any is built: a long grid's long lines would fill the memory first.
    k = max(n, 1)
    across, down = max(0, w - k + 1), max(0, h - k + 1)
    charge(ctx, w * h + k * (across * h + w * down + 2 * across * down), span)
    known = _LINES.get((w, h, n))
    if known is None:
        known = []
        for y in range(h):
            for x in range(w):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    ex, ey = x + dx * (n - 1), y + dy * (n - 1)
                    if 0 <= ex < w and 0 <= ey < h:
                        known.append([[x + dx * i, y + dy * i] for i in range(n)])
        known = marshal.dumps(known)
        if len(_LINES) < 64:
            _LINES[(w, h, n)] = known
    # (a fresh list each time, no list in it held twice, as built: two places holding one
    # list would compare without work, see values.equal)
    return marshal.loads(known)


# a grid size's lines (w, h, n) -> the lines as marshal writes them: the same for every game
_LINES: dict = {}


# ---------------------------------------------------------------- sequences


def _distinct_numbers(v, span, what):
    return sorted({x for x in _numbers(v, span, what)})


def _runs(ctx, span, v, n):
    """Maximal runs of consecutive numbers (each number once), of at least n numbers."""
    out, run = [], []
    for x in _distinct_numbers(v, span, "runs"):
        if run and x == run[-1] + 1:
            run.append(x)
        else:
            if run and len(run) >= n:
                out.append(run)
            run = [x]
    if run and len(run) >= n:
        out.append(run)
    return out


def _longest_run(ctx, span, v):
    return max((len(r) for r in _runs(ctx, span, v, 1)), default=0)


def _chain(ctx, span, v, start, jokers):
    # Counted over the numbers held, not step by step: jokers may be many (10^15).
    jokers = max(0, math.floor(jokers))
    offsets = sorted({h - start for h in _numbers(v, span, "chain") if h >= start and float(h - start).is_integer()})
    length = used = 0   # the chain covers start .. start + length - 1, with `used` jokers
    for s in offsets:
        gap = int(s) - length   # numbers missing before this one
        if used + gap > jokers:
            break
        used, length = used + gap, int(s) + 1
    return length + (jokers - used)


def _same(x):
    """A key equal for equal values (2 and 2.0 alike), so counting and taking out items is
    one pass over a list, not a search of it per item (lists may hold 100,000 items)."""
    if isinstance(x, float) and x.is_integer():
        return repr(int(x))
    if isinstance(x, list):
        return "[" + ",".join(_same(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ",".join(f"{k!r}:{_same(v)}" for k, v in x.items()) + "}"
    return repr(x)


def _key(x):
    """_same's key, cheaper for the common items: a text or a whole number is its own key
    (a text never equals a number, and 2.0 is keyed as 2); anything else is _same's text in
    a tuple, which equals no text or number."""
    t = type(x)
    if t is str or t is int:
        return x
    if t is float and x.is_integer():
        return int(x)
    return (_same(x),)


def _counts(ctx, span, v):
    out: dict = {}
    for x in as_list(v, span):
        key = _key(x)
        if key in out:
            out[key][1] += 1
        else:
            out[key] = [x, 1]
    return list(out.values())


# ---------------------------------------------------------------- texts and multisets


def _texts(span, what, *values):
    for v in values:
        if type(v) is not str and not isinstance(v, str):
            raise RuleError("E504", f"{what} needs texts, not {plain(v)}", span)
    return values


def _letters(ctx, span, t):
    if type(t) is str:
        return list(t)
    return list(_texts(span, "letters_of", t)[0])


def _join(ctx, span, v, sep=""):
    texts = _texts(span, "join", *as_list(v, span))
    sep = _texts(span, "join", sep)[0]
    sized(range(sum(map(len, texts)) + len(sep) * len(texts)), span)  # measured before it is built
    return sep.join(texts)


def _replace(ctx, span, t, old, new):
    t, old, new = _texts(span, "replace", t, old, new)
    size = len(t)
    if len(new) > len(old):  # (counting the places only where the text grows)
        size += (t.count(old) if old else len(t) + 1) * (len(new) - len(old))
    if size > MAX_LENGTH:
        sized(range(size), span)
    return t.replace(old, new)


def _flatten(ctx, span, v):
    parts = [as_list(part, span) for part in as_list(v, span)]
    sized(range(sum(map(len, parts))), span)
    return [x for part in parts for x in part]


def _split(ctx, span, t, sep):
    t, sep = _texts(span, "split", t, sep)
    pieces = t.split(sep) if sep.strip() else t.split()
    return [p.strip() for p in pieces if p.strip()]


def _without(ctx, span, items, taken):
    # each item of `taken` takes out the first equal item still there
    taken = as_list(taken, span)
    items = as_list(items, span)
    if not taken:
        return list(items)
    owed: dict = {}
    for x in taken:
        key = _key(x)
        owed[key] = owed.get(key, 0) + 1
    out = []
    for x in items:
        key = _key(x)
        if owed.get(key):
            owed[key] -= 1
        else:
            out.append(x)
    return out


def _covers(ctx, span, items, wanted):
    have: dict = {}
    for x in as_list(items, span):
        key = _key(x)
        have[key] = have.get(key, 0) + 1
    for x in as_list(wanted, span):
        key = _key(x)
        if not have.get(key):
            return False
        have[key] -= 1
    return True


def _index_of(ctx, span, items, x):
    items = as_list(items, span)
    for i, item in enumerate(items):
        if item == x:
            return i
    raise RuleError("E504", f"index_of: {plain(x)} is not in the list", span)


def _formable(ctx, span, words, letters, doubles=0):
    word_list(span, "formable", words)
    if doubles not in (0, 1):
        raise RuleError("E504", f"formable lets one letter be used twice at most, not {plain(doubles)}", span)
    try:
        return words.formable(_texts(span, "formable", *as_list(letters, span)), doubles)
    except ListError as err:
        raise RuleError("E504", err.message, span) from None


def _matching(ctx, span, words, letters):
    return word_list(span, "matching", words).matching(_texts(span, "matching", *as_list(letters, span)))


def _fold(ctx, span, words, w):
    if type(w) is str and type(words) is WordList:
        return words.fold(w)
    return word_list(span, "fold", words).fold(_texts(span, "fold", w)[0])


def _reads(ctx, span, words, w, letters):
    wl = word_list(span, "reads", words)
    return wl.reads(_texts(span, "reads", w)[0], _texts(span, "reads", *as_list(letters, span)))


# The functions that, given a comprehension written as their argument, go through its items
# only as far as their value needs: `any` up to the first true item, `all` up to the first
# false one, `first` up to the first item kept. The items after it are never worked out, so
# neither their work nor their errors count.
STOPPING = frozenset({"any", "all", "first"})
DECIDED = {"any": True, "all": False}  # (the value the item that stops `any` or `all` gives)


FUNCTIONS = {
    "len": Builtin(_len),
    "sum": Builtin(lambda ctx, span, v: bounded(sum(_numbers(v, span, "sum")), span)),
    "max": Builtin(lambda ctx, span, v: max(_numbers(nonempty(v, span, "max"), span, "max")), yields="same"),
    "min": Builtin(lambda ctx, span, v: min(_numbers(nonempty(v, span, "min"), span, "min")), yields="same"),
    "abs": Builtin(lambda ctx, span, v: abs(_numbers([v], span, "abs")[0])),
    "ceil": Builtin(lambda ctx, span, v: math.ceil(_numbers([v], span, "ceil")[0])),
    "floor": Builtin(lambda ctx, span, v: math.floor(_numbers([v], span, "floor")[0])),
    "any": Builtin(lambda ctx, span, v: any(as_list(v, span))),
    "all": Builtin(lambda ctx, span, v: all(as_list(v, span))),
    "first": Builtin(_first_last("first"), yields="same"),
    "last": Builtin(_first_last("last"), yields="same"),
    "range": Builtin(_range),
    "sorted": Builtin(_sorted, yields="same"),
    "reversed": Builtin(lambda ctx, span, v: list(reversed(as_list(v, span))), yields="same"),
    "distinct": Builtin(_distinct, yields="same"),
    "count": Builtin(lambda ctx, span, v, x: as_list(v, span).count(x)),
    "top": Builtin(_top, zone_args=frozenset({0}), yields="component"),
    "full": Builtin(_full, zone_args=frozenset({0})),
    "text": Builtin(_text, wants_kind=True),
    "seat": Builtin(_seat),
    "left_of": Builtin(_left_of, yields="player"),
    "right_of": Builtin(_right_of, yields="player"),
    "others": Builtin(_others, yields="player"),
    "players_from": Builtin(_players_from, yields="player"),
    "distance": Builtin(_distance),
    "holder": Builtin(_holder, yields="player"),
    "random": Builtin(_random, impure=True, yields="same"),
    "rows": Builtin(lambda ctx, span, v: v),  # compiled specially: its argument is a table
    "cells": Builtin(_cells, zone_args=frozenset({0}), yields="cell"),
    "empty_cells": Builtin(_empty_cells, zone_args=frozenset({0}), yields="cell"),
    "at": Builtin(_at, zone_args=frozenset({0}), yields="component"),
    "neighbours": Builtin(_neighbours, yields="cell"),
    "lines": Builtin(_lines, zone_args=frozenset({0}), yields="cell"),
    "runs": Builtin(_runs),
    "longest_run": Builtin(_longest_run),
    "chain": Builtin(_chain),
    "counts": Builtin(_counts),
    "letters_of": Builtin(_letters),
    "upper": Builtin(lambda ctx, span, t: _texts(span, "upper", t)[0].upper()),
    "lower": Builtin(lambda ctx, span, t: _texts(span, "lower", t)[0].lower()),
    "replace": Builtin(_replace),
    "starts_with": Builtin(lambda ctx, span, t, s: str.startswith(*_texts(span, "starts_with", t, s))),
    "ends_with": Builtin(lambda ctx, span, t, s: str.endswith(*_texts(span, "ends_with", t, s))),
    "join": Builtin(_join),
    "split": Builtin(_split),
    "flatten": Builtin(_flatten, yields="same"),
    "covers": Builtin(_covers),
    "without": Builtin(_without, yields="same"),
    "formable": Builtin(_formable),
    "matching": Builtin(_matching),
    "fold": Builtin(_fold),
    "reads": Builtin(_reads),
    "index_of": Builtin(_index_of),
}


def _counted(impl):
    """A built-in function whose result is counted as work once built: the items of a list
    (a range, the letters of a text), a text by the 64 characters (built by the C library, far
    cheaper per item). What it was given is counted by the compiled code (a list argument's
    items), so a long value made again and again in a loop or a comprehension is bounded by
    the work limits, not by the memory."""
    def counted(ctx, span, *args):
        try:
            out = impl(ctx, span, *args)
        except ListError as err:  # (a word list's file, read on first use)
            if err.span is not None:
                raise
            raise RuleError("E504", err.message, span) from None
        t = type(out)
        if t is list:
            ctx.work += len(out)
        elif t is str:
            ctx.work += len(out) // 64
        else:
            return out
        if ctx.work > MAX_WORK:
            charge(ctx, 0, span)  # (says so)
        return out
    counted.__name__ = getattr(impl, "__name__", "counted")
    return counted


# (functions whose result may be long while what they are given is short, or a text:
# the others' results are no longer than the lists given to them, counted already)
for _name in ("range", "cells", "empty_cells", "letters_of", "upper", "lower", "replace", "join",
              "split", "flatten", "top", "runs", "text", "matching", "formable", "distinct",
              "sorted", "reversed", "without", "counts", "reads", "fold"):
    FUNCTIONS[_name] = attrs.evolve(FUNCTIONS[_name], impl=_counted(FUNCTIONS[_name].impl))


# ---------------------------------------------------------------- the common case first
# Word games call these for every word they check (each suggested word of a listing: tens of
# thousands of times a game). Each answers the common case itself (plain texts, lists of
# texts), charging its result as _counted does (added in place: `charge` only says it went past
# the limit); anything else goes to the general version above, which gives the same answer or
# the same error.


def _quick(name: str):
    """The decorated function answers `name` in the common case, the general one the rest."""
    def register(fast):
        fast.general = FUNCTIONS[name].impl
        FUNCTIONS[name] = attrs.evolve(FUNCTIONS[name], impl=fast)
        return fast
    return register


@_quick("letters_of")
def _letters_quick(ctx, span, t):
    if type(t) is not str:
        return _letters_quick.general(ctx, span, t)
    out = list(t)
    ctx.work += len(out)
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


def _quick_case(name: str, convert):
    """`upper` or `lower` (`convert`, the text's own method) of a text."""
    @_quick(name)
    def quick(ctx, span, t):
        if type(t) is not str:
            return quick.general(ctx, span, t)
        out = convert(t)
        ctx.work += len(out) >> 6
        if ctx.work > MAX_WORK:
            charge(ctx, 0, span)  # (says so)
        return out
    return quick


_quick_case("upper", str.upper)
_quick_case("lower", str.lower)


@_quick("replace")
def _replace_quick(ctx, span, t, old, new):
    # (a text that cannot grow: no size to measure first)
    if not (type(t) is str and type(old) is str and type(new) is str and len(new) <= len(old)
            and len(t) <= MAX_LENGTH):
        return _replace_quick.general(ctx, span, t, old, new)
    out = t.replace(old, new)
    ctx.work += len(out) >> 6
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


@_quick("split")
def _split_quick(ctx, span, t, sep):
    if not (type(t) is str and type(sep) is str):
        return _split_quick.general(ctx, span, t, sep)
    out = [p for p in map(str.strip, t.split(sep) if sep.strip() else t.split()) if p]
    ctx.work += len(out)
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


@_quick("join")
def _join_quick(ctx, span, v, sep=""):
    if type(v) is not list or type(sep) is not str:
        return _join_quick.general(ctx, span, v, sep)
    size = len(sep) * len(v)
    for x in v:
        if type(x) is not str:
            return _join_quick.general(ctx, span, v, sep)
        size += len(x)
    if size > MAX_LENGTH:
        return _join_quick.general(ctx, span, v, sep)
    out = sep.join(v)
    ctx.work += len(out) >> 6
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


@_quick("flatten")
def _flatten_quick(ctx, span, v):
    if type(v) is not list:
        return _flatten_quick.general(ctx, span, v)
    size = 0
    for part in v:
        if type(part) is not list:
            return _flatten_quick.general(ctx, span, v)
        size += len(part)
    if size > MAX_LENGTH:
        return _flatten_quick.general(ctx, span, v)
    out = [x for part in v for x in part]
    ctx.work += len(out)
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


# Up to how many comparisons (items times taken items) a list is searched for each taken
# item (in C) rather than the taken items counted first.
_FEW_COMPARED = 256


@_quick("without")
def _without_quick(ctx, span, items, taken):
    if type(items) is not list or type(taken) is not list:
        return _without_quick.general(ctx, span, items, taken)
    # Texts taken: a text equals only the same text, so == (in C) finds what _key finds.
    if len(items) * len(taken) <= _FEW_COMPARED:
        out = list(items)
        for x in taken:
            if type(x) is not str:
                out = _without(ctx, span, items, taken)
                break
            if x in out:
                out.remove(x)
    else:
        for x in taken:
            if type(x) is not str:
                out = _without(ctx, span, items, taken)
                break
        else:
            owed: dict = {}
            for x in taken:
                owed[x] = owed.get(x, 0) + 1
            out = []
            for x in items:
                if type(x) is str:
                    n = owed.get(x)
                    if n:
                        owed[x] = n - 1
                        continue
                out.append(x)
    ctx.work += len(out)
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


@_quick("range")
def _range_quick(ctx, span, a, b):
    if not (type(a) is int and type(b) is int and b - a <= 100_000):
        return _range_quick.general(ctx, span, a, b)
    out = list(range(a, b + 1))
    ctx.work += len(out)
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


@_quick("fold")
def _fold_quick(ctx, span, words, w):
    if type(w) is not str or type(words) is not WordList:
        return _fold_quick.general(ctx, span, words, w)
    out = words.fold(w)
    ctx.work += len(out) >> 6
    if ctx.work > MAX_WORK:
        charge(ctx, 0, span)  # (says so)
    return out


@_quick("count")
def _count_quick(ctx, span, v, x):
    if type(v) is list:
        return v.count(x)
    return _count_quick.general(ctx, span, v, x)


@_quick("covers")
def _covers_quick(ctx, span, items, wanted):
    if type(items) is not list or type(wanted) is not list:
        return _covers_quick.general(ctx, span, items, wanted)
    # Texts wanted: a text equals only the same text, so == (in C) finds what _key finds.
    left = None
    for x in wanted:
        if type(x) is not str:
            return _covers_quick.general(ctx, span, items, wanted)
        if left is None:
            if x not in items:
                return False
            left = list(items)
        elif x not in left:
            return False
        left.remove(x)
    return True


@_quick("ends_with")
def _ends_with_quick(ctx, span, t, s):
    if type(t) is str and type(s) is str:
        return t.endswith(s)
    return _ends_with_quick.general(ctx, span, t, s)


@_quick("starts_with")
def _starts_with_quick(ctx, span, t, s):
    if type(t) is str and type(s) is str:
        return t.startswith(s)
    return _starts_with_quick.general(ctx, span, t, s)


FUNCTIONS.update({
    "face": Builtin(tiling.face, zone_args=frozenset({0})),
    "placements": Builtin(tiling.placements, zone_args=frozenset({0})),
    "word_lines": Builtin(tiling.word_lines, zone_args=frozenset({1})),
    "word_placements": Builtin(tiling.word_placements, zone_args=frozenset({1})),
    "picks": Builtin(tiling.picks),
    "assignable": Builtin(tiling.assignable),
})
for _name in ("placements", "word_lines", "word_placements", "picks"):
    FUNCTIONS[_name] = attrs.evolve(FUNCTIONS[_name], impl=_counted(FUNCTIONS[_name].impl))
