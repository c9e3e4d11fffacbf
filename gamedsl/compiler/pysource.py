"""Expressions compiled to Python source, for speed; the closures of exprs.py stay the judge.

A rule's expression is first run by its closures (gamedsl/compiler/closures.py). Once it has run twice,
its tree is written out as one Python function — local names as Python variables, list
comprehensions as Python's, each `def` as a Python function calling the others directly —
compiled with `compile()` and run from then on. Python runs that much faster than a tree of
closures, each a call: the scores and guards a search evaluates at every step are mostly
comprehensions over zones and calls of defs. The expressions of a block's statements are
written straight into the block's function (`inline`, used by gamedsl/compiler/backend.py).
What would still cost a call for each item of a list — a small def called in a
comprehension, a grid's cell read — is written as statements run before the expression's
value is read: loops, `if`s and plain lookups (see `_lowered`).

As in the blocks' source, the rules' names never become code: a name (a variable's, a
zone's, an attribute's, a def's) is a value of the namespace the code runs in, and the
source mentions only the generator's identifiers, numbers and the state's own keys. The
checker's types decide which reads are direct (a component's attribute or state, a player's
variable, a grid's cell). A reading of one value made twice in an expression is made once
where the first one always runs before the second (see `_shared_work`).

The generated code covers the way values go when nothing is wrong. Whenever it meets
anything else — a value of an unexpected kind, a missing name, a table without the row, too
much work or too deep a recursion — it gives up (any exception), and the same expression is
run again by its closures, which raise the diagnostic with its line, or answer. That is safe
because expressions have no effects (a random draw, the one impure function, is never
generated), and it keeps a single definition of every error. The generated code charges the
same work as the closures, so a runaway stops at the same point.
"""

from __future__ import annotations

import hashlib
import re
from itertools import product
from typing import Dict, List, Optional

import attrs

from gamedsl.diagnostics import Span
from gamedsl.files import real_path
from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.runtime import builtins as B
from gamedsl.runtime import values as V
from gamedsl.runtime.ctx import MAX_CALL_DEPTH, MAX_WORK, PLAIN_KEY_TYPES, WRITTEN_KEY, written
from gamedsl.compiler.kinds import kind_of_type, named_constant, value_kind
from gamedsl.runtime.values import CELL_KEYS, in_round, zone_items

# A whole expression is generated only when it is big enough to gain from it.
_MIN_NODES = 4

# The first line of a function written before its name is known (see _named_function).
_UNNAMED = "def _"

# The plain values a constant's key may be written from (their repr says what they are).
_PLAIN_CONSTANTS = (str, int, float, bool, type(None))


def _stable(value) -> Optional[str]:
    """`value` as a text that says what it is and is the same in every process (a name of
    the namespace is made from it), or None: plain data (and where the rules are: a place in
    a file), not a function or an object."""
    t = type(value)
    if t in _PLAIN_CONSTANTS:
        return f"{t.__name__}:{value!r}"
    if t is Span:
        return f"Span:{_placed(value)}"
    if t is list or t is tuple:
        parts = [_stable(v) for v in value]
        return None if None in parts else f"{t.__name__}[{', '.join(parts)}]"
    if t is dict:
        parts = [_stable(v) for kv in value.items() for v in kv]
        return None if None in parts else f"dict[{', '.join(parts)}]"
    return None


def _placed(node) -> str:
    """A syntax node (or a span) written out as `repr` writes it, but each file named by its
    real path: the same rules read through another spelling of their file's path (relative,
    from another folder) give the same names, so the same sources and the code kept for them."""
    t = type(node)
    if t is Span:
        return f"Span({real_path(node.file)!r}, {node.line}, {node.col}, {node.end_line}, {node.end_col})"
    if attrs.has(t):
        return f"{t.__name__}({', '.join(_placed(getattr(node, f.name)) for f in attrs.fields(t))})"
    if t is list or t is tuple:
        inner = ", ".join(_placed(v) for v in node)
        return f"[{inner}]" if t is list else f"({inner},)"
    return repr(node)


class Unsupported(Exception):
    """This expression is left to the closures."""


class GiveUp(Exception):
    """Raised by the generated code: let the closures run this expression."""


def worth_generating(e) -> bool:
    """A def call or a comprehension is worth it; otherwise an expression of a few nodes."""
    for count, node in enumerate(A.walk(e), 1):
        if count >= _MIN_NODES or isinstance(node, (A.Comprehension, A.Sort)) or (
                isinstance(node, A.Call) and node.name not in B.FUNCTIONS):
            return True
    return False


# ---------------------------------------------------------------- what the generated code calls


def _items(ctx, v):
    """A comprehension's or sort's items, charged as the closures charge them."""
    if type(v) is not list:
        if not isinstance(v, (list, str)):
            raise GiveUp
        v = list(v)
    ctx.work += len(v)
    if ctx.work > MAX_WORK:
        raise GiveUp
    return v


def _items_calls(ctx, v, calls: int, dp: int):
    """A comprehension's items, charged as _items charges them and `calls` more for each: the
    calls of a def written out in its element (see SourceCompiler._inlined), at depth `dp`."""
    if type(v) is not list:
        if not isinstance(v, (list, str)):
            raise GiveUp
        v = list(v)
    ctx.work += len(v) * (1 + calls)
    if ctx.work > MAX_WORK or (calls and v and dp >= MAX_CALL_DEPTH):
        raise GiveUp
    return v


def _zone_walk(ctx, st, name, owner):
    """A zone's items for a comprehension to go through, charged as _items charges them: the
    zone's own list, not a copy (the comprehension only reads it), where it is a list."""
    z = st["zones"][name]
    if owner >= 0:
        z = z[owner]
    if type(z) is not list:
        z = zone_items(st, name, owner)
    ctx.work += len(z)
    if ctx.work > MAX_WORK:
        raise GiveUp
    return z


def _zone_len(ctx, st, name, owner):
    """`len` of a zone, charged as _g_len charges the zone's items."""
    return len(_zone_walk(ctx, st, name, owner))


def _charged(ctx, v):
    """A function's argument: a list is charged its length."""
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
    return v


def _at_shared(ctx, impl, span, name, cell):
    """`at(zone, cell)` of a zone of the table: the argument charged as _charged would, then
    the common case (a grid, a cell of two whole numbers) read straight from its key."""
    if type(cell) is list:
        ctx.work += len(cell)
        if ctx.work > MAX_WORK:
            raise GiveUp
        if len(cell) == 2:
            z = ctx.state["zones"][name]
            x, y = cell
            if type(z) is dict and type(x) is int and type(y) is int:
                return z.get(f"{x},{y}")
    return impl(ctx, span, (name, -1), cell)


def _at_grid(ctx, z, cell):
    """`at(zone, cell)` of a zone of the table the checker knows is a grid (`z`, its cells by
    key): a cell of two whole numbers charged as _charged would (its length) and read by its
    key; anything else is the closures' to judge."""
    if type(cell) is list and len(cell) == 2:
        x, y = cell
        if type(x) is int and type(y) is int:
            ctx.work += 2
            if ctx.work > MAX_WORK:
                raise GiveUp
            return z.get(CELL_KEYS.get((x, y)) or f"{x},{y}")
    raise GiveUp  # (the work it charged before giving up is of no account: see root())


def _again(ctx, work, v):
    """A value computed before in the same expression, charged the work its first reading
    charged (a grid's cell read again: its two coordinates)."""
    ctx.work += work
    if ctx.work > MAX_WORK:
        raise GiveUp
    return v


def _container(ctx, v):
    """The right side of `in`."""
    if type(v) is list:  # (charged as _charged charges it)
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        return v
    if v is None:
        raise GiveUp
    if type(v) is str:  # a text searched: by the 64 characters, as the closures count it
        ctx.work += len(v) >> 6
        if ctx.work > MAX_WORK:
            raise GiveUp
        return v
    return _charged(ctx, v)


_MAX_NUMBER = V.MAX_NUMBER


_SLOW_MINUS, _SLOW_TIMES = B.ARITH["-"], B.ARITH["*"]


def _minus(a, b, span):
    if type(a) is int and type(b) is int:
        r = a - b
        if -_MAX_NUMBER <= r <= _MAX_NUMBER:
            return r
    return _SLOW_MINUS(a, b, span)  # (anything else, or beyond the bounds: it says so)


def _times(a, b, span):
    if type(a) is int and type(b) is int:
        r = a * b
        if -_MAX_NUMBER <= r <= _MAX_NUMBER:
            return r
    return _SLOW_TIMES(a, b, span)


