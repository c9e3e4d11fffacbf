"""What names mean while checking: the game's global symbols, and local scopes (Env).

`Globals` is built once from a GameFile (declarations are order-independent; the first
of two same-named declarations wins, the duplicate is reported by the checker). Facts
that need inference (a kind's attribute types, a def's result) are computed lazily and
keep their own diagnostics, which the matching ``check_*`` function reports.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

import attrs

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.diagnostics import Diagnostic, did_you_mean
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS

# What a declared name is, as a message says it.
WHAT = {
    "enum": "an enum", "option": "an option", "table": "a table", "kind": "a kind",
    "zone": "a zone", "player zone": "a player zone", "var": "a variable",
    "player var": "a player variable", "def": "a def", "procedure": "a procedure",
    "builtin": "a built-in name", "phase": "a phase", "words": "a word list",
}


@attrs.define(eq=False)
class Symbol:
    name: str
    what: str
    decl: object
    type: object = T.ANY
    used: bool = False


@attrs.define(eq=False)
class Member:
    """An attribute of a kind: a table column, a constant attr, a state, or owner."""

    name: str
    what: str  # "column", "attr", "state", "owner"
    node: object  # Column, KindAttr, KindState or None
    type: object = None  # None until inferred (attrs)


@attrs.define(eq=False)
class KindInfo:
    decl: A.KindDecl
    members: Dict[str, Member]
    diags: List[Diagnostic] = attrs.Factory(list)
    busy: set = attrs.Factory(set)
    open: bool = False  # from a table whose columns are unknown: any attribute may exist


@attrs.define(eq=False)
class TableInfo:
    decl: A.TableDecl
    columns: Optional[Dict[str, object]]  # None: unknown (a CSV file not found)
    key_type: object = T.ANY
    diags: List[Diagnostic] = attrs.Factory(list)


@attrs.define(eq=False)
class FuncInfo:
    """A def or a procedure: its parameter types, and (for a def) its result type."""

    decl: object
    params: List[tuple]  # (name, type)
    result: object = None
    state: str = "todo"  # todo, busy, done
    diags: List[Diagnostic] = attrs.Factory(list)


@attrs.define(eq=False)
class Local:
    name: str
    type: object
    what: str  # "let", "parameter", "loop variable", "choice parameter", ...
    span: object
    assignable: bool = False


class Globals:
    """The game's global names, and the type of every expression checked so far."""

    def __init__(self, game: A.GameFile, sources: Optional[dict] = None):
        self.game = game
        self.sources = sources or {}
        self.file = game.span.file
        self.types: Dict[object, object] = {}
        self.symbols: Dict[str, Symbol] = {}
        self.words: Dict[str, List[str]] = {}  # an enum value / option word -> its enums
        self.enum_values: Dict[str, List[str]] = {}  # enum or option -> its words
        self.tables: Dict[str, TableInfo] = {}
        self.kinds: Dict[str, KindInfo] = {}
        self.zones: Dict[str, A.ZoneDecl] = {}
        self.player_members: Dict[str, Symbol] = {}
        self.funcs: Dict[str, FuncInfo] = {}
        self.phases: Dict[str, A.PhaseDecl] = {}
        self.type_scope: Dict[str, object] = {}
        self.decls = list(game.decls)

    def of(self, cls) -> list:
        return [d for d in self.decls if isinstance(d, cls)]

    # --------------------------------------------------------------- lookups

    def declare(self, name: str, what: str, decl, type_=T.ANY) -> Symbol:
        sym = self.symbols.get(name)
        if sym is None:
            sym = self.symbols[name] = Symbol(name, what, decl, type_)
        return sym

    def use(self, name: str) -> Optional[Symbol]:
        sym = self.symbols.get(name) or self.player_members.get(name)
        if sym is not None:
            sym.used = True
        return sym

    def zone_type(self, decl: A.ZoneDecl) -> T.Zone:
        kinds = frozenset(k.name for k in decl.kinds if k.name in self.kinds)
        grid = [f for f in decl.flags if f.word == "grid"]
        bounded = any(isinstance(f.arg, tuple) for f in grid)
        name = decl.name if decl.family is None else f"{decl.name}[...]"
        return T.Zone(name, kinds, decl.per_player, bool(grid), bounded)

    def zone_symbol_type(self, decl: A.ZoneDecl):
        """A zone's type, or a family's: its zones are indexed by an enum's words or by numbers."""
        zone = self.zone_type(decl)
        if decl.family is None:
            return zone
        index = T.NUMBER
        enum = decl.family.enum
        if enum is not None:
            sym = self.symbols.get(enum.name) if isinstance(enum, A.Name) else None
            index = T.Enum(enum.name) if sym is not None and sym.what == "enum" else T.ANY
        return T.Family(decl.name, index, zone)

    def value_names(self) -> List[str]:
        """Every global name usable as a value (for 'did you mean')."""
        names = [n for n, s in self.symbols.items()
                 if s.what not in ("def", "procedure", "enum", "player var", "player zone")]
        return names + list(self.words)

    def function_names(self) -> List[str]:
        return [n for n in self.funcs] + list(BUILTINS)

    def sub_span(self, span: A.Span, word: str, after: int = 0) -> A.Span:
        """The span of `word` inside `span` (found in the source text), else `span` itself."""
        text = self.sources.get(span.file)
        if text is None or span.line < 1:
            return span
        lines = text.splitlines()
        for n in range(span.line, min(span.end_line, len(lines)) + 1):
            line = lines[n - 1]
            start = span.col - 1 if n == span.line else 0
            start = max(start, after) if n == span.line else start
            m = re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", line[start:])
            if m:
                col = start + m.start() + 1
                return A.Span(span.file, n, col, n, col + len(word))
        return span

    def locate(self, span: A.Span, pattern: str, group: int = 1) -> A.Span:
        """The span of a regex group matched in the source lines of `span`, else `span`."""
        text = self.sources.get(span.file)
        if text is None or span.line < 1:
            return span
        lines = text.splitlines()
        for n in range(span.line, min(span.end_line, len(lines)) + 1):
            m = re.search(pattern, lines[n - 1])
            if m:
                return A.Span(span.file, n, m.start(group) + 1, n, m.end(group) + 1)
        return span


