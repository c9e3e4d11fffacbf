"""Program: a compiled game — its declarations as tables, its rules as numbered blocks.

A Program is immutable once built and holds no game state; the component
catalogue (which depends on the player count and options) is built on demand
and cached.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import attrs

from gamedsl.runtime.values import plain
from gamedsl.diagnostics import Span
from gamedsl.errors import RuleError
from gamedsl.runtime.ctx import Ctx
from gamedsl.runtime.info import OptionInfo


@attrs.define
class Decls:
    """Which names the game declares, by category — what expressions resolve against."""

    global_vars: set = attrs.Factory(set)
    player_vars: set = attrs.Factory(set)
    shared_zones: set = attrs.Factory(set)
    player_zones: set = attrs.Factory(set)
    kinds: set = attrs.Factory(set)
    options: set = attrs.Factory(set)
    words: set = attrs.Factory(set)           # enum values and option words
    enums: dict = attrs.Factory(dict)         # enum name -> its words, in order
    orders: dict = attrs.Factory(dict)        # enum or option name -> {word: its place, from 0}
    tables: dict = attrs.Factory(dict)
    defs: dict = attrs.Factory(dict)
    def_bodies: dict = attrs.Factory(dict)
    procs: dict = attrs.Factory(dict)
    comp_attrs: set = attrs.Factory(set)       # attribute names of any kind (columns, attrs, owner)
    comp_states: dict = attrs.Factory(dict)    # state name -> kinds that have it
    row_columns: set = attrs.Factory(set)
    var_kinds: dict = attrs.Factory(dict)      # var name -> 'player', 'component', 'cell', 'value'
    state_kinds: dict = attrs.Factory(dict)    # component state name -> the same, for writing it
    types: dict = attrs.Factory(dict)          # expression node -> the checker's type
    word_lists: dict = attrs.Factory(dict)     # name -> (option picking the file or "", {value: WordList})
    families: dict = attrs.Factory(dict)       # zone family name -> its Family


@attrs.frozen
class Family:
    """A family of zones (`zone pile[colour]`, `zone row[1..player_count + 1]`): one zone per
    index, named `pile[red]`, `row[2]` (see member_zone)."""

    name: str
    per_player: bool
    enum: bool                 # indexed by an enum's words (else by numbers)
    keys: dict                 # player count -> the indices it has, in order

    def zone(self, key, n: int, span) -> str:
        """The member zone for index `key` with `n` players; E504 if there is none."""
        keys = self.keys.get(n, ())
        ok = isinstance(key, str) if self.enum else (
            isinstance(key, (int, float)) and not isinstance(key, bool))
        if not ok or key not in keys:
            have = ", ".join(plain(k) for k in keys) if self.enum else (
                f"{plain(keys[0])} to {plain(keys[-1])}" if keys else "none")
            raise RuleError("E504", f"there is no zone {self.name}[{plain(key)}]: with {n} players, "
                            f"{self.name} has {have}", span)
        return member_zone(self.name, key)


def member_zone(family: str, key) -> str:
    """The name of a family's zone in the state and in views: `pile[red]`, `row[2]`."""
    return f"{family}[{plain(key)}]"


@attrs.define
class Table:
    name: str
    columns: list
    rows: list               # of dict: column -> value
    key: Optional[str] = None
    matchers: list = attrs.Factory(list)  # per row: a function key -> bool

    def row_index(self, k) -> Optional[int]:
        """The first row whose key matches `k`, by its index; None if none does."""
        for i, match in enumerate(self.matchers):
            if match(k):
                return i
        return None

    def lookup(self, k):
        i = self.row_index(k)
        return None if i is None else self.rows[i]


@attrs.define
class KindInfo:
    name: str
    table: Optional[Table]
    copies: Optional[Callable]
    per_player: bool
    show: Optional[Callable]
    attrs: list    # (name, fn)
    states: list   # (name, fn)
    scope: set
    faces: tuple = ()  # attribute names: face i of a piece shows attribute i
    each: list = attrs.Factory(list)  # (name, fn, span): one component per combination of their items


@attrs.define
class ZoneInfo:
    name: str
    per_player: bool
    kinds: tuple
    visibility: str = "public"     # public, hidden, owner, others (see `zone_seen`)
    sorted_by: Optional[str] = None
    refill: Optional[str] = None
    grid: bool = False
    size: Optional[tuple] = None
    capacity: Optional[int] = None          # `capacity N`: how many components it holds at most
    family: Optional[str] = None            # the family it is one zone of (`pile[red]`: pile)
    players: Optional[frozenset] = None     # a family's zone: the player counts it exists for
    order: Optional[dict] = None   # sorted by an enum's values: word -> its place

    def sort_value(self, attrs: dict):
        """Where a component with these attributes goes in this sorted zone."""
        v = attrs.get(self.sorted_by, 0)
        return v if self.order is None else self.order.get(v, -1)


