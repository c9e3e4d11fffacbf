"""The syntax tree of the rule language: frozen attrs nodes, each with a Span first.

Nodes are produced by :mod:`gamedsl.syntax.parser` and read by the checker and the
compiler. Absent bodies are empty tuples, never None; optional single children
(a guard, a winner) are None when absent.
"""

from __future__ import annotations

from typing import Optional, Union

import attrs

from gamedsl.diagnostics import NO_SPAN, Span  # noqa: F401 — nodes' first field; re-exported


def node(cls):
    # (a repr shared by every node, not one generated for each: making ~100 classes at every
    # start of the tool is most of its import time, and the repr most of each class's)
    made = attrs.frozen(cls, eq=True, repr=False)
    made.__repr__ = _node_repr
    return made


def _node_repr(self) -> str:
    fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(type(self)))
    return f"{type(self).__name__}({fields})"


# ---------------------------------------------------------------- types


@node
class TypeName:
    span: Span
    name: str


@node
class TypeOptional:
    span: Span
    inner: "TypeRef"


@node
class TypeList:
    span: Span
    item: "TypeRef"


TypeRef = Union[TypeName, TypeOptional, TypeList]


# ---------------------------------------------------------------- expressions


@node
class Name:
    span: Span
    name: str


@node
class Number:
    span: Span
    value: Union[int, float]


@node
class Text:
    span: Span
    value: str


@node
class Bool:
    span: Span
    value: bool


@node
class NoneLit:
    span: Span


@node
class Attribute:
    """``obj.name``: a component's attribute, a player's variable or zone."""

    span: Span
    obj: "Expr"
    name: str


@node
class Index:
    span: Span
    obj: "Expr"
    index: "Expr"


@node
class Call:
    """``name(args)``: a builtin, a ``def`` function or (as a statement) a procedure."""

    span: Span
    name: str
    args: tuple
    implicit: bool = False  # written by the parser (`2..10`, several `for`s): a local cannot hide it


@node
class BinOp:
    """Arithmetic: op is one of + - * / // %."""

    span: Span
    op: str
    left: "Expr"
    right: "Expr"


@node
class Compare:
    """op is one of == != < <= > >= in, not in."""

    span: Span
    op: str
    left: "Expr"
    right: "Expr"


@node
class And:
    span: Span
    left: "Expr"
    right: "Expr"


@node
class Or:
    span: Span
    left: "Expr"
    right: "Expr"


@node
class Not:
    span: Span
    operand: "Expr"


@node
class Negate:
    span: Span
    operand: "Expr"


@node
class Conditional:
    """``then if cond else orelse``."""

    span: Span
    cond: "Expr"
    then: "Expr"
    orelse: "Expr"


@node
class ListExpr:
    span: Span
    items: tuple


@node
class TupleExpr:
    """``(x, y)``: a grid cell, or any fixed-size group of values."""

    span: Span
    items: tuple


@node
class Comprehension:
    """``[element for var in source if cond]``."""

    span: Span
    element: "Expr"
    var: str
    source: "Expr"
    cond: Optional["Expr"]


@node
class SortKey:
    span: Span
    direction: str  # "most" or "fewest"
    expr: "Expr"


@node
class Sort:
    """``sort var in source by most k1, then fewest k2``: a stable multi-key sort."""

    span: Span
    var: str
    source: "Expr"
    keys: tuple


def literal_value(e):
    """The value an option's default or a scenario's `option x = v` writes: a word, number, text or bool."""
    if isinstance(e, Name):
        return e.name
    if isinstance(e, (Number, Text, Bool)):
        return e.value
    return None


Expr = Union[
    Name, Number, Text, Bool, NoneLit, Attribute, Index, Call, BinOp, Compare, And, Or,
    Not, Negate, Conditional, ListExpr, TupleExpr, Comprehension, Sort,
]


# ---------------------------------------------------------------- statements


@node
class Let:
    span: Span
    name: str
    value: Expr


@node
class Assign:
    """``target op value`` with op one of = += -= *=; target is a Name, Attribute or Index."""

    span: Span
    target: Expr
    op: str
    value: Expr