def head_span(span: A.Span, length: int) -> A.Span:
    """The first `length` characters of a node's span (a declaration's keyword or name)."""
    return A.Span(span.file, span.line, span.col, span.line, span.col + length)


def tail_span(span: A.Span, word: str) -> A.Span:
    """The span of `word` at the end of a node (an attribute's name in `obj.name`)."""
    if span.end_line >= 1 and span.end_col > len(word):
        return A.Span(span.file, span.end_line, span.end_col - len(word), span.end_line,
                      span.end_col)
    return span


def unknown(code: str, what: str, name: str, candidates, span, hint: Optional[str] = None,
            of: str = ""):
    """`unknown zone 'hnad' (did you mean 'hand'?)`; `of` follows the name (" of card")."""
    close = did_you_mean(name, [c for c in candidates if c != name])
    msg = f"unknown {what} '{name}'{of}" + (f" ({close})" if close else "")
    return Diagnostic(code, msg, span, hint)


class Env:
    """A local scope. Lets go to the function-level scope (`function`), like Python; loop,
    choice and comprehension variables live in child scopes. `pure` is why random() is
    not allowed here (None where it is)."""

    def __init__(self, g: Globals, diags: List[Diagnostic], pure: Optional[str] = None,
                 parent: Optional["Env"] = None, kind: Optional[KindInfo] = None,
                 kind_members: frozenset = frozenset(), function: Optional["Env"] = None):
        self.g, self.diags, self.pure, self.parent = g, diags, pure, parent
        self.kind, self.kind_members = kind, kind_members
        self.vars: Dict[str, Local] = {}
        self.function = function or self

    def child(self, pure: Optional[str] = "inherit") -> "Env":
        return Env(self.g, self.diags, self.pure if pure == "inherit" else pure, self,
                   self.kind, self.kind_members, self.function)

    def lookup(self, name: str) -> Optional[Local]:
        env = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        return None

    def local_names(self) -> List[str]:
        names, env = [], self
        while env is not None:
            names += list(env.vars)
            env = env.parent
        return names + sorted(self.kind_members)

    def bind(self, name: str, type_, what: str, span, assignable: bool = False,
             function_level: bool = False, shadow: bool = False) -> Local:
        """A new local name; E105 if it is taken (by a local or a global value). `shadow`:
        it may hide an enclosing local (comprehension and sort variables, like Python)."""
        target = self.function if function_level else self
        old = None if shadow else self.lookup(name)
        if old is not None:
            old_what = "a name made with 'let'" if old.what == "let" else _a(old.what)
            self.diags.append(Diagnostic(
                "E105", f"'{name}' is already {old_what} (line {old.span.line})", span,
                "choose another name" + ("; to change it write 'name = value'"
                                         if old.assignable and what == "let" else "")))
        else:
            clash = self._global_clash(name)
            if clash:
                self.diags.append(Diagnostic("E105", f"'{name}' is already {clash}", span,
                                             "choose another name for this local value"))
        local = Local(name, type_, what, span, assignable)
        target.vars[name] = local
        return local

    def _global_clash(self, name: str) -> Optional[str]:
        sym = self.g.symbols.get(name)
        if sym is not None and sym.what not in ("def", "procedure", "player var", "player zone"):
            return WHAT.get(sym.what, "declared")
        if name in BUILTIN_NAMES:
            return "a built-in name"
        if name in self.g.words:
            owners = self.g.words[name]
            return f"a value of {owners[0]}"
        if name in self.kind_members:
            return f"an attribute of {self.kind.decl.name}"
        return None

    def report(self, diag: Diagnostic) -> None:
        self.diags.append(diag)


def _a(what: str) -> str:
    return ("an " if what[:1] in "aeiou" else "a ") + what