def zone_seen(visibility: str, owner: int, seat: int) -> bool:
    """Whether `seat` sees what lies in a zone of this visibility (`owner` -1 for a shared
    zone), or only how many: `others` is a hand held facing away, seen by all but its owner."""
    if visibility == "hidden":
        return False
    if visibility == "owner":
        return owner == seat
    if visibility == "others":
        return owner != seat
    return True


@attrs.define
class VarInfo:
    name: str
    init: Callable
    secret: bool = False
    kind: str = "value"


# ---------------------------------------------------------------- compiled statements
#
# One record class per kind of statement, with named fields. Every statement keeps its span
# (for diagnostics) and a stable id `sid` (its index in Program.stmts: a frame of the state
# names a loop or a pending choice by it). The machine dispatches on the record's class.
# `keyword` is the statement's name in reports (coverage), never used to dispatch.


@attrs.define(eq=False)
class Stmt:
    span: Span
    sid: int

    keyword = "statement"

    def nested_blocks(self) -> list:
        """The blocks directly inside this statement (branches, loop bodies, alternatives)."""
        return []


@attrs.define(eq=False)
class LetStmt(Stmt):
    name: str
    value: Callable
    keyword = "let"


@attrs.define(eq=False)
class AssignStmt(Stmt):
    target: tuple        # (where, name, object or base target[, position]): see Compiler._target
    op: str              # "=", "+=", "-=", "*="
    value: Callable
    keyword = "assign"


@attrs.define(eq=False)
class CallStmt(Stmt):
    proc: str
    args: list
    keyword = "call"


@attrs.define(eq=False)
class MoveStmt(Stmt):
    what: Callable
    dest: Callable       # ctx -> (zone name, owner or -1)
    place: Optional[str]  # "top", or None/"end" for the bottom
    cell: Optional[Callable]  # a grid's cell, or a position in a zone that is a list
    zone: Optional[str] = None        # the destination zone's name (every destination names one)
    kinds: Optional[frozenset] = None  # the kinds the checker proves the moved components have
    end: Optional[str] = None  # "top" or "bottom": the end a position is counted from
    keyword = "move"


@attrs.define(eq=False)
class DrawStmt(Stmt):
    count: Callable
    source: Callable
    dest: Callable
    zones: Optional[tuple] = None  # the names of the source and destination zones
    keyword = "draw"


@attrs.define(eq=False)
class ShuffleStmt(Stmt):
    zone: Callable
    keyword = "shuffle"


@attrs.define(eq=False)
class NextTurnStmt(Stmt):
    player: Callable
    keyword = "next_turn"


@attrs.define(eq=False)
class LeaveStmt(Stmt):
    player: Optional[Callable]   # None: the current player
    keyword = "leave"


@attrs.define(eq=False)
class EndRoundStmt(Stmt):
    keyword = "end_round"


@attrs.define(eq=False)
class EndStmt(Stmt):
    after_round: bool
    winner: Optional[Callable]
    outcome: Optional[str] = None   # a cooperative game's "won" or "lost"
    keyword = "end"


@attrs.define(eq=False)
class SayStmt(Stmt):
    message: Callable
    kind: str            # how the value is written: "player", "component", "cell" or "value"
    to: Optional[Callable] = None  # `say ... to P`: the one player told; None: everyone
    keyword = "say"


@attrs.define(eq=False)
class ShowStmt(Stmt):
    what: Callable       # a component or a list of them (a zone gives its components)
    to: Callable         # the player who looks
    keyword = "show"


@attrs.define(eq=False)
class BreakStmt(Stmt):
    keyword = "break"


@attrs.define(eq=False)
class ReturnStmt(Stmt):
    keyword = "return"


@attrs.define(eq=False)
class PassStmt(Stmt):
    keyword = "pass"


@attrs.define(eq=False)
class IfStmt(Stmt):
    branches: list       # (condition, block)
    orelse: Optional[int]
    keyword = "if"

    def nested_blocks(self) -> list:
        return [b for _, b in self.branches] + ([self.orelse] if self.orelse is not None else [])


@attrs.define(eq=False)
class ForStmt(Stmt):
    var: str
    items: Callable
    body: int
    keyword = "for"

    def nested_blocks(self) -> list:
        return [self.body]


@attrs.define(eq=False)
class WhileStmt(Stmt):
    cond: Callable
    body: int
    keyword = "while"

    def nested_blocks(self) -> list:
        return [self.body]


