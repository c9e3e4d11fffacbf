"""Signatures of the built-in functions and names (docs/language.md, "Built-in ...").

A builtin is a `Builtin`: its arity and a small function `infer(args, spans)` that takes
the argument types (and their spans, to point at a wrong one) and gives the result type
and diagnostics, so a result may depend on the arguments (`first(list of T) -> T`).
Arity is checked by the caller (the checker), before `infer` runs. `pure=False` marks a
builtin that may only run in the statements of setup, turn, phase and procedure blocks.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import attrs

from gamedsl.diagnostics import Span
from gamedsl.diagnostics import Diagnostic
from gamedsl.checker import types as T

Infer = Callable[[List[object], List[Span]], Tuple[object, List[Diagnostic]]]


@attrs.frozen
class Builtin:
    name: str
    min_args: int
    max_args: Optional[int]  # None: any number
    infer: Infer
    summary: str
    pure: bool = True
    usage: str = ""  # how it is called, for messages: "max([a, b])"
    list_args: frozenset = frozenset()  # arguments that name a word list (`formable(D, L)`)

    def arity_text(self) -> str:
        if self.max_args == self.min_args:
            n = self.min_args
            return f"{n} argument" + ("" if n == 1 else "s")
        if self.max_args is None:
            return f"{self.min_args} or more arguments"
        return f"{self.min_args} to {self.max_args} arguments"


class _Args:
    """The argument types of one call, with helpers that note what is wrong."""

    def __init__(self, name: str, types: List[object], spans: List[Span]):
        self.name, self.types, self.spans = name, types, spans
        self.diags: List[Diagnostic] = []

    def _bad(self, i: int, wanted: str, hint: Optional[str] = None):
        self.diags.append(Diagnostic(
            "E201", f"{self.name}() needs {wanted} here, not {T.render(self.types[i])}",
            self.spans[i], hint))

    def number(self, i: int):
        if not T.is_number(self.types[i]):
            self._bad(i, "a number")

    def player(self, i: int):
        if not T.assignable(self.types[i], T.PLAYER):
            self._bad(i, "a player")

    def cell(self, i: int):
        if not T.assignable(self.types[i], T.CELL):
            self._bad(i, "a cell (x, y)")

    def items(self, i: int, wanted: str = "a list"):
        """The item type of list argument i (ANY after an error)."""
        item = T.item_type(self.types[i])
        if item is None:
            self._bad(i, wanted)
            return T.ANY
        return item

    def component(self, i: int):
        if T.kinds_of(self.types[i]) is None and T.unwrap(self.types[i]) != T.ANY:
            self._bad(i, "a component")

    def grid(self, i: int) -> object:
        t = T.unwrap(self.types[i])
        if t == T.ANY:
            return T.ANY
        if isinstance(t, T.Zone) and t.grid:
            return t.component
        self._bad(i, "a grid zone", "a zone is a grid when declared with 'grid W by H'")
        return T.ANY

    def done(self, result) -> Tuple[object, List[Diagnostic]]:
        return result, self.diags


def _numbers_list(a: _Args, i: int):
    item = a.items(i, "a list of numbers")
    if not T.is_number(item):
        a._bad(i, "a list of numbers")


# ---------------------------------------------------------------- the builtins


def _len(a):
    a.items(0, "a list, a zone or a text")
    return a.done(T.NUMBER)


def _sum(a):
    _numbers_list(a, 0)
    return a.done(T.NUMBER)


def _max_min(a):
    item = a.items(0, "a list of numbers")
    if isinstance(T.unwrap(item), T.Enum):  # by the order the enum declares its values
        return a.done(T.unwrap(item))
    if not T.is_number(item):
        a._bad(0, "a list of numbers or of an enum's values")
    return a.done(T.NUMBER)


def _number_fn(a):
    a.number(0)
    return a.done(T.NUMBER)


def _any_all(a):
    item = a.items(0, "a list of bools")
    if not T.is_bool(item):
        a._bad(0, "a list of bools")
    return a.done(T.BOOL)


def _item(a):
    return a.done(a.items(0))


def _item_or_items(a):
    """first(L) is an item; first(L, n) the first n items."""
    item = a.items(0)
    if len(a.types) < 2:
        return a.done(item)
    a.number(1)
    return a.done(T.List(item))


def _range(a):
    a.number(0)
    a.number(1)
    return a.done(T.List(T.NUMBER))


def _sorted(a):
    item = a.items(0)
    if not T.orderable(item) and T.unwrap(item) != T.ANY:
        a._bad(0, "a list of numbers, texts or an enum's values",
               "to sort other values write: sort x in L by most KEY")
    return a.done(T.List(item))


def _same_list(a):
    return a.done(T.List(a.items(0)))


def _count(a):
    item = a.items(0)
    if not T.comparable(item, a.types[1]):
        a._bad(1, f"a value like the list's items ({T.render(item)})")
    return a.done(T.NUMBER)


def _top(a):
    t = T.unwrap(a.types[0])
    a.number(1)
    if isinstance(t, T.Zone):
        return a.done(T.List(t.component))
    if t != T.ANY:
        a._bad(0, "a zone", "for a list, use first(L) or L[0]")
    return a.done(T.List(T.ANY))


def _full(a):
    t = T.unwrap(a.types[0])
    if not isinstance(t, T.Zone) and t != T.ANY:
        hint = f"say which of its zones: {t.name}[...]" if isinstance(t, T.Family) else None
        a._bad(0, "a zone", hint)
    return a.done(T.BOOL)


def _text(a):
    return a.done(T.TEXT)


def _seat(a):
    a.player(0)
    return a.done(T.NUMBER)


def _player_to_player(a):
    a.player(0)
    return a.done(T.PLAYER)


def _player_to_players(a):
    a.player(0)
    return a.done(T.List(T.PLAYER))


def _distance(a):
    a.player(0)
    a.player(1)
    return a.done(T.NUMBER)


def _holder(a):
    a.component(0)
    return a.done(T.Optional(T.PLAYER))


def _rows(a):
    t = T.unwrap(a.types[0])
    if isinstance(t, T.Table):
        return a.done(T.List(T.Row(t.name)))
    if t != T.ANY:
        a._bad(0, "a table")
    return a.done(T.List(T.ANY))


def _cells(a):
    a.grid(0)
    return a.done(T.List(T.CELL))


def _at(a):
    comp = a.grid(0)
    a.cell(1)
    return a.done(T.Optional(comp) if comp != T.ANY else T.ANY)


def _neighbours(a):
    a.cell(0)
    return a.done(T.List(T.CELL))


def _lines(a):
    a.grid(0)
    a.number(1)
    t = T.unwrap(a.types[0])
    if isinstance(t, T.Zone) and t.grid and not t.bounded:
        a.diags.append(Diagnostic("E213", f"lines() needs a grid with a size, and zone {t.name} "
                                  "has none", a.spans[0], "declare it 'grid W by H'"))
    return a.done(T.List(T.List(T.CELL)))


def _runs(a):
    _numbers_list(a, 0)
    a.number(1)
    return a.done(T.List(T.List(T.NUMBER)))


def _longest_run(a):
    _numbers_list(a, 0)
    return a.done(T.NUMBER)


def _chain(a):
    _numbers_list(a, 0)
    a.number(1)
    a.number(2)
    return a.done(T.NUMBER)


def _counts(a):
    item = a.items(0, "a list")
    return a.done(T.List(T.Tuple((item, T.NUMBER))))


# ---------------------------------------------------------------- texts, multisets, word lists


def _text_arg(a: _Args, i: int):
    if T.unwrap(a.types[i]) not in (T.TEXT, T.ANY):
        a._bad(i, "a text")


def _texts_to(result):
    def fn(a):
        for i in range(len(a.types)):
            _text_arg(a, i)
        return a.done(result)
    return fn


def _letters(a):
    _text_arg(a, 0)
    return a.done(T.List(T.TEXT))


def _join(a):
    item = a.items(0, "a list of texts")
    if T.unwrap(item) not in (T.TEXT, T.ANY):
        a._bad(0, "a list of texts")
    if len(a.types) > 1:
        _text_arg(a, 1)
    return a.done(T.TEXT)


def _multiset(result_is_list: bool):
    def fn(a):
        item = a.items(0)
        other = a.items(1)
        if not T.comparable(item, other):
            a._bad(1, f"a list of {T.render(item)}")
        return a.done(T.List(item) if result_is_list else T.BOOL)
    return fn


def _flatten(a):
    item = a.items(0, "a list of lists")
    inner = T.item_type(item)
    if inner is None:
        a._bad(0, "a list of lists")
        inner = T.ANY
    return a.done(T.List(inner))


def _word_list_arg(a):
    if not isinstance(T.unwrap(a.types[0]), T.Words) and T.unwrap(a.types[0]) != T.ANY:
        a._bad(0, "a word list", "declare one: words NAME from \"file.txt\"")


def _letters_arg(a, i):
    item = a.items(i, "a list of letters (texts)")
    if T.unwrap(item) not in (T.TEXT, T.ANY):
        a._bad(i, "a list of letters (texts)")


def _formable(a):
    _word_list_arg(a)
    _letters_arg(a, 1)
    if len(a.types) > 2:
        a.number(2)
    return a.done(T.List(T.TEXT))


def _pieces(a: _Args, i: int) -> object:
    """The kind of the pieces of list argument i."""
    item = a.items(i, "a list of pieces")
    if T.kinds_of(item) is None and T.unwrap(item) != T.ANY:
        a._bad(i, "a list of pieces (components)")
    return item


def _face(a):
    a.grid(0)
    a.cell(1)
    return a.done(T.ANY)


def _placements(a):
    a.grid(0)
    piece = _pieces(a, 1)
    return a.done(T.List(T.Tuple((piece, T.List(T.CELL)))))


def _word_lines(a):
    _word_list_arg(a)
    a.grid(1)
    if not T.assignable(a.types[2], T.List(T.CELL)):
        a._bad(2, "a list of cells")
    if not T.assignable(a.types[3], T.List(T.TEXT)):
        a._bad(3, "a list of letters (texts)")
    a.number(4)
    a.number(5)
    return a.done(T.List(T.List(T.TEXT)))


def _word_placements(a):
    _word_list_arg(a)
    a.grid(1)
    piece = _pieces(a, 2)
    a.number(3)
    a.number(4)
    return a.done(T.List(T.Tuple((piece, T.List(T.CELL), T.List(T.List(T.TEXT))))))


def _picks(a):
    item = a.items(0, "a list of lists")
    inner = T.item_type(item) if item != T.ANY else T.ANY
    if inner is None:
        a._bad(0, "a list of lists")
        inner = T.ANY
    return a.done(T.List(T.List(inner)))


def _assignable(a):
    a.items(0)
    item = a.items(1, "a list of lists")
    if item != T.ANY and T.item_type(item) is None:
        a._bad(1, "a list of lists")
    return a.done(T.BOOL)


def _index_of(a):
    a.items(0)
    return a.done(T.NUMBER)


def _matching(a):
    _word_list_arg(a)
    _letters_arg(a, 1)
    return a.done(T.List(T.TEXT))


def _fold(a):
    _word_list_arg(a)
    _text_arg(a, 1)
    return a.done(T.TEXT)


def _reads(a):
    _word_list_arg(a)
    _text_arg(a, 1)
    _letters_arg(a, 2)
    return a.done(T.BOOL)


def _b(usage, lo, hi, fn, summary, pure=True, list_args=frozenset()) -> Builtin:
    name = usage.split("(")[0]

    def infer(types, spans):
        return fn(_Args(name, list(types), list(spans)))
    return Builtin(name, lo, hi, infer, summary, pure, usage, frozenset(list_args))


BUILTINS: Dict[str, Builtin] = {b.name: b for b in [
    _b("len(L)", 1, 1, _len, "number of items (or letters of a text)"),
    _b("sum(L)", 1, 1, _sum, "the sum of a list of numbers"),
    _b("max([a, b, ...])", 1, 1, _max_min, "the largest of a list of numbers (or of an enum's values): max([a, b])"),
    _b("min([a, b, ...])", 1, 1, _max_min, "the smallest of a list of numbers (or of an enum's values): min([a, b])"),
    _b("abs(n)", 1, 1, _number_fn, "the absolute value"),
    _b("ceil(n)", 1, 1, _number_fn, "rounded up"),
    _b("floor(n)", 1, 1, _number_fn, "rounded down"),
    _b("any(L)", 1, 1, _any_all, "is any of a list of bools true (a comprehension's items: up to the first true one)"),
    _b("all(L)", 1, 1, _any_all, "are all of a list of bools true (a comprehension's items: up to the first false one)"),
    _b("first(L, n)", 1, 2, _item_or_items, "the first item (a comprehension's items: up to the first kept); with n, the first n items (fewer if L is shorter)"),
    _b("last(L, n)", 1, 2, _item_or_items, "the last item; with n, the last n items (fewer if L is shorter)"),
    _b("range(a, b)", 2, 2, _range, "[a, a+1, ..., b] (both ends included)"),
    _b("sorted(L)", 1, 1, _sorted, "a list of numbers, texts or an enum's values, smallest first"),
    _b("reversed(L)", 1, 1, _same_list, "the list, last first"),
    _b("distinct(L)", 1, 1, _same_list, "the list without repeated items"),
    _b("count(L, x)", 2, 2, _count, "how many items equal x"),
    _b("top(zone, n)", 2, 2, _top, "the first n components of a zone"),
    _b("full(zone)", 1, 1, _full, "does a zone hold as many components as its capacity"),
    _b("text(x)", 1, 1, _text, "a value written as text"),
    _b("seat(p)", 1, 1, _seat, "a player's seat number, 1.."),
    _b("left_of(p)", 1, 1, _player_to_player, "the next player clockwise"),
    _b("right_of(p)", 1, 1, _player_to_player, "the next player counter-clockwise"),
    _b("others(p)", 1, 1, _player_to_players, "the other players, clockwise from p's left"),
    _b("players_from(p)", 1, 1, _player_to_players, "all players, clockwise from p"),
    _b("distance(a, b)", 2, 2, _distance, "clockwise steps from a to b"),
    _b("holder(c)", 1, 1, _holder, "the player whose zone holds a component, or none"),
    _b("random(L)", 1, 1, _item, "a random item (in statements only)", pure=False),
    _b("rows(table)", 1, 1, _rows, "the rows of a table"),
    _b("cells(grid)", 1, 1, _cells, "a grid's cells"),
    _b("empty_cells(grid)", 1, 1, _cells, "a grid's empty cells"),
    _b("at(grid, cell)", 2, 2, _at, "the component on a cell, or none"),
    _b("neighbours(cell)", 1, 1, _neighbours, "the four cells next to a cell"),
    _b("lines(grid, n)", 2, 2, _lines, "every straight line of n cells of a bounded grid"),
    _b("runs(L, n)", 2, 2, _runs, "the longest runs of at least n consecutive numbers, lowest first"),
    _b("longest_run(L)", 1, 1, _longest_run, "how many numbers the longest run of consecutive ones has"),
    _b("chain(L, start, jokers)", 3, 3, _chain,
       "how long the chain start, start+1, ... is, made of L's numbers and that many jokers"),
    _b("counts(L)", 1, 1, _counts, "each distinct item with how many times it appears: [(x, n), ...]"),
    _b("letters_of(t)", 1, 1, _letters, "the letters of a text, each a one-letter text"),
    _b("upper(t)", 1, 1, _texts_to(T.TEXT), "a text in capitals"),
    _b("lower(t)", 1, 1, _texts_to(T.TEXT), "a text in small letters"),
    _b("replace(t, old, new)", 3, 3, _texts_to(T.TEXT), "a text with every `old` replaced by `new`"),
    _b("starts_with(t, s)", 2, 2, _texts_to(T.BOOL), "does a text begin with s"),
    _b("ends_with(t, s)", 2, 2, _texts_to(T.BOOL), "does a text end with s"),
    _b("join(L, sep)", 1, 2, _join, "a list of texts written one after the other (with sep between them)"),
    _b("split(t, sep)", 2, 2, _texts_to(T.List(T.TEXT)),
       "the pieces of a text between the separators, trimmed of spaces; empty pieces dropped"),
    _b("flatten(L)", 1, 1, _flatten, "a list of lists joined into one list"),
    _b("covers(L, M)", 2, 2, _multiset(False), "does L hold every item of M (as often as M does)"),
    _b("without(L, M)", 2, 2, _multiset(True), "L with each item of M taken out once"),
    _b("formable(D, L)", 2, 3, _formable,
       "the words of word list D spelt by some of the letters L (formable(D, L, 1): one of "
       "them may be used twice)", list_args={0}),
    _b("index_of(L, x)", 2, 2, _index_of, "where x first stands in L (0 for the first item)"),
    _b("face(grid, cell)", 2, 2, _face, "the face of a piece on a cell (its kind's 'faces'), or none"),
    _b("placements(grid, L)", 2, 2, _placements,
       "every way to lay a piece of L on empty cells in a line, next to the pieces down: [(piece, cells)]"),
    _b("word_lines(D, grid, cells, letters, n, ways)", 6, 6, _word_lines,
       "for letters laid on cells: the words of D (n+ letters, over a laid cell) on each line "
       "through them, read 2 ways (→ ↓) or 4 (also ← ↑); lines without a word left out",
       list_args={0}),
    _b("word_placements(D, grid, L, n, ways)", 5, 5, _word_placements,
       "every placement of a piece of L making words of D: [(piece, cells, words of each line)]",
       list_args={0}),
    _b("picks(L)", 1, 1, _picks, "every non-empty choice of at most one item from each list of L"),
    _b("assignable(L, M)", 2, 2, _assignable,
       "can each item of L be given a list of M of its own that holds it"),
    _b("matching(D, L)", 2, 2, _matching,
       "the words of word list D that match the letters L one by one (by D's folding, "
       "match letters and wild mark)", list_args={0}),
    _b("fold(D, w)", 2, 2, _fold, "a text in small letters, each letter folded as word list D folds it",
       list_args={0}),
    _b("reads(D, w, L)", 3, 3, _reads,
       "is w a word of word list D that matches the letters L one by one (by D's folding)",
       list_args={0}),
]}


@attrs.frozen
class BuiltinName:
    name: str
    type: object
    assignable: bool = False


BUILTIN_NAMES: Dict[str, BuiltinName] = {n.name: n for n in [
    BuiltinName("current", T.PLAYER),
    BuiltinName("players", T.List(T.PLAYER)),
    BuiltinName("in_round", T.List(T.PLAYER)),
    BuiltinName("start_player", T.PLAYER, assignable=True),
    BuiltinName("round", T.NUMBER),
    BuiltinName("player_count", T.NUMBER),
]}