@node
class CallStmt:
    span: Span
    call: Call


@node
class Move:
    """``move what to dest`` (appended), ``to top of dest``, or ``to dest at cell``."""

    span: Span
    what: Expr
    dest: Expr
    place: str  # "end", "top" or "cell"
    cell: Optional[Expr]  # a grid's cell, or a position in a zone's order
    end: Optional[str] = None  # `at N from top|bottom`: the end a position is counted from


@node
class Draw:
    """``draw count from source to dest``: from the top, refilling the source if declared."""

    span: Span
    count: Expr
    source: Expr
    dest: Expr


@node
class Shuffle:
    span: Span
    zone: Expr


@node
class NextTurn:
    span: Span
    player: Expr


@node
class EndRound:
    span: Span


@node
class LeaveRound:
    """``leave round [P]``: P (the current player if none is named) sits out the rest of the round."""

    span: Span
    player: Optional[Expr]


@node
class EndGame:
    span: Span
    after_round: bool
    winner: Optional[Expr]
    outcome: Optional[str] = None   # a cooperative game's `won` or `lost`


@node
class Say:
    """``say E`` tells every seat; ``say E to P`` tells only player P (`to` is None for all)."""

    span: Span
    message: Expr
    to: Optional[Expr] = None


@node
class Show:
    """``show E to P``: player P looks at component(s) E, and remembers them while they stay put."""

    span: Span
    what: Expr
    to: Expr


@node
class Break:
    span: Span


@node
class Return:
    span: Span


@node
class Pass:
    span: Span


@node
class IfBranch:
    span: Span
    cond: Expr
    body: tuple


@node
class If:
    span: Span
    branches: tuple  # of IfBranch: the if and each elif
    orelse: tuple


@node
class For:
    span: Span
    var: str
    iterable: Expr
    body: tuple


@node
class While:
    span: Span
    cond: Expr
    body: tuple


@node
class Repeat:
    """``repeat n times:`` (count) or ``repeat:`` (count None, until ``break``)."""

    span: Span
    count: Optional[Expr]
    body: tuple


@node
class AltParam:
    """``name in domain`` (a listed choice), or ``name: type`` (typed by a person; domain None)."""

    span: Span
    name: str
    domain: Optional[Expr]
    type: Optional["TypeRef"] = None
    nobody: bool = False     # ``name in domain or nobody``: none when the domain is empty


@node
class Alternative:
    """One move a player may choose: ``name(p in domain, ...) "template" if guard: body``."""

    span: Span
    name: str
    params: tuple
    template: Optional[str]
    guard: Optional[Expr]
    body: tuple
    suggest: Optional[Expr] = None  # typed parameters: the values bots consider
    refusal: Optional[Expr] = None  # typed parameters: why the guard refuses (``if g else E``)
    help: Optional[str] = None      # typed parameters: how a person types the move


@node
class OnTimeout:
    """``on timeout:`` among a choice's alternatives: what happens when its clock runs out."""

    span: Span
    body: tuple


@node
class Choose:
    """``choose by player within timer seconds:``; ``timeouts`` are its ``on timeout:``
    blocks (the checker wants exactly one when there is a timer, none without)."""

    span: Span
    player: Expr
    alternatives: tuple
    timer: Optional[Expr] = None
    timeouts: tuple = ()


@node
class SecretChoose:
    """``choose secretly by each var in players:``: all choose, then all are revealed."""

    span: Span
    var: str
    players: Expr
    alternatives: tuple
    timer: Optional[Expr] = None  # not allowed (the checker says so): kept to say where
    timeouts: tuple = ()


Stmt = Union[
    Let, Assign, CallStmt, Move, Draw, Shuffle, NextTurn, EndGame, Say, Break, Return,
    Pass, Show, If, For, While, Repeat, Choose, SecretChoose,
]


# ---------------------------------------------------------------- declarations


@node
class GameDecl:
    span: Span
    title: str


@node
class ExtendsDecl:
    span: Span
    path: str