@attrs.define(eq=False)
class RepeatStmt(Stmt):
    count: Optional[Callable]   # None: for ever (until a break)
    body: int
    keyword = "repeat"

    def nested_blocks(self) -> list:
        return [self.body]


@attrs.define(eq=False)
class ChooseStmt(Stmt):
    player: Callable
    alts: list
    timer: Optional[Callable]    # the timer's seconds, evaluated when the choice is reached
    timeout: Optional[int]       # the `on timeout:` block
    keyword = "choose"
    secret = False

    def nested_blocks(self) -> list:
        return [a.body for a in self.alts] + ([self.timeout] if self.timeout is not None else [])


@attrs.define(eq=False)
class SecretStmt(Stmt):
    var: str             # the name each seat's own alternatives see it by
    players: Callable
    alts: list
    keyword = "secret"
    secret = True

    def nested_blocks(self) -> list:
        return [a.body for a in self.alts]


CHOICES = (ChooseStmt, SecretStmt)


@attrs.define(eq=False)
class Snippet:
    """Statements compiled outside the game's rules (a scenario's `given:`): their own blocks
    and statements, numbered after the Program's, run against it without changing it."""

    entry: int
    blocks: tuple
    stmts: tuple


@attrs.define
class Param:
    name: str
    domain: Callable
    kind: str
    nobody: bool = False    # `x in L or nobody`: none (written "nobody") when L is empty


@attrs.define
class Alt:
    name: str
    params: list
    template: Optional[str]
    guard: Optional[Callable]
    body: int
    span: Span
    typed: Optional[list] = None        # typed parameters: the type of each ("text" or "number")
    suggest: Optional[Callable] = None  # typed parameters: the values bots are offered
    refusal: Optional[Callable] = None  # typed parameters: why the guard refused a typed move
    # No parameter's choices mention the alternative's own parameters: the moves are the
    # product of lists computed once per listing.
    fixed: bool = False
    # For a fixed alternative with a guard: (ctx, domains, count) -> the combinations the
    # guard lets through, in generated code; None when not ready (ExprCompiler.guard_filter).
    filter: Optional[Callable] = None
    help: Optional[str] = None          # typed parameters: how a person types the move


@attrs.define
class Phase:
    name: str
    begin: Optional[int]
    turn: Optional[int]
    end_when: Optional[Callable]
    then: Optional[str]
    span: Span


@attrs.define
class Catalogue:
    """The components of one game: fixed once the player count and options are known."""

    kind: list
    attrs: list
    show: list
    by_kind: dict
    faces: list = attrs.Factory(list)  # per component: its faces' values (a piece of several cells), or None


@attrs.define
class Display:
    """What a player sees (`display:`), for clients and the rulebook; no rule reads it.
    `table` and `mat` are (name, label) pairs in the order declared."""

    header: Optional[Callable] = None   # a text for the header line, else None
    hidden: frozenset = frozenset()     # bookkeeping: vars, states, zones never shown
    table: list = attrs.Factory(list)   # shared zones and vars
    mat: list = attrs.Factory(list)     # each player's zones, vars and public facts
    reveal: frozenset = frozenset()     # zones every seat sees once the game is over
    states: dict = attrs.Factory(dict)  # zone -> (state, label) shown in it, in order (else all)

    def label(self, name: str) -> str:
        for n, label in self.table + self.mat:
            if n == name:
                return label
        return name