def _plus(a, b, span):
    if type(a) is int and type(b) is int:
        r = a + b
        if -_MAX_NUMBER <= r <= _MAX_NUMBER:
            return r
    elif type(a) is str and type(b) is str and len(a) + len(b) <= V.MAX_LENGTH:
        return a + b  # (the messages of a game's log are texts added up)
    return B.ARITH["+"](a, b, span)


_ARITH = {"+": _plus, "-": _minus, "*": _times}


def _texts(*parts):
    """Texts added up (`a + b + c`, a text for the checker), in one go: within a text's
    greatest length as a whole, so was every sum on the way."""
    for p in parts:
        if type(p) is not str:
            raise GiveUp
    out = "".join(parts)
    if len(out) > V.MAX_LENGTH:
        raise GiveUp
    return out


def _g_text(ctx, kind, v):
    """`text(v)` of a whole number, a player, a component or a text (`kind`: what v is for
    the checker) as Program.write writes it, charged as the built-in charges its text."""
    if type(v) is int:
        if kind == "player":
            out = f"P{v + 1}"
        elif kind == "component" and 0 <= v < len(ctx.cat.show):
            out = ctx.cat.show[v]
        else:
            out = str(v)
    elif type(v) is str:
        out = v
    else:
        raise GiveUp
    ctx.work += len(out) // 64
    if ctx.work > MAX_WORK:
        raise GiveUp
    return out


def _all_ints(v) -> bool:
    if type(v) is not list:
        return False
    for x in v:
        if type(x) is not int:
            return False
    return True


# Each takes its argument as _charged would (a list is charged its length), then answers
# the common case or gives up.