@node
class PlayersDecl:
    span: Span
    low: int
    high: int


@node
class OptionWord:
    span: Span
    word: str


@node
class OptionRange:
    span: Span
    low: int
    high: int


@node
class OptionDecl:
    """``option name: alt | alt = default``; alternatives are words or ``lo..hi`` ranges."""

    span: Span
    name: str
    alternatives: tuple
    default: Expr  # a Name (word), Number, Text or Bool


@node
class EnumDecl:
    span: Span
    name: str
    values: tuple  # of Name


@node
class Column:
    span: Span
    name: str
    type: Optional[TypeRef]


@node
class Cell:
    """A table cell. kind: word, number, at_least (12+), range (3..5), text, bool, empty (-)."""

    span: Span
    kind: str
    value: object


@node
class TableDecl:
    span: Span
    name: str
    key: Optional[str]
    columns: tuple  # of Column (the header row)
    rows: tuple  # of tuple of Cell
    source: Optional[str]  # a CSV file beside the game, instead of literal rows


@node
class KindAttr:
    span: Span
    name: str
    value: Expr


@node
class KindState:
    span: Span
    name: str
    type: TypeRef
    init: Expr


@node
class KindEach:
    """``for value in 2..10`` in a kind: one component per item, `value` its attribute."""

    span: Span
    name: str
    source: Expr


@node
class KindDecl:
    span: Span
    name: str
    source_table: Optional[str]
    copies: Optional[Expr]
    per_player: bool
    show: Optional[Expr]
    attrs: tuple  # of KindAttr
    states: tuple  # of KindState
    faces: tuple = ()  # of Name: a piece covering one grid cell per face, face i showing attribute i
    each: tuple = ()  # of KindEach: one component per combination of their items (and table row)


@node
class ZoneFlag:
    """public / hidden / owner / grid (word); sorted (arg: attribute); grid (arg: (w, h)); refill (arg: zone);
    capacity (arg: how many components it holds at most)."""

    span: Span
    word: str
    arg: object


@node
class ZoneDecl:
    span: Span
    name: str
    per_player: bool
    kinds: tuple  # of Name
    flags: tuple  # of ZoneFlag
    family: Optional["ZoneFamily"] = None  # one zone per value: `zone pile[colour] of card`


@node
class ZoneFamily:
    """`[colour]` (enum: the Name written) or `[low..high]` (a range of numbers, ends included)
    after a zone's name."""

    span: Span
    enum: Optional[Expr]
    low: Optional[Expr] = None
    high: Optional[Expr] = None


@node
class VarDecl:
    span: Span
    name: str
    per_player: bool
    type: TypeRef
    init: Expr
    flags: tuple  # of Name (secret)


@node
class Param:
    span: Span
    name: str
    type: TypeRef


@node
class DefDecl:
    span: Span
    name: str
    params: tuple
    body: Expr


@node
class ProcDecl:
    span: Span
    name: str
    params: tuple
    body: tuple


@node
class SetupDecl:
    span: Span
    body: tuple


@node
class PhaseDecl:
    """A phase: ``on begin`` once, then ``turn`` for each player in turn until ``end when``."""

    span: Span
    name: str
    begin: tuple
    turn: tuple
    end_when: Optional[Expr]
    then: Optional[Name]


@node
class TurnDecl:
    """A top-level ``turn:``: the body of the implicit single phase ``main``."""

    span: Span
    body: tuple


@node
class ScoreDecl:
    """`score of p: expr`, or a cooperative game's shared `score: expr` (`var` None)."""
    span: Span
    var: Optional[str]
    expr: Expr
    lowest: bool = False     # ``, lowest wins``


@node
class CooperativeDecl:
    """`cooperative` — the players win or lose together, with one shared score."""
    span: Span


@node
class TeamDecl:
    """`team of p: expr` — players whose values are equal form a team, ranked as one."""
    span: Span
    var: str
    expr: Expr
    lowest: bool = False     # ``, lowest wins``