@attrs.define(eq=False)
class Program:
    title: str
    min_players: int
    max_players: int
    options: Dict[str, OptionInfo]
    decls: Decls
    tables: Dict[str, Table]
    kinds: Dict[str, KindInfo]
    zones: Dict[str, ZoneInfo]
    global_vars: List[VarInfo]
    player_vars: List[VarInfo]
    blocks: List[tuple]
    stmts: List[Stmt]
    procs: Dict[str, tuple]
    setup: Optional[int]
    phases: List[Phase]
    score: Optional[Tuple[str, Callable]]
    tiebreak: Optional[Tuple[str, list]]
    results: list
    publics: list
    heuristic: Optional[Tuple[str, Callable]] = None   # `heuristic of p:` (bots), else None
    # the def calls at the top of the heuristic (else the score) a search keeps apart, as
    # the compiler finds them: (name, argument count, the call alone)
    heuristic_parts: tuple = ()
    heuristic_closed: bool = False  # the heuristic is arithmetic of those calls and numbers alone
    heuristic_summed: bool = False  # ... and is their sum, each once, in order
    cooperative: bool = False                           # `cooperative`: one shared result
    team: Optional[Tuple[str, Callable]] = None         # `team of p:`, else None
    display: Display = attrs.Factory(Display)           # `display:` (presentation only)
    lowest_wins: bool = False                           # `score of p: ..., lowest wins`
    leaving: bool = False   # the rules say `leave round`: a round lasts until everyone has left it
    counter: Optional[str] = None                       # the `var ..., counter` the header shows
    component_locals: frozenset = frozenset()           # local names that may hold components
    _catalogues: dict = attrs.Factory(dict)
    _last_catalogue: Optional[tuple] = None

    def grid_size(self, zone: str):
        return self.zones[zone].size

    def phase_index(self, name: str) -> int:
        for i, ph in enumerate(self.phases):
            if ph.name == name:
                return i
        raise RuleError("E403", f"unknown phase '{name}'")

    # ------------------------------------------------------------ components
    def catalogue(self, n: int, options: dict) -> Catalogue:
        # Asked on every expression context: the last answer is kept aside, so the common case
        # (the same player count and options again) costs one dict comparison, not a sorted key.
        last = self._last_catalogue
        if last is not None and last[0] == n and last[1] == options:
            return last[2]
        key = (n, tuple(sorted(options.items())))
        cat = self._catalogues.get(key)
        if cat is None:
            cat = self._catalogues[key] = self._build_catalogue(n, options)
        self._last_catalogue = (n, dict(options), cat)
        return cat

    def _build_catalogue(self, n: int, options: dict) -> Catalogue:
        cat = Catalogue([], [], [], {})
        state = {"n": n, "options": options, "flow": {"current": 0, "start": 0, "round": 1},
                 "vars": {}, "pvars": {}, "zones": {}, "cstate": {}, "where": []}
        ctx = Ctx(self, state, {}, cat, pure=True)
        for kind in self.kinds.values():
            cat.by_kind[kind.name] = []
            rows = [dict(r) for r in kind.table.rows] if kind.table else [{}]
            for name, fn, span in kind.each:
                rows = _each_row(ctx, kind.name, rows, name, fn, span)
            owners = range(n) if kind.per_player else [None]
            for owner in owners:
                for row in rows:
                    base = dict(row)
                    if owner is not None:
                        base["owner"] = owner
                    ctx.env = base
                    copies = kind.copies(ctx) if kind.copies else 1
                    for name, fn in kind.attrs:
                        base[name] = fn(ctx)
                    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 0 or copies > 100_000:
                        raise RuleError("E507", f"kind '{kind.name}': copies must be a whole number "
                                        f"from 0 to 100000, not {plain(copies)}")
                    for _ in range(copies):
                        cid = len(cat.kind)
                        cat.kind.append(kind.name)
                        cat.attrs.append(base)
                        cat.by_kind[kind.name].append(cid)
                        cat.show.append(None)
                        cat.faces.append([base.get(f) for f in kind.faces] if kind.faces else None)
        for cid, kind_name in enumerate(cat.kind):
            kind = self.kinds[kind_name]
            if kind.show is not None:
                ctx.env = cat.attrs[cid]
                cat.show[cid] = self.write(kind.show(ctx), "value", cat)
            else:
                cat.show[cid] = f"{kind_name}{cid}"
        return cat

    # ------------------------------------------------------------ writing values
    def write(self, v, kind: str, cat: Catalogue) -> str:
        """A value as a person reads it: players as P1.., components by their `show`."""
        if v is None:
            return "none"
        if isinstance(v, list):
            if kind == "cell" and len(v) == 2 and not isinstance(v[0], list):
                return f"{plain(v[0])},{plain(v[1])}"
            return " ".join(self.write(x, kind, cat) for x in v)
        if isinstance(v, bool):
            return plain(v)
        if kind == "player" and isinstance(v, int):
            return f"P{v + 1}"
        if kind == "component" and isinstance(v, int) and 0 <= v < len(cat.show):
            return cat.show[v]
        return plain(v)


# how many components a kind's `for` lines may make before copies (a catalogue is built whole)
MAX_KIND_ROWS = 100_000


def _each_row(ctx: Ctx, kind: str, rows: list, name: str, fn: Callable, span) -> list:
    """Each of `rows` once per item of a kind's `for name in LIST` (LIST read with the row's
    names, as a comprehension's later `for` reads the earlier)."""
    out = []
    for row in rows:
        ctx.env = row
        items = fn(ctx)
        if not isinstance(items, list):
            raise RuleError("E507", f"kind '{kind}': 'for {name} in' needs a list, not {plain(items)}", span)
        for item in items:
            out.append({**row, name: item})
        if len(out) > MAX_KIND_ROWS:
            raise RuleError("E507", f"kind '{kind}': its 'for' makes more than {MAX_KIND_ROWS:,} "
                            "components", span)
    return out

