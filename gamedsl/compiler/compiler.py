"""Compiler: a checked GameFile -> Program, the executable form the engine runs.

Declarations become lookup tables (zones, variables, tables, kinds); every
expression becomes a closure (gamedsl.compiler.closures); every block becomes a tuple of
compiled statements with stable numeric ids, so the engine can keep "where the
rules stand" as plain numbers in the state.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional


from gamedsl.syntax import ast as A
from gamedsl.errors import RuleError
from gamedsl.compiler.closures import ExprCompiler
from gamedsl.compiler.kinds import value_kind
from gamedsl.runtime import program as P
from gamedsl.runtime.info import OptionInfo
from gamedsl.runtime.program import (Alt, Decls, Display, KindInfo, Param, Phase, Program, Snippet,
                                     Table, VarInfo, ZoneInfo)
from gamedsl.runtime.wordlists import option_in_name

# ---------------------------------------------------------------- declarations


# ---------------------------------------------------------------- compiled statements


# ---------------------------------------------------------------- the compiler


def _or_nobody(domain):
    """`x in L or nobody`: the choices of L, or none alone when L is empty (one move, "nobody")."""
    def choices(ctx):
        values = domain(ctx)
        return [None] if values == [] else values
    return choices


class Statements:
    """Compiles statements into numbered blocks of statement records.

    Numbering starts at `block_base` and `stmt_base`: 0 for a game, after the game's own
    blocks and statements for a scenario's snippet (see Snippets).
    """

    def __init__(self, d: Decls, ex: ExprCompiler, procs: dict, block_base: int = 0, stmt_base: int = 0):
        self.d, self.ex, self.procs = d, ex, procs
        self.blocks: List[tuple] = []
        self.stmts: List[P.Stmt] = []
        self.block_base, self.stmt_base = block_base, stmt_base
        self.leaving = False   # a `leave round` was compiled

    # statements -------------------------------------------------------
    def block(self, body: tuple, scope: set) -> int:
        """Compile a block; `scope` is shared with nested blocks (function-level locals)."""
        index = len(self.blocks)
        self.blocks.append(())
        compiled = tuple(self.stmt(s, scope) for s in body)
        self.blocks[index] = compiled
        return self.block_base + index

    def _add(self, record, span, **fields) -> P.Stmt:
        # (called once the fields are compiled: a statement's nested blocks are numbered
        # before it, so ids follow the order statements are finished in)
        stmt = record(span=span, sid=self.stmt_base + len(self.stmts), **fields)
        self.stmts.append(stmt)
        return stmt

    def stmt(self, s, scope: set) -> P.Stmt:
        ex, add = self.ex, self._add
        if isinstance(s, A.Let):
            value = ex.expr(s.value, scope)
            scope.add(s.name)
            return add(P.LetStmt, s.span, name=s.name, value=value)
        if isinstance(s, A.Assign):
            value = ex.expr(s.value, scope)
            return add(P.AssignStmt, s.span, target=self._target(s.target, scope), op=s.op, value=value)
        if isinstance(s, A.CallStmt):
            if s.call.name not in self.procs:
                raise RuleError("E103", f"unknown procedure '{s.call.name}'", s.span)
            return add(P.CallStmt, s.span, proc=s.call.name, args=[ex.expr(a, scope) for a in s.call.args])
        if isinstance(s, A.Move):
            cell = ex.expr(s.cell, scope) if s.cell is not None else None
            return add(P.MoveStmt, s.span, what=ex.expr(s.what, scope), dest=ex.zone(s.dest, scope),
                       place=s.place, cell=cell)
        if isinstance(s, A.Draw):
            return add(P.DrawStmt, s.span, count=ex.expr(s.count, scope), source=ex.zone(s.source, scope),
                       dest=ex.zone(s.dest, scope))
        if isinstance(s, A.Shuffle):
            return add(P.ShuffleStmt, s.span, zone=ex.zone(s.zone, scope))
        if isinstance(s, A.NextTurn):
            return add(P.NextTurnStmt, s.span, player=ex.expr(s.player, scope))
        if isinstance(s, A.LeaveRound):
            self.leaving = True
            player = ex.expr(s.player, scope) if s.player is not None else None
            return add(P.LeaveStmt, s.span, player=player)
        if isinstance(s, A.EndRound):
            return add(P.EndRoundStmt, s.span)
        if isinstance(s, A.EndGame):
            winner = ex.expr(s.winner, scope) if s.winner is not None else None
            return add(P.EndStmt, s.span, after_round=s.after_round, winner=winner)
        if isinstance(s, A.Say):
            return add(P.SayStmt, s.span, message=ex.expr(s.message, scope), kind=value_kind(s.message, self.d),
                       to=ex.expr(s.to, scope) if s.to is not None else None)
        if isinstance(s, A.Break):
            return add(P.BreakStmt, s.span)
        if isinstance(s, A.Return):
            return add(P.ReturnStmt, s.span)
        if isinstance(s, A.Pass):
            return add(P.PassStmt, s.span)
        if isinstance(s, A.If):
            branches = [(ex.expr(b.cond, scope), self.block(b.body, scope)) for b in s.branches]
            orelse = self.block(s.orelse, scope) if s.orelse else None
            return add(P.IfStmt, s.span, branches=branches, orelse=orelse)
        if isinstance(s, A.For):
            iterable = ex.expr(s.iterable, scope)
            scope.add(s.var)
            return add(P.ForStmt, s.span, var=s.var, items=iterable, body=self.block(s.body, scope))
        if isinstance(s, A.While):
            return add(P.WhileStmt, s.span, cond=ex.expr(s.cond, scope), body=self.block(s.body, scope))
        if isinstance(s, A.Repeat):
            count = ex.expr(s.count, scope) if s.count is not None else None
            return add(P.RepeatStmt, s.span, count=count, body=self.block(s.body, scope))
        if isinstance(s, A.Choose):
            player = ex.expr(s.player, scope)
            alts = self._alts(s.alternatives, scope, {})
            timer = ex.expr(s.timer, scope, pure=True) if s.timer is not None else None
            timeout = self.block(s.timeouts[0].body, scope) if s.timeouts else None
            return add(P.ChooseStmt, s.span, player=player, alts=alts, timer=timer, timeout=timeout)
        if isinstance(s, A.SecretChoose):
            players = ex.expr(s.players, scope)
            scope.add(s.var)
            alts = self._alts(s.alternatives, scope, {s.var: "player"})
            return add(P.SecretStmt, s.span, var=s.var, players=players, alts=alts)
        raise RuleError("E003", f"cannot compile {type(s).__name__}", s.span)

    def _typed(self, t) -> str:
        """How a typed parameter is read: 'text', 'number', 'cell', 'list of text', or an enum's name."""
        if isinstance(t, A.TypeList):
            return "list of text"
        return "number" if t.name == "int" else t.name

    def _alts(self, alternatives, scope, kinds) -> list:
        out = []
        for alt in alternatives:
            params = []
            local_kinds = dict(kinds)
            typed = [self._typed(p.type) for p in alt.params if p.domain is None] or None
            for p in alt.params:
                if p.domain is None:  # typed by a person: no list of values
                    kind = _type_kind(p.type, self.d)
                    params.append(Param(p.name, None, kind))
                    local_kinds[p.name] = kind
                    scope.add(p.name)
                    continue
                domain = self.ex.expr(p.domain, scope, pure=True)
                if p.nobody:
                    domain = _or_nobody(domain)
                kind = value_kind(p.domain, self.d, local_kinds)
                local_kinds[p.name] = kind
                params.append(Param(p.name, domain, kind, nobody=p.nobody))
                scope.add(p.name)
            pure = lambda e: self.ex.expr(e, scope, pure=True) if e is not None else None  # noqa: E731
            guard = pure(alt.guard)
            own = {p.name for p in alt.params}
            fixed = typed is None and not any(own & A.names_in(p.domain) for p in alt.params)
            listing = (self.ex.guard_filter(alt.guard, scope, [p.name for p in alt.params])
                       if fixed and alt.guard is not None else None)
            out.append(Alt(alt.name, params, alt.template, guard, self.block(alt.body, scope), alt.span,
                           typed, pure(alt.suggest), pure(alt.refusal), fixed, listing, help=alt.help))
        return out

    def _target(self, t, scope) -> tuple:
        """Where an assignment writes: (where, name, object or base target, position)."""
        if isinstance(t, A.Name):
            if t.name in scope:
                return ("local", t.name, None)
            if t.name == "start_player":
                return ("start", None, None)
            if t.name in self.d.global_vars:
                return ("global", t.name, None)
        if isinstance(t, A.Attribute):
            obj = self.ex.expr(t.obj, scope)
            if t.name in self.d.player_vars:
                return ("pvar", t.name, obj)
            if t.name in self.d.comp_states:
                return ("cstate", t.name, obj)
        if isinstance(t, A.Index):
            return ("item", self._target(t.obj, scope), self.ex.expr(t.index, scope))
        raise RuleError("E207", "only variables, player variables, component states and their "
                        "list items can be changed", t.span)


