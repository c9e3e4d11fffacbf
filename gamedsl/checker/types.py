"""Types of the rule language, as the checker infers them: values, rendering, assignability.

Types are frozen attrs values (hashable, comparable). ``ANY`` is the unknown type:
an expression gets it after an error, so one mistake does not cascade into more.
A zone used as a value is also a list of its kinds; a cell is a pair of numbers.
"""

from __future__ import annotations

from typing import Iterable, List as _List, Mapping, Optional as _Opt, Tuple as _Tuple, Union

import attrs

from gamedsl.syntax import ast as A
from gamedsl.diagnostics import Diagnostic, did_you_mean


@attrs.frozen
class Prim:
    """number, bool, text, player, none, and any (unknown)."""

    name: str


NUMBER = Prim("number")
BOOL = Prim("bool")
TEXT = Prim("text")
PLAYER = Prim("player")
NONE = Prim("none")
ANY = Prim("any")


@attrs.frozen
class Enum:
    """The values of a declared enum, or the words of an option (named after the option)."""

    name: str


@attrs.frozen
class OptionMix:
    """An option with both words and number ranges: compares with both, counts as a number."""

    name: str


@attrs.frozen
class Kind:
    """A component of one of these kinds (one name, or several for a union)."""

    names: frozenset

    @property
    def name(self) -> str:
        return " or ".join(sorted(self.names))


def kind(*names: str) -> Kind:
    return Kind(frozenset(names))


@attrs.frozen
class List:
    item: object


@attrs.frozen
class Optional:
    """A value of `inner`, or none."""

    inner: object


@attrs.frozen
class Tuple:
    items: tuple


CELL = Tuple((NUMBER, NUMBER))


@attrs.frozen
class Row:
    """One row of a table: its columns are attributes."""

    table: str


@attrs.frozen
class Table:
    """A table's name used as a value: `rows(T)`, `T[key]`."""

    name: str


@attrs.frozen
class Zone:
    """A zone (shared, or one player's), holding components of `kinds`; a list of them as a value."""

    name: str
    kinds: frozenset
    per_player: bool = False
    grid: bool = False
    bounded: bool = False  # a grid with a size (grid W by H)

    @property
    def component(self) -> Kind:
        return Kind(self.kinds)


@attrs.frozen
class Family:
    """A family of zones (`zone pile[colour]`), one `zone` per value of `index` (an enum, or a
    number of a range); as a value, the list of those values."""

    name: str
    index: object
    zone: Zone


@attrs.frozen
class Words:
    """A declared word list (`words NAME from "file"`): asked with `w in NAME`, formable()."""

    name: str


Type = Union[Prim, Enum, OptionMix, Kind, List, Optional, Tuple, Row, Table, Zone, Family, Words]

BUILTIN_TYPE_NAMES = {"number": NUMBER, "int": NUMBER, "bool": BOOL, "text": TEXT,
                      "player": PLAYER, "cell": CELL}


# ---------------------------------------------------------------- rendering


def render(t) -> str:
    """A type as a designer would say it: ``list of card``, ``player?``, ``cell``."""
    if t == ANY:
        return "unknown"
    if isinstance(t, Prim):
        return t.name
    if t == CELL:
        return "cell"
    if isinstance(t, (Enum, OptionMix)):
        return t.name
    if isinstance(t, Kind):
        return t.name
    if isinstance(t, List):
        return f"list of {render(t.item)}"
    if isinstance(t, Optional):
        if t.inner == ANY:
            return "unknown"
        inner = render(t.inner)
        return f"({inner})?" if " " in inner else f"{inner}?"
    if isinstance(t, Tuple):
        return "(" + ", ".join(render(i) for i in t.items) + ")"
    if isinstance(t, Words):
        return f"word list {t.name}"
    if isinstance(t, Row):
        return f"row of {t.table}"
    if isinstance(t, Table):
        return f"table {t.name}"
    if isinstance(t, Zone):
        return f"{'player ' if t.per_player else ''}zone {t.name}"
    if isinstance(t, Family):
        return f"{'player ' if t.zone.per_player else ''}zone family {t.name}"
    return str(t)


# ---------------------------------------------------------------- relations


def unwrap(t):
    """`T?` -> T (rules may use an optional value as the value; none is a runtime error)."""
    while isinstance(t, Optional):
        t = t.inner
    return t


def is_number(t) -> bool:
    t = unwrap(t)
    return t in (NUMBER, ANY) or isinstance(t, OptionMix)


def is_bool(t) -> bool:
    return unwrap(t) in (BOOL, ANY)


def kinds_of(t) -> _Opt[frozenset]:
    """The kind names of a component type, or None if `t` is not a component."""
    t = unwrap(t)
    return t.names if isinstance(t, Kind) else None


