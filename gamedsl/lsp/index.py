"""Every name a game file mentions, and what each one means: the index behind go to
definition, find references, hover and the names offered by completion.

The checker knows what a name means but keeps no record of where each one stands, so the
index walks the syntax tree itself, with local scopes as the checker has them (parameters,
`let`, loop, choice, comprehension and sort variables, `of p` in scoring). An attribute
(`p.points`, `c.rank`) is resolved by the type the checker gave the value before the dot;
without a check (a file that does not parse whole) by its name alone.

A node's span covers the whole node, so the span of the name itself is found in the text.
"""

from __future__ import annotations

import bisect
import re
from typing import Dict, List, Optional, Tuple

import attrs

from gamedsl.checker import types as T
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS
from gamedsl.syntax import ast as A


@attrs.define(eq=False)
class Target:
    """What a name means: a declaration of the game, a local value, or a built-in."""

    name: str
    what: str  # "kind", "zone", "player var", "def", "let", "built-in function", ...
    span: Optional[A.Span]  # where it is declared (its name); None for a built-in
    decl: object = None  # the declaration node (for a local, the node that binds it)
    owner: Optional[str] = None  # the kind, table or enum a member or value belongs to
    type: object = None  # a local's or a member's type, when the checker said
    top: Optional[A.Span] = None  # the top-level declaration it belongs to (locals)


@attrs.define(eq=False)
class Occurrence:
    span: A.Span  # the name itself
    target: Target
    node: object = None  # the expression node, for its type


# Declarations whose name a reader looks for in the outline and in go to definition.
GLOBAL_WHAT = {
    A.OptionDecl: "option", A.EnumDecl: "enum", A.TableDecl: "table", A.KindDecl: "kind",
    A.DefDecl: "def", A.ProcDecl: "procedure", A.PhaseDecl: "phase", A.WordsDecl: "words",
    A.ResultDecl: "result", A.PublicDecl: "public fact",
}


def _decl_what(decl) -> Optional[str]:
    if isinstance(decl, A.ZoneDecl):
        return "player zone" if decl.per_player else "zone"
    if isinstance(decl, A.VarDecl):
        return "player var" if decl.per_player else "var"
    return GLOBAL_WHAT.get(type(decl))