class Compiler(Statements):
    """A checked GameFile -> Program."""

    def __init__(self, game: A.GameFile, types: Optional[dict] = None):
        d = Decls(types=types or {})
        super().__init__(d, ExprCompiler(d), {})
        self.game = game

    # declarations -----------------------------------------------------
    def compile(self):
        decls = self.game.decls
        by_type: Dict[type, list] = {}
        for decl in decls:
            by_type.setdefault(type(decl), []).append(decl)
        one = lambda t: (by_type.get(t) or [None])[-1]  # noqa: E731 — a variant's last word wins

        for e in by_type.get(A.EnumDecl, []):
            self.d.words.update(v.name for v in e.values)
            self.d.enums[e.name] = tuple(v.name for v in e.values)
        options = {}
        for o in by_type.get(A.OptionDecl, []):
            words = tuple(a.word for a in o.alternatives if isinstance(a, A.OptionWord))
            ranges = tuple((a.low, a.high) for a in o.alternatives if isinstance(a, A.OptionRange))
            self.d.words.update(words)
            self.d.options.add(o.name)
            options[o.name] = OptionInfo(o.name, A.literal_value(o.default), words, ranges)
        for w in by_type.get(A.WordsDecl, []):
            option = option_in_name(w.source)
            self.d.word_lists[w.name] = (option, dict(w.lists))
        tables = {t.name: self._table(t) for t in by_type.get(A.TableDecl, [])}
        self.d.tables = tables
        for t in tables.values():
            self.d.row_columns.update(t.columns)
        for d in by_type.get(A.DefDecl, []):
            self.d.defs[d.name] = d
        for p in by_type.get(A.ProcDecl, []):
            self.d.procs[p.name] = p
        kinds_decl = by_type.get(A.KindDecl, [])
        for k in kinds_decl:
            self.d.kinds.add(k.name)
            if k.source_table and k.source_table in tables:
                self.d.comp_attrs.update(tables[k.source_table].columns)
            self.d.comp_attrs.update(a.name for a in k.attrs)
            if k.per_player:
                self.d.comp_attrs.add("owner")
            for s in k.states:
                self.d.comp_states.setdefault(s.name, set()).add(k.name)
        for k in kinds_decl:
            for st in k.states:
                self.d.state_kinds.setdefault(st.name, _type_kind(st.type, self.d))
        zones = {}
        for z in by_type.get(A.ZoneDecl, []):
            zones[z.name] = self._zone(z)
            (self.d.player_zones if z.per_player else self.d.shared_zones).add(z.name)
        var_decls = by_type.get(A.VarDecl, [])
        for v in var_decls:
            (self.d.player_vars if v.per_player else self.d.global_vars).add(v.name)
            self.d.var_kinds[v.name] = _type_kind(v.type, self.d)
        kinds = {k.name: self._kind(k, tables) for k in kinds_decl}
        global_vars = [VarInfo(v.name, self.ex.expr(v.init, set()), kind=self.d.var_kinds[v.name])
                       for v in var_decls if not v.per_player]
        player_vars = [VarInfo(v.name, self.ex.expr(v.init, set()),
                               secret=any(f.name == "secret" for f in v.flags), kind=self.d.var_kinds[v.name])
                       for v in var_decls if v.per_player]

        procs = {}
        for p in by_type.get(A.ProcDecl, []):
            names = [x.name for x in p.params]
            procs[p.name] = (names, None)
        self.procs = procs
        for p in by_type.get(A.ProcDecl, []):
            names = [x.name for x in p.params]
            procs[p.name] = (names, self.block(p.body, set(names)))

        setup = one(A.SetupDecl)
        setup_block = self.block(setup.body, set()) if setup else None
        phases = []
        turn = one(A.TurnDecl)
        phase_decls = by_type.get(A.PhaseDecl, [])
        if turn is not None and not phase_decls:
            phases.append(Phase("main", None, self.block(turn.body, set()), None, None, turn.span))
        for ph in phase_decls:
            phases.append(Phase(
                ph.name,
                self.block(ph.begin, set()) if ph.begin else None,
                self.block(ph.turn, set()) if ph.turn else None,
                self.ex.expr(ph.end_when, set(), pure=True) if ph.end_when is not None else None,
                ph.then.name if ph.then is not None else None,
                ph.span,
            ))

        score = one(A.ScoreDecl)
        tiebreak = one(A.TiebreakDecl)
        heuristic = one(A.HeuristicDecl)
        results = by_type.get(A.ResultDecl, [])
        publics = by_type.get(A.PublicDecl, [])
        players = one(A.PlayersDecl)
        title = one(A.GameDecl)
        shown = one(A.DisplayDecl)
        display = Display() if shown is None else Display(
            header=self.ex.expr(shown.header, set(), pure=True) if shown.header is not None else None,
            hidden=frozenset(e.name for e in shown.hidden),
            table=[(e.name, e.label or e.name) for e in shown.table],
            mat=[(e.name, e.label or e.name) for e in shown.mat],
            reveal=frozenset(e.name for e in shown.reveal),
            states={e.name: tuple((st.name, st.label or st.name) for st in e.states)
                    for e in shown.table + shown.mat if e.states is not None})
        program = Program(
            title=title.title if title else "untitled",
            display=display,
            min_players=players.low if players else 2,
            max_players=players.high if players else 2,
            options=options, decls=self.d, tables=tables, kinds=kinds, zones=zones,
            global_vars=global_vars, player_vars=player_vars,
            blocks=tuple(self.blocks), stmts=tuple(self.stmts), procs=procs,
            setup=setup_block, phases=phases,
            score=(score.var, self.ex.expr(score.expr, {score.var})) if score else None,
            lowest_wins=bool(score and score.lowest), leaving=self.leaving,
            counter=next((v.name for v in var_decls if any(f.name == "counter" for f in v.flags)), None),
            heuristic=(heuristic.var, self.ex.expr(heuristic.expr, {heuristic.var})) if heuristic else None,
            tiebreak=(tiebreak.var, [(self.ex.expr(k.expr, {tiebreak.var}), k.direction == "most")
                                     for k in tiebreak.keys]) if tiebreak else None,
            results=[(r.name, r.var, self.ex.expr(r.expr, {r.var}), value_kind(r.expr, self.d, {r.var: "player"}))
                     for r in results],
            publics=[(r.name, r.var, self.ex.expr(r.expr, {r.var}), value_kind(r.expr, self.d, {r.var: "player"}))
                     for r in publics],
        )
        return program

    def snippets(self, program: Program) -> "Snippets":
        """A compiler of scenario snippets against `program`, keeping what they need from
        this compile (the declarations, the procedures, the expression compiler)."""
        return Snippets(self, program)

    def _table(self, t: A.TableDecl) -> Table:
        # A table from a CSV file arrives with its rows read in by the loader.
        columns = [c.name for c in t.columns]
        rows = [{col: _cell_value(cell) for col, cell in zip(columns, r)} for r in t.rows]
        table = Table(t.name, columns, rows, t.key)
        if t.key in columns:
            k = columns.index(t.key)
            table.matchers = [_matcher(r[k] if k < len(r) else None) for r in t.rows]
        return table

    def _zone(self, z: A.ZoneDecl) -> ZoneInfo:
        info = ZoneInfo(z.name, z.per_player, tuple(k.name for k in z.kinds))
        for f in z.flags:
            if f.word in ("public", "hidden", "owner"):
                info.visibility = f.word
            elif f.word == "sorted":
                info.sorted_by = f.arg
            elif f.word == "refill":
                info.refill = f.arg
            elif f.word == "grid":
                info.grid = True
                info.size = tuple(f.arg) if f.arg else None
        return info

    def _kind(self, k: A.KindDecl, tables) -> KindInfo:
        table = tables.get(k.source_table) if k.source_table else None
        scope = set(table.columns) if table else set()
        if k.per_player:
            scope.add("owner")
        attrs_ = []
        for a in k.attrs:
            attrs_.append((a.name, self.ex.expr(a.value, set(scope))))
            scope.add(a.name)
        return KindInfo(
            k.name, table,
            self.ex.expr(k.copies, set(scope)) if k.copies is not None else None,
            k.per_player,
            self.ex.expr(k.show, set(scope)) if k.show is not None else None,
            attrs_,
            [(s.name, self.ex.expr(s.init, set(scope))) for s in k.states],
            scope,
            tuple(f.name for f in k.faces),
        )