def _g_len(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        return len(v)
    if type(v) is str:
        return len(v)
    raise GiveUp


def _g_abs(ctx, v):
    if type(v) is int:
        return -v if v < 0 else v
    raise GiveUp


def _g_min(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        if v and _all_ints(v):
            return min(v)
    raise GiveUp


def _g_max(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        if v and _all_ints(v):
            return max(v)
    raise GiveUp


def _g_sum(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        if _all_ints(v):
            r = sum(v)
            if -_MAX_NUMBER <= r <= _MAX_NUMBER:
                return r
    raise GiveUp


def _g_any(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        return any(v)
    raise GiveUp


def _g_all(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        return all(v)
    raise GiveUp


def _g_decided(ctx, items, deciding: bool):
    """`any` (deciding: True) or `all` (False) of a comprehension's items (a generator), up to
    the first item that decides."""
    done, value = 0, not deciding
    for v in items:
        done += 1
        if bool(v) is deciding:
            value = deciding
            break
    ctx.work += done
    if ctx.work > MAX_WORK:
        raise GiveUp
    return value


def _g_first_of(ctx, items):
    """`first` of a comprehension's items (a generator): the first kept."""
    for v in items:
        ctx.work += 1
        if ctx.work > MAX_WORK:
            raise GiveUp
        return v
    raise GiveUp  # (none: the closures say so)


def _g_first(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        if v:
            return v[0]
    raise GiveUp


def _g_last(ctx, v):
    if type(v) is list:
        ctx.work += len(v)
        if ctx.work > MAX_WORK:
            raise GiveUp
        if v:
            return v[-1]
    raise GiveUp


def _g_range(ctx, a, b):
    """`range(a, b)` of two whole numbers, its items charged as the built-in charges them."""
    if type(a) is int and type(b) is int and b - a <= 100_000:
        out = list(range(a, b + 1))
        ctx.work += len(out)
        if ctx.work > MAX_WORK:
            raise GiveUp
        return out
    raise GiveUp


def _range_items(ctx, a, b):
    """The items of a comprehension over `range(a, b)` of two whole numbers, charged as the
    built-in charges its list and the comprehension its items, without making the list."""
    if type(a) is int and type(b) is int and b - a <= 100_000:
        if b >= a:
            ctx.work += 2 * (b - a + 1)
            if ctx.work > MAX_WORK:
                raise GiveUp
        return range(a, b + 1)
    raise GiveUp


# Functions on whole numbers and lists as the generated code calls them: the common case
# only (anything else gives up, and the closures' version answers or says what is wrong).
_PLAIN_FUNCTIONS = {"len": "_g_len", "abs": "_g_abs", "min": "_g_min", "max": "_g_max", "sum": "_g_sum",
                    "any": "_g_any", "all": "_g_all", "first": "_g_first", "last": "_g_last"}


def _negate(v):
    if not V.is_number(v):
        raise GiveUp
    return -v


def _sorted(ctx, v, key, most: tuple):
    """`sort x in v by ...`: stable, the last key first (as the closure sorts)."""
    computed = [(item, key(item)) for item in _items(ctx, v)]
    try:
        for n in range(len(most) - 1, -1, -1):
            computed.sort(key=lambda pair: pair[1][n], reverse=most[n])
    except TypeError:
        raise GiveUp from None
    return [item for item, _ in computed]


def _row(ctx, table, key):
    i = table.row_index(key)
    if i is None:
        raise GiveUp
    if ctx.observer is not None:
        ctx.observer.table_row(table.name, i)
    return table.rows[i]


_MISSING = object()


def _forget(memo: dict, known: int) -> None:
    """The memo as it was when it held `known` values: what generated code that gave up
    added is dropped (the last added first), so the closures running the expression again
    work out and charge every value the closures alone would have."""
    while len(memo) > known:
        memo.popitem()

_RUNTIME = {
    "_GiveUp": GiveUp, "_eq": V.equal, "_items": _items, "_charged": _charged, "_container": _container,
    "_negate": _negate, "_again": _again, "_at_shared": _at_shared, "_at_grid": _at_grid, "_sorted": _sorted, "_row": _row,
    "_zone_items": zone_items, "_zone_walk": _zone_walk, "_zone_len": _zone_len, "_in_round": in_round,
    "_MAX_WORK": MAX_WORK, "_MAX_DEPTH": MAX_CALL_DEPTH, "_MISSING": _MISSING, "_product": product,
    "_PLAIN": PLAIN_KEY_TYPES, "_WRITTEN": WRITTEN_KEY, "_written": written,
    "_g_len": _g_len, "_g_abs": _g_abs, "_g_min": _g_min, "_g_max": _g_max, "_g_sum": _g_sum,
    "_g_any": _g_any, "_g_all": _g_all, "_g_first": _g_first, "_g_last": _g_last, "_g_range": _g_range,
    "_g_decided": _g_decided, "_g_first_of": _g_first_of,
    "_range_items": _range_items, "_items_calls": _items_calls, "_texts": _texts, "_g_text": _g_text,
    "_CELL_KEYS": CELL_KEYS, "_MAX_NUMBER": _MAX_NUMBER,
}


# ---------------------------------------------------------------- the generator


def _zone_read(code: str) -> Optional[str]:
    """The arguments (the state, the zone's name, its owner) of code that is one call of
    `_zone_items` and nothing else, or None."""
    if not (code.startswith("_zone_items(") and code.endswith(")")):
        return None
    depth = 0
    for i, ch in enumerate(code):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and i != len(code) - 1:
                return None
    return code[len("_zone_items("):-1]


def _truth(e) -> bool:
    """Whether the generated code of `e` gives True or False, nothing else (so `and` and `or`
    of two of them need not make their value one)."""
    return isinstance(e, (A.Compare, A.Not, A.And, A.Or, A.Bool))


# the checker's types whose values are never lists
_SCALAR_TYPES = (T.NUMBER, T.BOOL, T.TEXT, T.PLAYER, T.NONE)


# names of the flow read straight from the state (as the closures read them)
_FLOW_NAMES = {"current": "current", "start_player": "start", "round": "round"}


class _Frame:
    """What one generated function knows: its Python names for the rule's local names, and
    the names read from the context's locals when it starts."""

    def __init__(self, names: Dict[str, str], free: Optional[set] = None):
        self.names = dict(names)
        self.free = free          # the enclosing scope's names (None inside a def: none)
        self.reads: Dict[str, str] = {}  # free name -> its Python name, read at the start
        self.uses_attrs = False
        self.uses_state = False
        self.uses_memo = False  # reads `_memo`, the context's memo (see `_memo_shared`)
        self.in_def = free is None  # (a def's function holds `_memo` from its start)
        # Values computed once (common subexpressions): a candidate's source -> the Python
        # name holding it and the work its reading charged, for the readings it dominates.
        self.known: Dict[str, tuple] = {}
        self.iterable = 0  # inside a comprehension's source: Python binds no name there
        self.kept: List[tuple] = []  # (name, code keeping the value, code of the value)
        self.branches = 0  # inside code that may not run (or runs once per item)
        self.hoisted: List[str] = []  # statements run before the expression (grid reads)
        # The comprehension whose element is being written, where a small def's call may be
        # written out (see `_inlined`): [its branch level, calls written out so far].
        self.site: Optional[list] = None
        # Where statements run before the expression being written may go (see `_lowered`);
        # None inside code that may not run, or runs per item, written as an expression.
        self.block: Optional[_Block] = None
        self.deep = False  # a def's call written out: the depth it would check, checked first
        self.whole: set = set()  # Python names holding a whole number (a loop over a range)


# code that is a Python name or a whole number: read again, it is the same value
_ATOM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+")
# code that is a whole number
_WHOLE = re.compile(r"-?[0-9]+")
# the code of a call of a def's function (see _def_function)
_DEF_CALL = re.compile(r"_Dx?[0-9]+\(")

# The functions of a list written into the loop making it (`_loop`), as _g_len, _g_sum... work
# them out: the value before any item (None: no value but the count), the statement adding an
# item (None: an item adds nothing, but is worked out), and the test of the value at the end.
# (`any`, `all` and `first` stop at the item that gives their value: builtins.STOPPING)
_NONE_LEFT = "if {out} is _MISSING: raise _GiveUp"  # (no item: the closures say so)
_FOLDS = {"len": (None, None, None),
          "sum": ("0", "{out} += {item}", "if not -_MAX_NUMBER <= {out} <= _MAX_NUMBER: raise _GiveUp"),
          "any": ("False", "if {item}: {out} = True; break", None),
          "all": ("True", "if not ({item}): {out} = False; break", None),
          "min": ("_MISSING", "if {out} is _MISSING or {item} < {out}: {out} = {item}", _NONE_LEFT),
          "max": ("_MISSING", "if {out} is _MISSING or {item} > {out}: {out} = {item}", _NONE_LEFT),
          "first": ("_MISSING", "{out} = {item}; break", _NONE_LEFT),
          "last": ("_MISSING", "{out} = {item}", _NONE_LEFT)}
# the folds of whole numbers only (anything else: the closures)
_WHOLE_FOLDS = ("sum", "min", "max")


def _charge_list(block: "_Block", code: str, otherwise: Optional[str] = None) -> None:
    """The length of `code` (a Python name) charged where it is a list, the step budget looked
    at there; `otherwise`: the line for anything else (an `else:` or `elif`)."""
    block.add(f"if type({code}) is list:")
    block.add(f"    ctx.work += len({code})")
    block.add("    if ctx.work > _MAX_WORK: raise _GiveUp")
    if otherwise is not None:
        block.add(otherwise)


class _Block:
    """Statements the function runs, each time, before the code of the expression written
    while they were being added; nested (`inner`) for the body of a loop or a branch."""

    def __init__(self):
        self.lines: List[str] = []
        self._charge: Optional[list] = None  # [the line charging work, the work it charges]

    def add(self, line: str) -> None:
        self.lines.append(line)

    def charge(self, work: int) -> None:
        """Work charged whenever this block runs on: one line charges all of it, from the
        first such charge (charged sooner, the same work is charged; where the step budget is
        looked at sooner and found passed, it is passed at the end)."""
        if self._charge is None:
            self._charge = [len(self.lines), 0]
            self.lines += ["", "if ctx.work > _MAX_WORK: raise _GiveUp"]  # (a runaway stops here)
        self._charge[1] += work
        self.lines[self._charge[0]] = f"ctx.work += {self._charge[1]}"

    def skip(self, test: str) -> None:
        """`continue` if `test` fails: what follows may not run."""
        self.lines.append(f"if not ({test}): continue")
        self._charge = None

    def inner(self, block: "_Block") -> None:
        self.lines += ["    " + line for line in block.lines]

    @staticmethod
    def nested(block: "_Block") -> "_Block":
        """`block` one level in."""
        inner = _Block()
        inner.inner(block)
        return inner


class SourceCompiler:
    """Writes expressions of one program as Python functions sharing one namespace."""

    # Runs of an expression by its closures before it is generated: one that runs once or
    # twice (a set-up, a scenario's check) is not worth writing out.
    warmup = 2

    def __init__(self, ex):
        self.ex = ex          # the closure compiler: its decisions, closures and local kinds
        self.d = ex.d
        self.ns: dict = dict(_RUNTIME)
        self.ns["_gave_up"] = self._gave_up
        self.defs: Dict[str, str] = {}     # def name -> its Python function's name
        self.failed_defs: set = set()
        self.sources: Dict[str, str] = {}  # each generated function's source, by its name
        self._names: Dict[str, str] = {}   # a rule's name -> the Python name holding it
        self._grid_reads: Dict[str, tuple] = {}  # code of an _at_grid call -> (zone, cell)
        self._small_defs: Dict[str, bool] = {}  # def name -> whether it may be written out
        self.generated = 0    # expressions running as generated code
        self.give_ups = 0     # times the generated code left an expression to the closures
        self.unwritable = 0   # sources written that Python would not compile (each a defect)
        self.codes = ex.codes  # where compiled code is kept between runs
        self._counter = 0     # the locals of the function being written
        self._bound_keys: Dict[str, str] = {}  # a name of the namespace -> what its value is
        self._unkeyed = 0     # values bound under a name of this process's own (see _bound)

    # ------------------------------------------------------------ entry
    def root(self, e, scope: frozenset, closure):
        """`closure` for its first runs (`warmup`), then the generated function (if it could
        be written), falling back to `closure` whenever the generated code gives up."""
        slot: List = [None, 0]  # the generated function (False: none), runs so far

        def run(ctx):
            fn = slot[0]
            if fn is None:
                fn = self._ready(slot, lambda: self._root_function(e, scope))
            if not fn:
                return closure(ctx)
            work, memo = ctx.work, ctx.memo
            known = len(memo) if memo is not None else 0
            try:
                return fn(ctx)
            except Exception:  # noqa: BLE001 - any surprise: the closures judge (see the module)
                self.give_ups += 1
                ctx.work = work
                if memo is not None:
                    _forget(memo, known)
                return closure(ctx)
        return run

    def guard_filter(self, guard, scope: frozenset, params: tuple):
        """`run(ctx, domains, count)`: of the `count` combinations of the parameters' values
        (one from each domain, in order), those that pass the guard, each as a list, charged
        the work the closures would charge (one per combination, and the guard's own); None
        while warming up or when the generated code gives up, and then the caller tries each
        combination with the guard's closure."""
        slot: List = [None, 0]

        def run(ctx, domains, count):
            fn = slot[0]
            if fn is None:
                fn = self._ready(slot, lambda: self._filter_function(guard, scope, params))
            if not fn:
                return None
            work, memo = ctx.work, ctx.memo
            known = len(memo) if memo is not None else 0
            try:
                return fn(ctx, domains, count)
            except Exception:  # noqa: BLE001 - as in root(): the closures judge
                self.give_ups += 1
                ctx.work = work
                if memo is not None:
                    _forget(memo, known)
                return None
        return run

    def inline(self, e, scope: frozenset):
        """`e` written into a block's function (gamedsl/compiler/backend.py): (lines to run
        first, the expression's code, the names of this namespace they use), reading `ctx` and
        nothing else; None if it cannot be written. Any exception they raise means: run the
        closures (`_gave_up`, which counts it)."""
        self._counter = 0  # (two expressions' locals in one block may share names: each sets its own first)
        frame = _Frame({}, set(scope))
        frame.block = _Block()
        try:
            *statements, code = self._written(frame, frame.block, self._gen(e, frame))
        except Unsupported:
            return None
        lines = [line.strip() for line in self._prologue(frame)] + statements
        if re.search(r"\b_dp\b", "\n".join(lines + [code])):
            lines.insert(0, "_dp = ctx.depth")
        used = set(re.findall(r"\b_[A-Za-z_]*[0-9]*\b", "\n".join(lines + [code])))
        self.generated += 1
        return lines, code, sorted(n for n in used if n in self.ns) + ["_gave_up"]

    def _gave_up(self, ctx, work: int, closure):
        """What a block runs when an expression written into it gives up: its closures, from
        the work it started with."""
        self.give_ups += 1
        ctx.work = work
        return closure(ctx)

    def _ready(self, slot: list, write):
        """One more run of a slot's expression: its generated function once it has warmed up
        (`write()` writes it, once), False if it cannot be written, None while warming up."""
        slot[1] += 1
        if slot[1] <= self.warmup:
            return None
        try:
            slot[0] = write()
            self.generated += 1
        except Unsupported:
            slot[0] = False
        return slot[0]

    def _filter_function(self, guard, scope, params):
        self._counter = 0
        frame = _Frame({p: f"_p{i}" for i, p in enumerate(params)}, set(scope))
        frame.branches = 1  # (the guard runs once per combination)
        frame.block = _Block()
        *statements, test = self._written(frame, frame.block, self._gen(guard, frame))
        names = ", ".join(frame.names[p] for p in params)
        each = f"({names},)" if params else "_"  # (a combination of no values: one, empty)
        lines = [_UNNAMED + "(ctx, domains, count):", "    _dp = ctx.depth"]
        lines += self._prologue(frame)
        lines += ["    ctx.work += count",
                  "    if ctx.work > _MAX_WORK:",
                  "        raise _GiveUp"]
        if not statements:
            lines.append(f"    return [[{names}] for {each} in _product(*domains) if {test}]")
        else:
            lines += ["    _out = []", f"    for {each} in _product(*domains):"]
            lines += ["        " + line for line in statements]
            lines += [f"        if {test}: _out.append([{names}])",
                      "    return _out"]
        return self._named_function("_F", lines)

    def _root_function(self, e, scope):
        self._counter = 0
        frame = _Frame({}, set(scope))
        frame.block = _Block()
        *statements, body = self._written(frame, frame.block, self._gen(e, frame))
        lines = [_UNNAMED + "(ctx):", "    _dp = ctx.depth"]
        lines += self._prologue(frame)
        lines += ["    " + line for line in statements]
        lines.append(f"    return {body}")
        return self._named_function("_R", lines)

    def _named_function(self, prefix: str, lines: List[str]):
        """The function whose source is `lines` (its first line `_UNNAMED(...)`), named by
        that source: one written twice, for two expressions, is defined once."""
        source = "\n".join(lines)
        name = self._bound(prefix, source, None)
        if name not in self.sources:
            self._define(source.replace(_UNNAMED, "def " + name, 1), name)
        return self.ns[name]

    def _written(self, frame, block: _Block, code: str) -> List[str]:
        """A function's statements (each charge of work in them looks at the step budget
        itself) and last its expression's code, without the values kept that no other
        reading took."""
        return self._unshared(frame, "\n".join(block.lines + [code])).split("\n")

    def _prologue(self, frame: _Frame) -> List[str]:
        # (a written-out call's depth looked at once, before any runs: where it would be too
        # deep, the closures judge whether it runs)
        lines = ["    if _dp >= _MAX_DEPTH: raise _GiveUp"] if frame.deep else []
        if frame.uses_state:
            lines.append("    _st = ctx.state")
        if frame.uses_attrs:
            lines.append("    _ca = ctx.cat.attrs")
        if frame.uses_memo and not frame.in_def:
            lines.append("    _memo = ctx.memo")
        if frame.reads:
            lines.append("    _env = ctx.env")
            lines += [f"    {py} = _env[{self._name(name)}]" for name, py in frame.reads.items()]
        return lines + ["    " + line for line in frame.hoisted]

    def _define(self, source: str, name: str) -> None:
        try:
            code = self.codes.compile(source, f"<gamedsl generated {name}>")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.unwritable += 1
            raise Unsupported from None
        exec(code, self.ns)  # noqa: S102 - source written by this module from a checked tree
        self.sources[name] = source

    def _fresh(self, prefix: str) -> str:
        """A local of the function being written."""
        self._counter += 1
        return f"_{prefix}{self._counter}"

    # The names of the namespace (the rules' names, constants, functions) are made from what
    # they hold, never from the order they were met in: a block's or an expression's source
    # is then the same text in every process that writes it, whatever it played before, and
    # its compiled code is found in the cache (gamedsl/compiler/codecache.py).

    def _bound(self, prefix: str, key: str, value) -> str:
        """The name of this namespace bound to `value`, made from `key` (what the value is,
        as text): a key met again gets the name (and value) it got first."""
        digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=6).digest()
        py = f"{prefix}{int.from_bytes(digest, 'big')}"
        known = self._bound_keys.get(py)
        if known is None:
            self._bound_keys[py] = key
            if value is not None:
                self.ns[py] = value
            return py
        if known == key:
            return py
        return self._unkeyed_name(prefix, value)  # (two keys of one digest, 1 in 2**48)

    def _unkeyed_name(self, prefix: str, value) -> str:
        """A name of this process's own for `value` (its source differs between processes)."""
        self._unkeyed += 1
        py = f"{prefix}x{self._unkeyed}"
        if value is not None:
            self.ns[py] = value
        return py

    def _name(self, name: str) -> str:
        """A rule's name as a value of the namespace: the source holds none of the rules' text."""
        py = self._names.get(name)
        if py is None:
            py = self._names[name] = self._bound("_N", "name:" + name, name)
        return py

    def _const(self, value, key: Optional[str] = None) -> str:
        """`value` as code: a literal, or a name of the namespace. `key` says what the value
        is where its text would not (a function made for one place of the rules)."""
        if type(value) is int or value is None or type(value) is bool:
            return repr(value)
        if key is None:
            key = _stable(value)
            if key is None:
                return self._unkeyed_name("_K", value)
        return self._bound("_K", key, value)

    # ------------------------------------------------------------ defs
    def _def_function(self, name: str) -> str:
        """The Python name of the function for `def name` (written on first use)."""
        if name in self.failed_defs:
            raise Unsupported
        py = self.defs.get(name)
        if py is not None:
            return py
        py = self.defs[name] = self._bound("_D", "def:" + name, None)
        decl = self.d.defs[name]
        params = [p.name for p in decl.params]
        counter, self._counter = self._counter, 0  # (the caller's locals go on after it)
        frame = _Frame({p: f"v{i}" for i, p in enumerate(params)})
        # a def's body knows no local kinds but its own (as when the closures compile it)
        saved_kinds, self.ex.local_kinds = self.ex.local_kinds, {}
        frame.block = _Block()
        try:
            *statements, body = self._written(frame, frame.block, self._gen(decl.body, frame))
        except Unsupported:
            self.failed_defs.add(name)
            del self.defs[name]
            raise
        finally:
            self.ex.local_kinds = saved_kinds
            self._counter = counter
        args = [frame.names[p] for p in params]
        # As the closures do: a memo answers first (while moves are listed), then the work
        # and the depth are charged.
        key = self._memo_key(name, args)
        lines = [f"def {py}(ctx, _dp{''.join(', ' + a for a in args)}):",
                 "    _memo = ctx.memo",
                 "    if _memo is not None:",
                 f"        key = {key}",
                 "        found = _memo.get(key, _MISSING)",
                 "        if found is not _MISSING:",
                 "            return found",
                 "    ctx.work += 1",
                 "    if ctx.work > _MAX_WORK or _dp >= _MAX_DEPTH:",
                 "        raise _GiveUp",
                 "    _dp += 1"]
        lines += self._prologue(frame)
        lines += ["    " + line for line in statements]
        lines += [f"    result = {body}",
                  "    if _memo is not None:",
                  "        _memo[key] = result",
                  "    return result"]
        try:
            self._define("\n".join(lines), py)
        except Unsupported:
            self.failed_defs.add(name)
            del self.defs[name]
            raise
        return py

    def _memo_key(self, name: str, args: List[str]) -> str:
        """The code of the memo's key for a call of def `name` with arguments `args` (Python
        names): ctx.memo_key's, written inline."""
        plain = " and ".join(f"type({a}) in _PLAIN" for a in args) or "True"
        named = self._name(name)
        return (f"({named}, {''.join(a + ', ' for a in args)}) if {plain} else "
                f"({named}, _WRITTEN, _written([{', '.join(args)}]))")

    # A small def called once for each item of a comprehension (`all([owns(p, c) for c in l])`)
    # is written out in the element when no memo is kept (statements run, not moves listed):
    # the call's work (one) is charged with the items', its depth checked there, and its body
    # charges what it charges in the def's function. With a memo the def is called: a memo
    # answer charges nothing.

    def _small(self, name: str) -> bool:
        """A def whose body calls no def and goes through no list of its own."""
        small = self._small_defs.get(name)
        if small is None:
            small = self._small_defs[name] = not any(
                isinstance(n, (A.Comprehension, A.Sort)) or (
                    isinstance(n, A.Call) and n.name in self.d.defs and n.name not in B.FUNCTIONS)
                for n in A.walk(self.d.defs[name].body))
        return small

    def _inlined(self, name: str, args: List[str], frame: _Frame) -> Optional[str]:
        """The body of def `name` written for arguments whose code is a Python name or a
        number (read as often as the body reads them), or None."""
        if not self._small(name) or not all(_ATOM.fullmatch(a) for a in args):
            return None
        params = [p.name for p in self.d.defs[name].params]
        if len(params) != len(args):
            return None
        names, free, site = frame.names, frame.free, frame.site
        frame.names, frame.free, frame.site = dict(zip(params, args)), None, None
        saved_kinds, self.ex.local_kinds = self.ex.local_kinds, {}
        try:
            return self._branch(frame, lambda: self._gen(self.d.defs[name].body, frame))
        except Unsupported:
            return None
        finally:
            frame.names, frame.free, frame.site = names, free, site
            self.ex.local_kinds = saved_kinds

    # ------------------------------------------------------------ nodes
    def _gen(self, e, frame: _Frame) -> str:
        method = getattr(self, "_" + type(e).__name__, None)
        if method is None or self.ex.family_named(e, ()) is not None or self.ex.family_of(e, ()) is not None:
            raise Unsupported  # (a zone family's zone: the closures address it)
        if frame.block is not None:
            code = self._lowered(e, frame)
            if code is not None:
                return code
        if isinstance(e, A.Call) and self._memo_free(e):
            return self._memo_shared(e, frame, method)
        code = method(e, frame)
        work = self._shared_work(e, code)
        if work is None:
            return code
        key = self._key(e, frame)
        known = frame.known.get(key)
        if known is not None:
            py, work = known
            return py if work == 0 else f"_again(ctx, {work}, {py})"
        if frame.iterable:
            return code
        py = self._fresh("t")
        frame.known[key] = (py, work)
        grid = self._grid_reads.get(code)
        if grid is not None and not frame.branches:
            # a cell read that always runs: written out before the expression, without a call
            frame.hoisted += [f"_c = {grid[1]}",
                              "if type(_c) is not list: raise _GiveUp",
                              "ctx.work += len(_c)",
                              "if ctx.work > _MAX_WORK or len(_c) != 2: raise _GiveUp",
                              "_x, _y = _c",
                              "if type(_x) is not int or type(_y) is not int: raise _GiveUp",
                              f"{py} = {grid[0]}.get(_CELL_KEYS.get((_x, _y)) or f'{{_x}},{{_y}}')"]
            return py
        kept = f"({py} := {code})"
        frame.kept.append((py, kept, code))
        return kept

    # ------------------------------------------------------------ statements
    # Where a block may take statements, the parts of an expression that would cost a Python
    # call per item are written as statements run before it: a comprehension as a loop, a
    # small def's call as its body, a grid's cell read as its lookup, `len`, `sum`... of a
    # comprehension as the loop's own count, and an `and`, `or` or `if` holding any of these
    # as Python's `if`. Each charges the work it charges as an expression: a list's length
    # where it is charged, then the step budget looked at (a runaway stops there), and the
    # fixed work of a straight run of statements at once, at its first charge (`_Block.charge`)
    # and looked at there, so the total is the same and the code gives up wherever the
    # budget is passed (the work only grows: passed anywhere, passed at the end). The order
    # the parts run in may differ from the expression's, which nothing sees: an expression
    # has no effect but its work, its memo's values (each worked out once, in any order,
    # charging the same) and the table rows told to an observer (counted, not ordered).

    def _lowered(self, e, frame) -> Optional[str]:
        """The code of `e` after statements added to `frame.block`, or None if `e` is better
        written as an expression."""
        if isinstance(e, A.Comprehension):
            return self._loop(e, frame)
        if isinstance(e, (A.And, A.Or)):
            return self._if_else(e, frame)
        if isinstance(e, A.Conditional):
            return self._if_then(e, frame)
        if isinstance(e, A.Call):
            if (e.name in _FOLDS and len(e.args) == 1 and isinstance(e.args[0], A.Comprehension)
                    and self.ex.ranked_call(e) is None
                    and self.ex.family_named(e.args[0], ()) is None and self.ex.family_of(e.args[0], ()) is None):
                return self._loop(e.args[0], frame, e.name)
            if self._grid_at(e, frame):
                return self._cell_read(e, frame)
            if (e.name in self.d.defs and e.name not in B.FUNCTIONS and named_constant(self.d.defs[e.name]) is None
                    and self._small(e.name) and len(e.args) == len(self.d.defs[e.name].params)):
                return self._written_out(e, frame)
        return None

    def _charged_here(self, code: str, frame) -> str:
        """A function's argument, charged as _charged charges it: where a block takes
        statements, without a call."""
        if frame.block is None:
            return f"_charged(ctx, {code})"
        code = self._atom(code, frame)
        _charge_list(frame.block, code)
        return code

    def _atom(self, code: str, frame) -> str:
        """`code` as a Python name or a number, kept in a new name if it is neither."""
        if _ATOM.fullmatch(code):
            return code
        py = self._fresh("a")
        frame.block.add(f"{py} = {code}")
        return py

    def _loop(self, e, frame, fold: Optional[str] = None) -> str:
        """A comprehension as a `for` loop (or as Python's comprehension where its element and
        condition need no statements); with `fold` (a function of _FOLDS), the function's
        value of its list, worked out as the items come, the list never made."""
        block, src = frame.block, e.source
        counting = isinstance(src, A.Call) and src.name == "range" and len(src.args) == 2
        if counting:
            # (as _range_items, without a call: the list is never made)
            low, high = (self._atom(self._gen(x, frame), frame) for x in src.args)
            if _WHOLE.fullmatch(low) and _WHOLE.fullmatch(high) and int(high) - int(low) <= 100_000:
                # (two whole numbers written in the rule: their checks and count, worked out here)
                if int(high) >= int(low):
                    block.charge(2 * (int(high) - int(low) + 1))
                items = f"range({low}, {int(high) + 1})"
            else:
                block.add(f"if type({low}) is not int or type({high}) is not int or {high} - {low} > 100_000: "
                          "raise _GiveUp")
                block.add(f"if {high} >= {low}:")
                block.add(f"    ctx.work += 2 * ({high} - {low} + 1)")
                block.add("    if ctx.work > _MAX_WORK: raise _GiveUp")
                items = f"range({low}, {high} + 1)"
        else:
            source = self._iterable(src, frame)
            zone = _zone_read(source)
            items = self._fresh("s")  # (a name of its own: it may be made a list here)
            if zone is not None:  # (as _zone_walk, without a call)
                st, named, owner = zone.split(", ", 2)
                owner = self._atom(owner, frame)
                block.add(f"{items} = {st}['zones'][{named}]" + (f"[{owner}]" if owner != "-1" else ""))
                if owner != "-1":
                    block.add(f"if {owner} < 0: raise _GiveUp")
                block.add(f"if type({items}) is not list: {items} = _zone_items({st}, {named}, {owner})")
                block.add(f"ctx.work += len({items})")
                block.add("if ctx.work > _MAX_WORK: raise _GiveUp")
            else:  # (as _items, without a call for a list)
                block.add(f"{items} = {source}")
                _charge_list(block, items, f"else: {items} = _items(ctx, {items})")
        body = _Block()

        def build(py):
            if counting:
                frame.whole.add(py)
            cond = self._gen(e.cond, frame) if e.cond is not None else None
            before = len(body.lines)
            if cond is not None:
                body.skip(cond)
            element = self._gen(e.element, frame)
            return py, cond, element, before or len(body.lines) > before + (cond is not None)

        py, cond, element, statements = self._branch(frame, lambda: self.ex.with_local_kind(
            e.var, e.source, lambda: self._local(e.var, frame, build)), block=body)
        if not statements and fold is None:
            return f"[{element} for {py} in {items}{f' if ({cond})' if cond is not None else ''}]"
        out = self._fresh("r")
        if fold is None:
            block.add(f"{out} = []")
            block.add(f"for {py} in {items}:")
            block.inner(body)
            block.add(f"    {out}.append({element})")
            return out
        start, add, end = _FOLDS[fold]
        # (the function charges its list's length: the items kept, counted where some are not
        # or where the function may stop before the last)
        counted = self._fresh("n") if cond is not None or fold in B.STOPPING else None
        if counted is not None:
            block.add(f"{counted} = 0")
        elif not _ATOM.fullmatch(items):
            kept = self._fresh("i")
            block.add(f"{kept} = {items}")
            items = kept
        if start is not None:
            block.add(f"{out} = {start}")
        if counted is not None or body.lines or add is not None or not _ATOM.fullmatch(element):
            block.add(f"for {py} in {items}:")  # (its body: at least one of the lines below)
            block.inner(body)
        if add is None:
            if not _ATOM.fullmatch(element):
                block.add(f"    {element}")  # (its work, and whatever would make it give up)
        else:
            if not _ATOM.fullmatch(element):  # (worked out once, whatever the fold does with it)
                py = self._fresh("a")
                block.add(f"    {py} = {element}")
                element = py
            if fold in _WHOLE_FOLDS and not _WHOLE.fullmatch(element):
                block.add(f"    if type({element}) is not int: raise _GiveUp")
            if counted is not None:
                block.add(f"    {counted} += 1")
            block.add("    " + add.format(out=out, item=element))
        if counted is not None and add is None:
            block.add(f"    {counted} += 1")
        block.add(f"ctx.work += {counted or f'len({items})'}")
        block.add("if ctx.work > _MAX_WORK: raise _GiveUp")
        if start is None:
            return counted or f"len({items})"
        if end is not None:
            block.add(end.format(out=out))
        return out

    def _if_else(self, e, frame) -> str:
        """`and` / `or` whose right side takes statements: Python's `if`."""
        left = self._gen(e.left, frame)
        body = _Block()
        right = self._branch(frame, lambda: self._gen(e.right, frame), block=body)
        op = "and" if isinstance(e, A.And) else "or"
        if not body.lines:
            if _truth(e.left) and _truth(e.right):
                return f"({left} {op} {right})"
            return f"(True if ({left}) {op} ({right}) else False)"
        return self._chosen(frame, f"{'' if op == 'and' else 'not '}({left})",
                            body, right if _truth(e.right) else f"True if ({right}) else False",
                            _Block(), "False" if op == "and" else "True")

    def _if_then(self, e, frame) -> str:
        """`a if c else b` whose branches take statements: Python's `if`."""
        cond = self._gen(e.cond, frame)
        then_body, else_body = _Block(), _Block()
        then = self._branch(frame, lambda: self._gen(e.then, frame), block=then_body)
        orelse = self._branch(frame, lambda: self._gen(e.orelse, frame), block=else_body)
        if not then_body.lines and not else_body.lines:
            return f"(({then}) if ({cond}) else ({orelse}))"
        return self._chosen(frame, cond, then_body, then, else_body, orelse)

    def _chosen(self, frame, test: str, then_body: _Block, then: str, else_body: _Block, orelse: str) -> str:
        """A new name holding `then` (after `then_body`) where `test` holds, else `orelse`
        (after `else_body`), written as Python's `if` into the frame's block."""
        out = self._fresh("b")
        block = frame.block
        block.add(f"if {test}:")
        block.inner(then_body)
        block.add(f"    {out} = {then}")
        block.add("else:")
        block.inner(else_body)
        block.add(f"    {out} = {orelse}")
        return out

    def _grid_at(self, e, frame) -> bool:
        """`at(zone, cell)` of a grid of the table (not a player's)."""
        if not (e.name == "at" and len(e.args) == 2 and isinstance(e.args[0], A.Name)
                and e.args[0].name in self.d.shared_zones and not self._is_local(e.args[0].name, frame)):
            return False
        zone_type = self.d.types.get(e.args[0]) if self.d.types else None
        return isinstance(zone_type, T.Zone) and zone_type.grid and not zone_type.per_player

    def _cell_read(self, e, frame) -> str:
        """A grid's cell read by its key, as _at_grid reads it; read again, the value kept."""
        try:
            key = self._key(e, frame) if self._zero_work(e.args[1]) else None
        except Unsupported:
            key = None
        block = frame.block
        if key is not None and key in frame.known:
            py, work = frame.known[key]
            block.charge(work)
            return py
        frame.uses_state = True
        named = self._name(e.args[0].name)
        zone = f"_z{named}"
        if f"{zone} = _st['zones'][{named}]" not in frame.hoisted:
            frame.hoisted.insert(0, f"{zone} = _st['zones'][{named}]")
        cell = self._atom(self._gen(e.args[1], frame), frame)
        py = self._fresh("t")
        block.add(f"if type({cell}) is not list or len({cell}) != 2: raise _GiveUp")
        block.add(f"_x, _y = {cell}")
        block.add("if type(_x) is not int or type(_y) is not int: raise _GiveUp")
        block.charge(2)
        block.add(f"{py} = {zone}.get(_CELL_KEYS.get((_x, _y)) or f'{{_x}},{{_y}}')")
        if key is not None:
            frame.known[key] = (py, 2)
        return py

    def _written_out(self, e, frame) -> str:
        """A small def's call (see `_small`): its body written here, charged the call's work
        and checked for depth as its function would; with a memo kept, looked up in it first
        and kept in it, under the key its function uses."""
        self._def_function(e.name)  # (the def can be written: its body is, here)
        args = [self._atom(self._gen(a, frame), frame) for a in e.args]
        params = [p.name for p in self.d.defs[e.name].params]

        def build():
            names, free, site = frame.names, frame.free, frame.site
            frame.names, frame.free, frame.site = dict(zip(params, args)), None, None
            saved_kinds, self.ex.local_kinds = self.ex.local_kinds, {}
            try:
                return self._gen(self.d.defs[e.name].body, frame)
            finally:
                frame.names, frame.free, frame.site = names, free, site
                self.ex.local_kinds = saved_kinds

        def written(out: str) -> _Block:
            """The body, its value kept in `out` (written once for each way, so the common
            one, no memo, looks at nothing more)."""
            body = _Block()
            body.charge(1)
            value = self._branch(frame, build, block=body)
            body.add(f"{out} = {value}")
            return body

        frame.uses_memo = frame.deep = True
        out, key = self._fresh("b"), self._fresh("mk")
        block = frame.block
        block.add("if _memo is None:")
        block.inner(written(out))
        block.add("else:")
        block.add(f"    {key} = {self._memo_key(e.name, args)}")
        block.add(f"    {out} = _memo.get({key}, _MISSING)")
        block.add(f"    if {out} is _MISSING:")
        block.inner(_Block.nested(written(out)))
        block.add(f"        _memo[{key}] = {out}")
        return out

    @staticmethod
    def _unshared(frame: _Frame, body: str) -> str:
        """`body` without keeping the values no other reading took (the last kept first:
        one kept inside another is then still whole)."""
        for py, kept, code in reversed(frame.kept):
            if not re.search(rf"\b{py}\b(?! :=)", body):
                body = body.replace(kept, code, 1)
        return body

    # ------------------------------------------------------------ common subexpressions
    # A component's attribute or a grid's cell read again in one expression (`at(board, c)
    # != none and at(board, c).owner == p`) is read once: the first reading, where it always
    # runs, keeps its value in a Python name, and each reading it precedes for certain (not
    # in another branch of an `and`, `or` or `if`, nor outside the comprehension it is in)
    # takes that value, charged the work the first charged. Only readings of one value (not
    # a list: no two places of a state may come to hold one list) whose parts charge no work
    # and tell no observer are shared, so the work is known from the reading itself.

    def _shared_work(self, e, code: str):
        """The work a reading of `e` charges, if it may be shared; else None."""
        if isinstance(e, A.Attribute) and self._scalar(e) and self._zero_work(e.obj):
            return 0
        if isinstance(e, A.Call) and code.startswith("_at_grid(") and self._zero_work(e.args[1]):
            return 2  # (a cell read by its key is a list of two: _at_grid charges its length)
        return None

    # A def called again in one expression with the same arguments (`why_words(p, spelled(t),
    # with_z(t))` in a condition and in the value it guards) is, while a memo is kept (moves
    # listed, heuristics), answered by the memo: the first call's value, no work charged. The
    # generated code takes that value from where the first call kept it, without building
    # the memo's key again; without a memo it calls the def again, as the closures do.

    def _memo_free(self, e) -> bool:
        """Whether `e` is a call of a def that, with a memo kept, charges no work when the
        same call ran before: its arguments charge none either (nor tell an observer)."""
        if not (isinstance(e, A.Call) and e.name in self.d.defs and e.name not in B.FUNCTIONS):
            return False
        return all(self._memo_free(a) or self._zero_work(a) for a in e.args)

    def _memo_shared(self, e, frame, method) -> str:
        try:
            key = self._key(e, frame)
        except Unsupported:
            return method(e, frame)
        known = frame.known.get(key)
        if known is not None:
            again = self._branch(frame, lambda: method(e, frame))
            frame.uses_memo = True
            return f"({known[0]} if _memo is not None else {again})"
        code = method(e, frame)
        if frame.iterable or not _DEF_CALL.match(code):  # (not a named constant's value)
            return code
        py = self._fresh("t")
        frame.known[key] = (py, None)
        kept = f"({py} := {code})"
        frame.kept.append((py, kept, code))
        return kept

    def _zero_work(self, e) -> bool:
        """Whether the generated code of `e` charges no work and tells no observer."""
        if isinstance(e, (A.Name, A.Number, A.Text, A.Bool, A.NoneLit)):
            return True
        if isinstance(e, A.Attribute):
            return self._zero_work(e.obj)
        if isinstance(e, (A.TupleExpr, A.ListExpr)):
            return all(self._zero_work(x) for x in e.items)
        if isinstance(e, A.BinOp):
            return self._zero_work(e.left) and self._zero_work(e.right)
        if isinstance(e, A.Negate):
            return self._zero_work(e.operand)
        return False

    def _key(self, e, frame):
        """`e` as a value that is equal for two readings of the same thing: its shape, with
        each local name as the Python name it is bound to."""
        if isinstance(e, A.Name):
            return ("name", frame.names.get(e.name, e.name))
        if isinstance(e, (A.Number, A.Text, A.Bool)):
            return (type(e).__name__, type(e.value).__name__, e.value)
        if isinstance(e, A.NoneLit):
            return ("none",)
        if isinstance(e, A.Attribute):
            return ("attr", self._key(e.obj, frame), e.name)
        if isinstance(e, (A.TupleExpr, A.ListExpr)):
            return ("list", tuple(self._key(x, frame) for x in e.items))
        if isinstance(e, A.BinOp):
            return ("op", e.op, self._key(e.left, frame), self._key(e.right, frame))
        if isinstance(e, A.Negate):
            return ("neg", self._key(e.operand, frame))
        if isinstance(e, A.Call):
            return ("call", e.name, tuple(self._key(x, frame) for x in e.args))
        raise Unsupported  # (no other node is shared)

    def _branch(self, frame, build, block: Optional[_Block] = None):
        """`build()`, whose code may not run: what it computes is not known after it. Its
        statements go to `block` (a branch or loop written as statements), or, without one,
        it is written as an expression."""
        known, outer = dict(frame.known), frame.block
        frame.branches += 1
        frame.block = block
        try:
            return build()
        finally:
            frame.known = known
            frame.branches -= 1
            frame.block = outer

    def _Number(self, e, frame):
        return self._const(e.value)

    _Text = _Bool = _Number

    def _NoneLit(self, e, frame):
        return "None"

    def _Name(self, e, frame):
        name = e.name
        if name in frame.names:
            return frame.names[name]
        if frame.free is not None and name in frame.free:
            py = frame.reads.get(name)
            if py is None:
                py = frame.reads[name] = self._fresh("l")
                frame.names[name] = py
            return py
        if self.ex.is_word(e):
            return self._const(name)
        if name in self.d.global_vars and name not in ("current", "start_player", "round", "players",
                                                       "player_count", "in_round"):
            frame.uses_state = True
            return f"_st['vars'][{self._name(name)}]"
        flow = _FLOW_NAMES.get(name)
        if flow is not None:
            frame.uses_state = True
            return f"_st['flow'][{flow!r}]"
        if name == "players":
            frame.uses_state = True
            return "list(range(_st['n']))"
        if name == "in_round":
            frame.uses_state = True
            return "_in_round(_st)"
        if name == "player_count":
            frame.uses_state = True
            return "_st['n']"
        if name in self.d.shared_zones:
            frame.uses_state = True
            return f"_zone_items(_st, {self._name(name)}, -1)"
        return f"{self._const(self.ex._Name(e, set()), 'read:' + _placed(e))}(ctx)"

    def _Attribute(self, e, frame):
        obj = self._gen(e.obj, frame)
        cats, row_col, resolve = self.ex.attribute_plan(e)
        name = e.name
        # A table row may have a column of the same name, unless the checker knows x is not
        # a row (a component, a player).
        if not row_col or kind_of_type(self.d.types.get(e.obj)) in ("component", "player"):
            named = self._name(name)
            if cats == ["cattr"]:
                frame.uses_attrs = True
                return f"_ca[{obj}][{named}]"
            if cats == ["pvar"]:
                frame.uses_state = True
                return f"_st['pvars'][{named}][{obj}]"
            if cats == ["pzone"]:
                frame.uses_state = True
                return f"_zone_items(_st, {named}, {obj})"
            # a state every kind the checker allows here has (what resolve() reads first for
            # a component; a value that is none or not a component fails and the closures judge)
            kinds = T.kinds_of(self.d.types.get(e.obj)) if self.d.types else None
            if "cstate" in cats and kinds and kinds <= self.d.comp_states.get(name, set()):
                frame.uses_state = True
                return f"_st['cstate'][{named}][{obj}]"
        return f"{self._const(resolve, 'attribute:' + _placed(e))}(ctx, {obj})"

    def _Index(self, e, frame):
        if isinstance(e.obj, A.Name) and e.obj.name in self.d.tables and not self._is_local(e.obj.name, frame):
            table = self._const(self.d.tables[e.obj.name], "table:" + e.obj.name)
            return f"_row(ctx, {table}, {self._gen(e.index, frame)})"
        index = self._gen(e.index, frame)
        if not (index in frame.whole or _WHOLE.fullmatch(index)):
            index = f"int({index})"
        return f"({self._gen(e.obj, frame)})[{index}]"

    def _is_local(self, name, frame) -> bool:
        return name in frame.names or (frame.free is not None and name in frame.free)

    def _Call(self, e, frame):
        d = self.d
        if e.name in d.defs and e.name not in B.FUNCTIONS:
            constant = named_constant(d.defs[e.name])
            if constant is not None:
                return self._const(constant.value)
            fn = self._def_function(e.name)
            args = [self._gen(a, frame) for a in e.args]
            call = f"{fn}(ctx, _dp{''.join(', ' + a for a in args)})"
            site = frame.site
            if site is not None and site[0] == frame.branches and not frame.iterable:
                body = self._inlined(e.name, args, frame)
                if body is not None:
                    site[1] += 1
                    frame.uses_memo = True
                    return f"(({body}) if _memo is None else {call})"
            return call
        if e.name == "rows" and e.args and isinstance(e.args[0], A.Name) and e.args[0].name in d.tables:
            return f"[dict(r) for r in {self._const(d.tables[e.args[0].name].rows, 'rows:' + e.args[0].name)}]"
        spec = B.FUNCTIONS.get(e.name)
        if spec is None or spec.impure:
            raise Unsupported
        ranked = self.ex.ranked_call(e)
        if ranked is not None:
            ranked = self._const(ranked, "ranked:" + _placed(e))
            return f"{ranked}(ctx, {self._const(e.span)}, _charged(ctx, {self._gen(e.args[0], frame)}))"
        if e.name == "range" and len(e.args) == 2:  # (two numbers: nothing to charge but the items)
            return f"_g_range(ctx, {self._gen(e.args[0], frame)}, {self._gen(e.args[1], frame)})"
        if e.name in B.STOPPING and len(e.args) == 1 and isinstance(e.args[0], A.Comprehension):
            # (its items as they come, up to the one that gives the value: `_stopping` in closures.py)
            items = self._Comprehension(e.args[0], frame, lazy=True)
            if e.name in B.DECIDED:
                return f"_g_decided(ctx, {items}, {B.DECIDED[e.name]})"
            return f"_g_first_of(ctx, {items})"
        plain = _PLAIN_FUNCTIONS.get(e.name)
        if plain is not None and len(e.args) == 1:
            if e.name == "len" and self._text(e.args[0]):  # (a text: nothing to charge)
                return f"len({self._gen(e.args[0], frame)})"
            arg = self._gen(e.args[0], frame)
            zone = _zone_read(arg)
            if e.name == "len" and zone is not None:
                return f"_zone_len(ctx, {zone})"
            if e.name == "len" and frame.block is not None:  # (as _g_len, without the call)
                arg = self._atom(arg, frame)
                _charge_list(frame.block, arg, f"elif type({arg}) is not str: raise _GiveUp")
                return f"len({arg})"
            return f"{plain}(ctx, {arg})"  # (charging a list as _charged)
        impl, span = self._const(spec.impl, "function:" + e.name), self._const(e.span)
        if spec.wants_kind:
            if len(e.args) != 1:
                raise Unsupported  # (the closures say what is wrong)
            kind = value_kind(e.args[0], d, self.ex.local_kinds)
            if e.name == "text":
                return f"_g_text(ctx, {kind!r}, {self._gen(e.args[0], frame)})"
            return f"{impl}(ctx, {span}, {kind!r}, {self._gen(e.args[0], frame)})"
        if (e.name == "at" and len(e.args) == 2 and isinstance(e.args[0], A.Name)
                and e.args[0].name in d.shared_zones and not self._is_local(e.args[0].name, frame)):
            zone_type = self.d.types.get(e.args[0]) if self.d.types else None
            if isinstance(zone_type, T.Zone) and zone_type.grid and not zone_type.per_player:
                frame.uses_state = True
                named = self._name(e.args[0].name)
                # (the grid read once, before the expression: nothing in an expression moves
                # a component, and a state always holds its zones)
                zone, cell = f"_z{named}", self._gen(e.args[1], frame)
                if f"{zone} = _st['zones'][{named}]" not in frame.hoisted:
                    frame.hoisted.insert(0, f"{zone} = _st['zones'][{named}]")
                code = f"_at_grid(ctx, {zone}, {cell})"
                self._grid_reads[code] = (zone, cell)
                return code
            return f"_at_shared(ctx, {impl}, {span}, {self._name(e.args[0].name)}, {self._gen(e.args[1], frame)})"
        args = []
        for i, a in enumerate(e.args):
            if i in spec.zone_args:
                args.append(self._zone(a, frame))
            elif isinstance(a, (A.Number, A.Text, A.Bool, A.NoneLit)) or self._scalar(a):
                args.append(self._gen(a, frame))  # (never a list: nothing to charge)
            else:
                args.append(self._charged_here(self._gen(a, frame), frame))
        return f"{impl}(ctx, {span}{''.join(', ' + a for a in args)})"

    def _zone(self, e, frame) -> str:
        if isinstance(e, A.Name) and e.name in self.d.shared_zones and not self._is_local(e.name, frame):
            return f"({self._name(e.name)}, -1)"
        if isinstance(e, A.Attribute) and e.name in self.d.player_zones:
            return f"({self._name(e.name)}, {self._gen(e.obj, frame)})"
        raise Unsupported

    def _BinOp(self, e, frame):
        if e.op == "+" and self._text(e):  # (texts added up: a message written out)
            return f"_texts({', '.join(self._gen(part, frame) for part in self._added_texts(e))})"
        left, right = self._gen(e.left, frame), self._gen(e.right, frame)
        op = _ARITH.get(e.op) or B.ARITH[e.op]
        call = f"{self._const(op, 'operator:' + e.op)}({{}}, {{}}, {self._const(e.span)})"
        if e.op not in _ARITH or frame.iterable or not (self._number(e.left) and self._number(e.right)):
            return call.format(left, right)
        # Two numbers for the checker: whole numbers within the bounds worked out here, as
        # the function would (anything else is the function's: a fraction, too big a number).
        # Both sides are read first, each once.
        a, b, r = self._fresh("o"), self._fresh("o"), self._fresh("o")
        return (f"({r} if (type({a} := {left}) is int) & (type({b} := {right}) is int) "
                f"and -_MAX_NUMBER <= ({r} := {a} {e.op} {b}) <= _MAX_NUMBER else {call.format(a, b)})")

    def _number(self, e) -> bool:
        """A number for the checker (never none)."""
        return (self.d.types.get(e) if self.d.types else None) == T.NUMBER

    def _added_texts(self, e) -> list:
        """The texts a sum of texts adds up, in order."""
        if isinstance(e, A.BinOp) and e.op == "+" and self._text(e):
            return self._added_texts(e.left) + self._added_texts(e.right)
        return [e]

    def _Compare(self, e, frame):
        left, right = self._gen(e.left, frame), self._gen(e.right, frame)
        if e.op in ("in", "not in"):
            if frame.block is None:
                return f"({left} {e.op} _container(ctx, {right}))"
            right = self._atom(right, frame)  # (as _container, without a call for a list)
            _charge_list(frame.block, right, f"else: _container(ctx, {right})")
            return f"({left} {e.op} {right})"
        if e.op in ("==", "!="):
            if isinstance(e.right, A.NoneLit) or isinstance(e.left, A.NoneLit):
                return f"({left} {'is' if e.op == '==' else 'is not'} {right})"
            if self._scalar(e.left) or self._scalar(e.right):  # (values.equal is Python's == then)
                return f"({left} {e.op} {right})"
            # (lists holding one list many times: see values.equal)
            eq = f"_eq(ctx, {left}, {right}, {self._const(e.span)})"
            return eq if e.op == "==" else f"(not {eq})"
        if e.op not in ("<", "<=", ">", ">="):
            raise Unsupported
        places = self.ex.order_of(e.left) or self.ex.order_of(e.right)
        if places is not None:  # (a word not of the enum: KeyError, and the closures say so)
            k = self._const(places)
            return f"({k}[{left}] {e.op} {k}[{right}])"
        if self.ex.unchecked(e.left) and self.ex.unchecked(e.right):
            raise Unsupported  # (which enum, if any: the closures find out from the values)
        return f"({left} {e.op} {right})"

    def _scalar(self, e) -> bool:
        """Never a list: a literal number, text or truth value, or of such a type for the checker."""
        if isinstance(e, (A.Number, A.Text, A.Bool)):
            return True
        t = self.d.types.get(e) if self.d.types else None
        if isinstance(t, T.Optional):
            t = t.inner
        return t in _SCALAR_TYPES or isinstance(t, (T.Kind, T.Enum))

    def _text(self, e) -> bool:
        """A text for the checker (never none)."""
        return isinstance(e, A.Text) or (self.d.types.get(e) if self.d.types else None) == T.TEXT

    def _And(self, e, frame):
        left = self._gen(e.left, frame)
        right = self._branch(frame, lambda: self._gen(e.right, frame))
        if _truth(e.left) and _truth(e.right):
            return f"({left} and {right})"
        return f"(True if ({left}) and ({right}) else False)"

    def _Or(self, e, frame):
        left = self._gen(e.left, frame)
        right = self._branch(frame, lambda: self._gen(e.right, frame))
        if _truth(e.left) and _truth(e.right):
            return f"({left} or {right})"
        return f"(True if ({left}) or ({right}) else False)"

    def _Not(self, e, frame):
        return f"(not ({self._gen(e.operand, frame)}))"

    def _Negate(self, e, frame):
        operand = self._gen(e.operand, frame)
        if _WHOLE.fullmatch(operand):  # (a whole number written in the rule: negated here)
            return str(-int(operand))
        return f"_negate({operand})"

    def _Conditional(self, e, frame):
        cond = self._gen(e.cond, frame)
        then, orelse = (self._branch(frame, lambda x=x: self._gen(x, frame)) for x in (e.then, e.orelse))
        return f"(({then}) if ({cond}) else ({orelse}))"

    def _ListExpr(self, e, frame):
        return "[" + "".join(self._gen(x, frame) + ", " for x in e.items) + "]"

    _TupleExpr = _ListExpr

    def _local(self, var, frame, build):
        """`build(py)` with `var` bound to a new Python name `py` (and its kind known, as
        the closure compiler knows it, for writing it with text())."""
        py = self._fresh("v")
        had, old = var in frame.names, frame.names.get(var)
        frame.names[var] = py
        try:
            return build(py)
        finally:
            if had:
                frame.names[var] = old
            else:
                del frame.names[var]

    def _iterable(self, e, frame) -> str:
        """A comprehension's source (where Python binds no name)."""
        frame.iterable += 1
        try:
            return self._gen(e, frame)
        finally:
            frame.iterable -= 1

    def _Comprehension(self, e, frame, lazy: bool = False):
        """A comprehension as Python's; `lazy`: as a generator, its items worked out as they
        are asked for (each call of a def a call: its work charged as it is made)."""
        source = self._iterable(e.source, frame)
        zone = _zone_read(source)
        items = f"_items(ctx, {source})" if zone is None else f"_zone_walk(ctx, {zone})"
        if isinstance(e.source, A.Call) and e.source.name == "range" and source.startswith("_g_range(ctx, "):
            # (the list is never made)
            items = "_range_items(" + source[len("_g_range("):]

        def build(py):
            cond = f" if ({self._gen(e.cond, frame)})" if e.cond is not None else ""  # (it runs first)
            outer, frame.site = frame.site, ([frame.branches, 0] if e.cond is None and not lazy else None)
            try:
                element = self._gen(e.element, frame)
                calls = frame.site[1] if frame.site is not None else 0
            finally:
                frame.site = outer
            if calls:  # (each item's calls written out: charged with the items, as a call charges)
                return f"[{element} for {py} in _items_calls(ctx, {source}, {calls} if _memo is None else 0, _dp)]"
            if lazy:
                return f"({element} for {py} in {items}{cond})"
            return f"[{element} for {py} in {items}{cond}]"
        return self._branch(frame, lambda: self.ex.with_local_kind(
            e.var, e.source, lambda: self._local(e.var, frame, build)))

    def _sort_key(self, k, frame) -> str:
        key = self._gen(k, frame)
        places = self.ex.order_of(k)
        return key if places is None else f"{self._const(places)}[{key}]"

    def _Sort(self, e, frame):
        source = self._gen(e.source, frame)
        most = tuple(k.direction == "most" for k in e.keys)

        def build(py):
            keys = ", ".join(self._sort_key(k.expr, frame) for k in e.keys)
            return f"_sorted(ctx, {source}, lambda {py}: [{keys}], {most!r})"
        return self._branch(frame, lambda: self.ex.with_local_kind(
            e.var, e.source, lambda: self._local(e.var, frame, build)))


__all__ = ["SourceCompiler", "worth_generating", "GiveUp", "Unsupported"]