class Index:
    """The names of one checked (or partly parsed) game."""

    def __init__(self, decls, sources: Dict[str, str], types: Optional[dict] = None):
        self.decls = tuple(decls)
        self.sources = sources
        self.types = types or {}
        self._lines: Dict[str, List[str]] = {}
        self.globals: Dict[str, Target] = {}
        self.phases: Dict[str, Target] = {}  # a name of their own: a phase may share a table's
        self.words: Dict[str, Target] = {}  # enum values and option words
        self.members: Dict[str, Dict[str, Target]] = {}  # kind -> its attributes and states
        self.columns: Dict[str, Dict[str, Target]] = {}  # table -> its columns
        self.locals: List[Target] = []
        self.occurrences: List[Occurrence] = []
        self._declare()
        for decl in self.decls:
            self._decl(decl)
        self.occurrences.sort(key=lambda o: (o.span.file, o.span.line, o.span.col))
        self._keys = [(o.span.file, o.span.line, o.span.col) for o in self.occurrences]

    # --------------------------------------------------------------- queries

    def at(self, file: str, line: int, col: int) -> Optional[Occurrence]:
        """The name at a position (1-based line and column; the end of a name counts too,
        where an editor's cursor stands after typing it)."""
        i = bisect.bisect_right(self._keys, (file, line, col))
        for o in self.occurrences[max(0, i - 2):i]:
            s = o.span
            if s.file == file and s.line == line and s.col <= col <= s.end_col:
                return o
        return None

    def references(self, target: Target) -> List[Occurrence]:
        return [o for o in self.occurrences if o.target is target]

    def locals_at(self, file: str, line: int) -> List[Target]:
        """The local values a line may use: those bound above it in its declaration."""
        return [t for t in self.locals
                if t.top is not None and t.top.file == file and t.top.line <= line <= t.top.end_line
                and t.span is not None and t.span.line <= line]

    def declaration_at(self, file: str, line: int):
        """The top-level declaration a line belongs to, if any."""
        return next((d for d in self.decls
                     if d.span.file == file and d.span.line <= line <= self.extent(d.span).end_line), None)

    def extent(self, span: A.Span) -> A.Span:
        """A declaration's own lines: its span runs on to where the next declaration begins,
        over blank lines and the comments that introduce the next one."""
        lines = self.lines(span.file)
        last = span.end_line - 1 if span.end_col == 1 and span.end_line > span.line else span.end_line
        last = min(last, len(lines))
        while last > span.line and (not lines[last - 1].strip() or lines[last - 1].lstrip().startswith("#")):
            last -= 1
        return A.Span(span.file, span.line, span.col, last, len(lines[last - 1]) + 1 if last >= 1 else 1)

    def lines(self, file: str) -> List[str]:
        if file not in self._lines:
            self._lines[file] = self.sources.get(file, "").split("\n")
        return self._lines[file]

    # --------------------------------------------------------------- finding names in the text

    def find(self, span: A.Span, word: str, before: str = "") -> A.Span:
        """The span of `word` (after the regex `before`) inside `span`, else the span's start."""
        lines = self.lines(span.file)
        pattern = re.compile((before + r"\s*" if before else "") + r"(?<!\w)(" + re.escape(word) + r")(?!\w)")
        for n in range(max(span.line, 1), min(span.end_line, len(lines)) + 1):
            start = span.col - 1 if n == span.line else 0
            m = pattern.search(lines[n - 1], start)
            if m and (n < span.end_line or m.end(1) <= span.end_col - 1):
                return A.Span(span.file, n, m.start(1) + 1, n, m.end(1) + 1)
        return A.Span(span.file, span.line, span.col, span.line, span.col + len(word))

    @staticmethod
    def head(span: A.Span, word: str) -> A.Span:
        return A.Span(span.file, span.line, span.col, span.line, span.col + len(word))

    @staticmethod
    def tail(span: A.Span, word: str) -> A.Span:
        return A.Span(span.file, span.end_line, span.end_col - len(word), span.end_line, span.end_col)

    # --------------------------------------------------------------- declarations

    def _declare(self) -> None:
        for decl in self.decls:
            what = _decl_what(decl)
            names = self.phases if what == "phase" else self.globals
            if what is None or decl.name in names:
                continue  # the first of two same-named declarations wins, as in the checker
            keyword = {"player zone": "zone", "player var": "var", "public fact": "public"}.get(what, what)
            target = Target(decl.name, what, self.find(decl.span, decl.name, r"\b" + keyword), decl)
            names[decl.name] = target
            self.occurrences.append(Occurrence(target.span, target))
            if isinstance(decl, A.EnumDecl):
                for v in decl.values:
                    self._word(v.name, v.span, decl)
            elif isinstance(decl, A.OptionDecl):
                for alt in decl.alternatives:
                    if isinstance(alt, A.OptionWord):
                        self._word(alt.word, alt.span, decl)
            elif isinstance(decl, A.TableDecl):
                cols = self.columns.setdefault(decl.name, {})
                for c in decl.columns:
                    if c.name not in cols and c.span.file in self.sources:
                        cols[c.name] = Target(c.name, "column", self.head(c.span, c.name), c, decl.name,
                                              self._type_of(c.type))
                        self.occurrences.append(Occurrence(cols[c.name].span, cols[c.name]))
                    elif c.name not in cols:  # the columns of a CSV file: declared in the table
                        cols[c.name] = Target(c.name, "column", target.span, c, decl.name)
            elif isinstance(decl, A.KindDecl):
                members = self.members.setdefault(decl.name, {})
                for e in decl.each:
                    members.setdefault(e.name, Target(e.name, "attribute", self.head(e.span, e.name), e, decl.name))
                for a in decl.attrs:
                    members.setdefault(a.name, Target(a.name, "attribute", self.head(a.span, a.name), a, decl.name))
                for s in decl.states:
                    members.setdefault(s.name, Target(s.name, "state", self.find(s.span, s.name, r"\bstate"), s,
                                                      decl.name, self._type_of(s.type)))
                for t in members.values():
                    self.occurrences.append(Occurrence(t.span, t))
        for kind, members in self.members.items():
            decl = self.globals[kind].decl
            for name, column in self.columns.get(decl.source_table or "", {}).items():
                members.setdefault(name, column)
            members.setdefault("owner", Target("owner", "owner", None, None, kind, T.Optional(T.PLAYER)))

    def _word(self, word: str, span: A.Span, decl) -> None:
        if word not in self.words:
            self.words[word] = Target(word, "value", span, decl, decl.name)
            self.occurrences.append(Occurrence(span, self.words[word]))

    def _type_of(self, ref) -> object:
        return None if ref is None else _render_ref(ref)

    def _use(self, span: A.Span, target: Optional[Target], node=None) -> None:
        if target is not None and span.file in self.sources:  # not in a CSV file's header
            self.occurrences.append(Occurrence(span, target, node))

    def _global(self, span: A.Span, name: str, node=None) -> None:
        self._use(span, self.globals.get(name), node)

    def _decl(self, d) -> None:
        scope = _Scope(None, self.extent(d.span))
        if isinstance(d, (A.DefDecl, A.ProcDecl)):
            for p in d.params:
                self._bind(scope, p.name, "parameter", self.head(p.span, p.name), p)
                self._type(p.type)
            if isinstance(d, A.DefDecl):
                self._expr(d.body, scope)
            else:
                self._stmts(d.body, scope)
        elif isinstance(d, (A.SetupDecl, A.TurnDecl)):
            self._stmts(d.body, scope)
        elif isinstance(d, A.PhaseDecl):
            self._stmts(d.begin, scope.child())
            self._stmts(d.turn, scope.child())
            self._expr(d.end_when, scope)
            if d.then is not None:
                self._use(d.then.span, self.phases.get(d.then.name))
        elif isinstance(d, A.KindDecl):
            scope.kind = d.name
            if d.source_table:
                self._global(self.find(d.span, d.source_table, r"\bfrom"), d.source_table)
            for each in d.each:
                self._expr(each.source, scope)
            for e in (d.copies, d.show):
                self._expr(e, scope)
            for a in d.attrs:
                self._expr(a.value, scope)
            for s in d.states:
                self._type(s.type)
                self._expr(s.init, scope)
            for f in d.faces:
                self._use(f.span, self.members.get(d.name, {}).get(f.name))
        elif isinstance(d, A.ZoneDecl):
            for k in d.kinds:
                self._global(k.span, k.name)
            if d.family is not None:  # `[colour]` names an enum; `[1..player_count + 1]`, numbers
                for e in (d.family.enum, d.family.low, d.family.high):
                    if isinstance(e, A.Name) and e is d.family.enum:
                        self._global(e.span, e.name)
                    else:
                        self._expr(e, scope)
            for f in d.flags:
                if f.word == "refill" and isinstance(f.arg, str):
                    self._global(self.find(f.span, f.arg, r"\bfrom"), f.arg)
                elif f.word == "sorted" and isinstance(f.arg, str):
                    for k in d.kinds:
                        self._use(self.find(f.span, f.arg, r"\bby"), self.members.get(k.name, {}).get(f.arg))
        elif isinstance(d, A.VarDecl):
            self._type(d.type)
            self._expr(d.init, scope)
        elif isinstance(d, A.OptionDecl):
            self._expr(d.default, scope)
        elif isinstance(d, A.TableDecl):
            for c in d.columns:
                self._type(c.type)
            if d.key:
                self._use(self.find(d.span, d.key, r"\bby"), self.columns.get(d.name, {}).get(d.key))
        elif isinstance(d, (A.ScoreDecl, A.HeuristicDecl, A.ResultDecl, A.PublicDecl, A.TeamDecl)):
            if d.var is not None:  # (a cooperative game's shared `score:` has no player)
                self._bind(scope, d.var, "player", self.find(d.span, d.var, r"\bof"), d, T.PLAYER)
            self._expr(d.expr, scope)
        elif isinstance(d, A.TiebreakDecl):
            self._bind(scope, d.var, "player", self.find(d.span, d.var, r"\bof"), d, T.PLAYER)
            for k in d.keys:
                self._expr(k.expr, scope)
        elif isinstance(d, A.WordsDecl):
            for f in d.folds:
                self._global(self.find(f.span, f.value, r"\bfold"), f.value)
        elif isinstance(d, A.DisplayDecl):
            self._expr(d.header, scope)

    def _type(self, ref) -> None:
        if isinstance(ref, A.TypeName):
            self._global(ref.span, ref.name)
        elif isinstance(ref, A.TypeOptional):
            self._type(ref.inner)
        elif isinstance(ref, A.TypeList):
            self._type(ref.item)

    def _bind(self, scope: "_Scope", name: str, what: str, span: A.Span, node, type_=None) -> Target:
        target = Target(name, what, span, node, type=type_, top=scope.top)
        scope.names[name] = target
        self.locals.append(target)
        self.occurrences.append(Occurrence(span, target))
        return target

    # --------------------------------------------------------------- statements

    def _stmts(self, body, scope: "_Scope") -> None:
        for s in body:
            self._stmt(s, scope)

    def _stmt(self, s, scope: "_Scope") -> None:
        if isinstance(s, A.Let):
            self._expr(s.value, scope)
            if scope.lookup(s.name) is None:
                self._bind(scope.function(), s.name, "let", self.find(s.span, s.name, r"\blet"), s,
                           self.types.get(s.value))
            else:
                self._use(self.find(s.span, s.name, r"\blet"), scope.lookup(s.name))
        elif isinstance(s, A.Assign):
            self._expr(s.target, scope)
            self._expr(s.value, scope)
        elif isinstance(s, A.CallStmt):
            self._expr(s.call, scope)
        elif isinstance(s, A.Move):
            for e in (s.what, s.dest, s.cell):
                self._expr(e, scope)
        elif isinstance(s, A.Draw):
            for e in (s.count, s.source, s.dest):
                self._expr(e, scope)
        elif isinstance(s, A.Shuffle):
            self._expr(s.zone, scope)
        elif isinstance(s, A.NextTurn):
            self._expr(s.player, scope)
        elif isinstance(s, A.LeaveRound):
            self._expr(s.player, scope)
        elif isinstance(s, A.EndGame):
            self._expr(s.winner, scope)
        elif isinstance(s, A.Say):
            self._expr(s.message, scope)
            self._expr(s.to, scope)
        elif isinstance(s, A.Show):
            self._expr(s.what, scope)
            self._expr(s.to, scope)
        elif isinstance(s, A.If):
            for b in s.branches:
                self._expr(b.cond, scope)
                self._stmts(b.body, scope.child())
            self._stmts(s.orelse, scope.child())
        elif isinstance(s, A.For):
            self._expr(s.iterable, scope)
            inner = scope.child()
            self._bind(inner, s.var, "loop variable", self.find(s.span, s.var, r"\bfor"), s,
                       T.item_type(self.types.get(s.iterable, T.ANY)))
            self._stmts(s.body, inner)
        elif isinstance(s, A.While):
            self._expr(s.cond, scope)
            self._stmts(s.body, scope.child())
        elif isinstance(s, A.Repeat):
            self._expr(s.count, scope)
            self._stmts(s.body, scope.child())
        elif isinstance(s, A.Choose):
            self._expr(s.player, scope)
            self._expr(s.timer, scope)
            self._alternatives(s.alternatives + s.timeouts, scope)
        elif isinstance(s, A.SecretChoose):
            self._expr(s.players, scope)
            inner = scope.child()
            self._bind(inner, s.var, "chooser", self.find(s.span, s.var, r"\beach"), s, T.PLAYER)
            self._alternatives(s.alternatives + s.timeouts, inner)

    def _alternatives(self, alternatives, scope: "_Scope") -> None:
        for alt in alternatives:
            inner = scope.child()
            if isinstance(alt, A.Alternative):
                for p in alt.params:
                    self._expr(p.domain, inner)
                    self._type(p.type)
                    type_ = T.item_type(self.types.get(p.domain, T.ANY)) if p.domain is not None else _render_ref(p.type)
                    self._bind(inner, p.name, "choice parameter", self.head(p.span, p.name), p, type_)
                for e in (alt.suggest, alt.guard, alt.refusal):
                    self._expr(e, inner)
            self._stmts(alt.body, inner)

    # --------------------------------------------------------------- expressions

    def _expr(self, e, scope: "_Scope") -> None:
        if e is None:
            return
        if isinstance(e, A.Name):
            self._use(e.span, self._resolve(e.name, scope), e)
        elif isinstance(e, A.Attribute):
            self._expr(e.obj, scope)
            self._use(self.tail(e.span, e.name), self._member(e), e)
        elif isinstance(e, A.Call):
            target = self.globals.get(e.name)
            if target is None or target.what not in ("def", "procedure"):
                target = _builtin(e.name)
            if not e.implicit:  # (`2..10`, a comprehension of several `for`s: no name written)
                self._use(self.head(e.span, e.name), target, e)
            for a in e.args:
                self._expr(a, scope)
        elif isinstance(e, A.Comprehension):
            self._expr(e.source, scope)
            inner = scope.child()
            self._bind(inner, e.var, "comprehension variable", self.find(e.span, e.var, r"\bfor"), e,
                       T.item_type(self.types.get(e.source, T.ANY)))
            self._expr(e.element, inner)
            self._expr(e.cond, inner)
        elif isinstance(e, A.Sort):
            self._expr(e.source, scope)
            inner = scope.child()
            self._bind(inner, e.var, "sort variable", self.find(e.span, e.var, r"\bsort"), e,
                       T.item_type(self.types.get(e.source, T.ANY)))
            for k in e.keys:
                self._expr(k.expr, inner)
        elif isinstance(e, (A.BinOp, A.Compare, A.And, A.Or)):
            self._expr(e.left, scope)
            self._expr(e.right, scope)
        elif isinstance(e, (A.Not, A.Negate)):
            self._expr(e.operand, scope)
        elif isinstance(e, A.Conditional):
            for x in (e.cond, e.then, e.orelse):
                self._expr(x, scope)
        elif isinstance(e, (A.ListExpr, A.TupleExpr)):
            for x in e.items:
                self._expr(x, scope)
        elif isinstance(e, A.Index):
            self._expr(e.obj, scope)
            self._expr(e.index, scope)

    def _resolve(self, name: str, scope: "_Scope") -> Optional[Target]:
        """A bare name, looked up as the checker does: locals, the kind's own attributes,
        the game's values, built-in names, then enum and option words."""
        local = scope.lookup(name)
        if local is not None:
            return local
        if scope.kind is not None and name in self.members.get(scope.kind, {}):
            return self.members[scope.kind][name]
        target = self.globals.get(name)
        if target is not None and target.what not in ("player var", "player zone"):
            return target
        if name in BUILTIN_NAMES:
            return _builtin(name)
        return self.words.get(name) or target

    def _member(self, e: A.Attribute) -> Optional[Target]:
        """`obj.name`: a player's variable or zone, a component's attribute or a row's column,
        by the type of `obj` (by the name alone when there is none)."""
        t = T.unwrap(self.types.get(e.obj, T.ANY))
        player = self.globals.get(e.name)
        player = player if player is not None and player.what in ("player var", "player zone") else None
        if t == T.PLAYER:
            return player
        kinds = T.kinds_of(t)
        if kinds:
            for k in sorted(kinds):
                if e.name in self.members.get(k, {}):
                    return self.members[k][e.name]
            return None
        if isinstance(t, T.Row):
            return self.columns.get(t.table, {}).get(e.name)
        if t != T.ANY:
            return None
        if player is not None:
            return player
        for members in list(self.members.values()) + list(self.columns.values()):
            if e.name in members:
                return members[e.name]
        return None