def item_type(t):
    """What iterating over `t` gives, or None if it is not a list (a zone, a list, a text)."""
    t = unwrap(t)
    if t == ANY:
        return ANY
    if isinstance(t, List):
        return t.item
    if isinstance(t, Zone):
        return t.component
    if isinstance(t, Family):
        return t.index
    if t == TEXT:
        return TEXT
    return None


def assignable(src, dst) -> bool:
    """May a value of type `src` stand where `dst` is expected?"""
    if src == ANY or dst == ANY or src == dst:
        return True
    if isinstance(dst, Optional):
        return src == NONE or assignable(unwrap(src), dst.inner)
    if isinstance(src, Optional):
        return assignable(src.inner, dst)  # optional values are used as values
    if isinstance(src, Kind) and isinstance(dst, Kind):
        return src.names <= dst.names
    if isinstance(src, OptionMix):
        return dst == NUMBER
    if isinstance(src, Enum) and isinstance(dst, OptionMix):
        return src.name == dst.name
    if isinstance(dst, List):
        item = item_type(src) if isinstance(src, (List, Zone, Family)) else None
        return item is not None and assignable(item, dst.item)
    if isinstance(src, Tuple) and isinstance(dst, Tuple):
        return len(src.items) == len(dst.items) and all(
            assignable(s, d) for s, d in zip(src.items, dst.items))
    return False


def comparable(a, b) -> bool:
    """May `a == b` be asked? (the same kind of value, or none against anything)"""
    a0, b0 = unwrap(a), unwrap(b)
    if NONE in (a0, b0):
        return True
    if is_number(a0) and is_number(b0):
        return True
    if isinstance(a0, OptionMix) and isinstance(b0, Enum):
        return a0.name == b0.name
    if isinstance(b0, OptionMix) and isinstance(a0, Enum):
        return a0.name == b0.name
    if isinstance(a0, Kind) and isinstance(b0, Kind):
        return bool(a0.names & b0.names)
    return assignable(a0, b0) or assignable(b0, a0)


def orderable(t) -> bool:
    """May `t` be compared with < or sorted? (numbers, texts, and an enum's values, in the
    order the enum declares them)"""
    t = unwrap(t)
    return is_number(t) or t == TEXT or isinstance(t, Enum)


def join(a, b):
    """The type of a value that is either an `a` or a `b` (list items, branches), or None."""
    if a == b:
        return a
    if a == ANY or b == ANY:
        return ANY
    if a == NONE:
        return b if isinstance(b, Optional) else Optional(b)
    if b == NONE:
        return a if isinstance(a, Optional) else Optional(a)
    if isinstance(a, Optional) or isinstance(b, Optional):
        inner = join(unwrap(a), unwrap(b))
        return Optional(inner) if inner is not None else None
    if isinstance(a, Kind) and isinstance(b, Kind):
        return Kind(a.names | b.names)
    if is_number(a) and is_number(b):
        return NUMBER
    if isinstance(a, (List, Zone)) and isinstance(b, (List, Zone)):
        inner = join(item_type(a), item_type(b))
        return List(inner) if inner is not None else None
    if isinstance(a, Tuple) and isinstance(b, Tuple) and len(a.items) == len(b.items):
        items = [join(x, y) for x, y in zip(a.items, b.items)]
        return None if None in items else Tuple(tuple(items))
    if assignable(a, b):
        return b
    if assignable(b, a):
        return a
    return None


def join_all(types: Iterable) -> _Opt[object]:
    out = None
    for t in types:
        out = t if out is None else join(out, t)
        if out is None:
            return None
    return out


# ---------------------------------------------------------------- declared types


def parse_type(ref: A.TypeRef, scope: Mapping[str, object],
               on_use=None) -> _Tuple[object, _List[Diagnostic]]:
    """A written type (`number`, `suit`, `list of card`, `player?`) -> (Type, diagnostics).

    `scope` maps the game's own type names (enums, kinds) to their types; `on_use(name)`
    is told of each one used. An unknown name gives E104 and the type ANY.
    """
    if isinstance(ref, A.TypeList):
        item, diags = parse_type(ref.item, scope, on_use)
        return List(item), diags
    if isinstance(ref, A.TypeOptional):
        inner, diags = parse_type(ref.inner, scope, on_use)
        return (inner if isinstance(inner, Optional) or inner == ANY else Optional(inner)), diags
    name = ref.name
    if name in BUILTIN_TYPE_NAMES:
        return BUILTIN_TYPE_NAMES[name], []
    if name in scope:
        if on_use is not None:
            on_use(name)
        return scope[name], []
    close = did_you_mean(name, list(BUILTIN_TYPE_NAMES) + list(scope))
    return ANY, [Diagnostic("E104", f"unknown type '{name}'" + (f" ({close})" if close else ""),
                            ref.span, "types are number, bool, text, player, cell, "
                            "an enum's or a kind's name, 'list of T' and 'T?'")]