# ---------------------------------------------------------------- snippets


class Snippets:
    """Compiles a scenario's expressions and statements against one compiled game.

    The game's Program is never changed: a snippet's blocks and statements are its own,
    numbered after the Program's so the machine can run them beside the game's rules.
    """

    def __init__(self, compiler: Compiler, program: Program):
        self._d, self._ex, self._procs = compiler.d, compiler.ex, compiler.procs
        self._blocks, self._stmts = len(program.blocks), len(program.stmts)

    def expr(self, expr, names=()) -> Callable:
        """An expression as a function of a context, seeing the local `names`."""
        return self._ex.expr(expr, set(names))

    def block(self, body: tuple, names=()) -> Snippet:
        part = Statements(self._d, self._ex, self._procs, self._blocks, self._stmts)
        entry = part.block(body, set(names))
        return Snippet(entry, tuple(part.blocks), tuple(part.stmts))

    @property
    def source(self):
        """The generated Python source of the game's expressions so far (for debugging and
        tests): the SourceCompiler, with its `sources`, `generated` and `give_ups`."""
        return self._ex.source


# ---------------------------------------------------------------- small helpers


def _type_kind(t, d: Decls) -> str:
    if isinstance(t, A.TypeOptional):
        return _type_kind(t.inner, d)
    if isinstance(t, A.TypeList):
        return _type_kind(t.item, d)
    if isinstance(t, A.TypeName):
        if t.name == "player":
            return "player"
        if t.name == "cell":
            return "cell"
        if t.name in d.kinds:
            return "component"
    return "value"


def _cell_value(cell: A.Cell):
    if cell.kind == "range":
        return cell.value[0]
    return cell.value


def _matcher(cell: Optional[A.Cell]):
    if cell is None or cell.kind == "empty":
        return lambda k: k is None
    if cell.kind == "at_least":
        low = cell.value
        return lambda k: isinstance(k, (int, float)) and not isinstance(k, bool) and k >= low
    if cell.kind == "range":
        lo, hi = cell.value
        return lambda k: isinstance(k, (int, float)) and not isinstance(k, bool) and lo <= k <= hi
    v = cell.value
    return lambda k: k == v and type(k) is not bool or (isinstance(v, bool) and k is v)