class _Scope:
    def __init__(self, parent: Optional["_Scope"], top: A.Span, kind: Optional[str] = None,
                 function: Optional["_Scope"] = None):
        self.parent, self.top, self.kind = parent, top, kind
        self.names: Dict[str, Target] = {}
        self._function = function or self

    def child(self) -> "_Scope":
        return _Scope(self, self.top, self.kind, self._function)

    def function(self) -> "_Scope":
        """Where a `let` goes: the whole declaration's scope, as in the checker."""
        return self._function

    def lookup(self, name: str) -> Optional[Target]:
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None


_BUILTINS: Dict[str, Target] = {}


def _builtin(name: str) -> Optional[Target]:
    """The one Target of a built-in name or function (so its references can be found)."""
    if name not in _BUILTINS:
        if name in BUILTIN_NAMES:
            _BUILTINS[name] = Target(name, "built-in name", None, BUILTIN_NAMES[name],
                                     type=BUILTIN_NAMES[name].type)
        elif name in BUILTINS:
            _BUILTINS[name] = Target(name, "built-in function", None, BUILTINS[name])
        else:
            return None
    return _BUILTINS[name]


def builtin(name: str) -> Optional[Target]:
    return _builtin(name)


def _render_ref(ref) -> Optional[str]:
    """A written type as text (`list of card`), for hover."""
    if isinstance(ref, A.TypeName):
        return ref.name
    if isinstance(ref, A.TypeOptional):
        return f"{_render_ref(ref.inner)}?"
    if isinstance(ref, A.TypeList):
        return f"list of {_render_ref(ref.item)}"
    return None


def type_text(t) -> Optional[str]:
    """A type for a reader: written types stay as written, inferred ones are rendered."""
    if t is None or t == T.ANY:
        return None
    return t if isinstance(t, str) else T.render(t)


def span_key(span: A.Span) -> Tuple[str, int, int]:
    return (span.file, span.line, span.col)