@node
class HeuristicDecl:
    """`heuristic of p: expr` — how well p is doing mid-game, for bots (higher is better)."""
    span: Span
    var: str
    expr: Expr


@node
class TiebreakDecl:
    span: Span
    var: str
    keys: tuple


@node
class ResultDecl:
    span: Span
    name: str
    var: str
    expr: Expr


@node
class PublicDecl:
    """``public name of p: expr``: a fact about each player that every seat sees, even when
    it is computed from what they cannot see (how many cards are left of a marker)."""

    span: Span
    name: str
    var: str
    expr: Expr


@node
class DisplayEntry:
    """A name a `display` line lists, with the label a player reads (None: the name) and, for
    a zone, the component states shown in it (None: every state not hidden)."""

    span: Span
    name: str
    label: Optional[str] = None
    states: Optional[tuple] = None


@node
class DisplayDecl:
    """``display:``: presentation only. `header` (a text) replaces the round and phase on the
    header line; `hidden` names bookkeeping (vars, component states, zones) never shown; `table`
    and `mat` order and label the shared things and each player's; `reveal` names the zones
    every seat sees once the game is over."""

    span: Span
    header: Optional[Expr] = None
    hidden: tuple = ()
    table: tuple = ()
    mat: tuple = ()
    reveal: tuple = ()


@node
class WordsOption:
    """A line of a `words` block: ``fold TABLE`` (value: the table's name), ``match "x" as
    "abc"`` (value: the letter, letters: its set) or ``wild "*"`` (value: the mark)."""

    span: Span
    what: str
    value: str
    letters: str = ""


@node
class WordsDecl:
    """``words NAME from "file_{option}.txt.gz"``: a word list beside the game, one word a line.
    `lists` (filled by the loader) pairs each value of the option named in the file name (None
    when there is none) with its gamedsl.wordlists.WordList. `folds` (applied in order),
    `matches` and `wild` (WordsOption lines of its block) say which letters count as equal."""

    span: Span
    name: str
    source: str
    lists: tuple = ()
    folds: tuple = ()
    matches: tuple = ()
    wild: Optional[WordsOption] = None


@node
class GameFile:
    span: Span
    decls: tuple
    # The texts of top-level declarations that could not be read (a file with syntax errors
    # read one declaration at a time): the checker keeps quiet about what they might declare.
    unparsed: tuple = ()


# ---------------------------------------------------------------- scenarios


@node
class ScPlayers:
    span: Span
    count: int


@node
class ScSeed:
    span: Span
    seed: int


@node
class ScOption:
    span: Span
    name: str
    value: Expr


@node
class ScGiven:
    span: Span
    body: tuple


@node
class ScMove:
    span: Span
    text: str
    by: Optional[Expr]


@node
class ScRefuse:
    span: Span
    text: str
    by: Optional[Expr]
    because: Optional[str]


@node
class ScExpect:
    span: Span
    expr: Expr


@node
class ScView:
    """`in view of P: NAME == E`: a public fact or player variable as seat P's view shows it."""
    span: Span
    by: Expr          # the seat whose view is read
    name: str
    expected: Expr


@node
class ScRandom:
    span: Span
    count: int


@node
class Scenario:
    span: Span
    title: str
    items: tuple


@node
class ScenarioFile:
    span: Span
    game: Optional[str]
    scenarios: tuple


_FIELDS: dict = {}  # class -> the names of a syntax node's fields but its span (None: not a node)


def walk(node):
    """Every syntax node in `node` (itself included), at any depth."""
    stack = [node]
    while stack:
        v = stack.pop()
        if isinstance(v, tuple):
            stack.extend(v)
            continue
        cls = type(v)
        if cls not in _FIELDS:
            is_node = attrs.has(cls) and cls is not Span
            _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls) if f.name != "span") if is_node else None
        names = _FIELDS[cls]
        if names is not None:
            yield v
            stack.extend(getattr(v, name) for name in names)


def names_in(node) -> set:
    """Every name an expression (or any node) mentions, at any depth."""
    return {v.name for v in walk(node) if isinstance(v, Name)}
