"""Compiler: a checked GameFile -> Program, the executable form the engine runs.

Declarations become lookup tables (zones, variables, tables, kinds); every
expression becomes a closure (gamedsl.compiler.closures); every block becomes a tuple of
compiled statements with stable numeric ids, so the engine can keep "where the
rules stand" as plain numbers in the state.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional


from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.errors import RuleError
from gamedsl.compiler.closures import ExprCompiler
from gamedsl.compiler.codecache import CodeCache
from gamedsl.compiler.kinds import enum_order, kind_of_type, named_constant, value_kind
from gamedsl.runtime import builtins as B
from gamedsl.runtime import program as P
from gamedsl.runtime.info import OptionInfo
from gamedsl.language import MAX_FAMILY
from gamedsl.runtime.ctx import Ctx
from gamedsl.runtime.program import (Alt, Decls, Display, Family, KindInfo, Param, Phase, Program, Snippet,
                                     Table, VarInfo, ZoneInfo, member_zone)
from gamedsl.runtime.values import plain
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
        # the local names that may hold a component (or a list of them): a choice tells those
        # it names apart from their look-alikes, as the rules can
        self.component_locals: set = set()

    def _may_name_components(self, name: str, kind: Optional[str]) -> None:
        if kind == "component":
            self.component_locals.add(name)

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
            self._may_name_components(s.name, kind_of_type(self.d.types.get(s.value)))
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
                       place=s.place, cell=cell, end=s.end, zone=_zone_name(s.dest),
                       kinds=_proven_kinds((self.d.types or {}).get(s.what)))
        if isinstance(s, A.Draw):
            return add(P.DrawStmt, s.span, count=ex.expr(s.count, scope), source=ex.zone(s.source, scope),
                       dest=ex.zone(s.dest, scope), zones=(_zone_name(s.source), _zone_name(s.dest)))
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
            return add(P.EndStmt, s.span, after_round=s.after_round, winner=winner, outcome=s.outcome)
        if isinstance(s, A.Say):
            return add(P.SayStmt, s.span, message=ex.expr(s.message, scope), kind=value_kind(s.message, self.d),
                       to=ex.expr(s.to, scope) if s.to is not None else None)
        if isinstance(s, A.Show):
            return add(P.ShowStmt, s.span, what=ex.expr(s.what, scope), to=ex.expr(s.to, scope))
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
            self._may_name_components(s.var, kind_of_type(self.d.types.get(s.iterable)))
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
                    self._may_name_components(p.name, kind)
                    local_kinds[p.name] = kind
                    scope.add(p.name)
                    continue
                domain = self.ex.expr(p.domain, scope, pure=True)
                if p.nobody:
                    domain = _or_nobody(domain)
                kind = value_kind(p.domain, self.d, local_kinds)
                local_kinds[p.name] = kind
                self._may_name_components(p.name, kind)
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

    def __init__(self, game: A.GameFile, types: Optional[dict] = None, codes: Optional[CodeCache] = None):
        d = Decls(types=types or {})
        super().__init__(d, ExprCompiler(d, codes), {})
        self.game = game
        self.codes = self.ex.codes  # (the generated blocks, listings and copier are compiled there too)

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
            self.d.orders[e.name] = {v.name: i for i, v in enumerate(e.values)}
        options = {}
        for o in by_type.get(A.OptionDecl, []):
            words = tuple(a.word for a in o.alternatives if isinstance(a, A.OptionWord))
            ranges = tuple((a.low, a.high) for a in o.alternatives if isinstance(a, A.OptionRange))
            self.d.words.update(words)
            self.d.options.add(o.name)
            self.d.orders[o.name] = {w: i for i, w in enumerate(words)}
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
            self.d.comp_attrs.update(e.name for e in k.each)
            if k.per_player:
                self.d.comp_attrs.add("owner")
            for s in k.states:
                self.d.comp_states.setdefault(s.name, set()).add(k.name)
        for k in kinds_decl:
            for st in k.states:
                self.d.state_kinds.setdefault(st.name, _type_kind(st.type, self.d))
        zones = {}
        for z in by_type.get(A.ZoneDecl, []):
            if z.family is not None:
                zones.update(self._family(z, one(A.PlayersDecl)))
                continue
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
            for x in p.params:
                self._may_name_components(x.name, _type_kind(x.type, self.d))
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
        team = one(A.TeamDecl)
        results = by_type.get(A.ResultDecl, [])
        publics = by_type.get(A.PublicDecl, [])
        players = one(A.PlayersDecl)
        title = one(A.GameDecl)
        shown = one(A.DisplayDecl)
        # a zone family named in `display` stands for each of its zones, labelled "Row 1"...
        members = {}
        for zone in zones.values():
            if zone.family is not None:
                members.setdefault(zone.family, []).append(zone.name)

        def each(e, label=None):
            if e.name not in members:
                return [(e.name, label or e.name)]
            return [(m, f"{label} {m[len(e.name) + 1:-1]}" if label else m) for m in members[e.name]]
        display = Display() if shown is None else Display(
            header=self.ex.expr(shown.header, set(), pure=True) if shown.header is not None else None,
            hidden=frozenset(n for e in shown.hidden for n, _ in each(e)),
            table=[m for e in shown.table for m in each(e, e.label)],
            mat=[m for e in shown.mat for m in each(e, e.label)],
            reveal=frozenset(n for e in shown.reveal for n, _ in each(e)),
            states={n: tuple((st.name, st.label or st.name) for st in e.states)
                    for e in shown.table + shown.mat if e.states is not None for n, _ in each(e)})
        parts, closed, summed = self._parts(heuristic or score)
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
            component_locals=frozenset(self.component_locals),
            counter=next((v.name for v in var_decls if any(f.name == "counter" for f in v.flags)), None),
            heuristic=(heuristic.var, self.ex.expr(heuristic.expr, {heuristic.var})) if heuristic else None,
            heuristic_parts=parts,
            heuristic_closed=closed,
            heuristic_summed=summed,
            cooperative=one(A.CooperativeDecl) is not None,
            team=(team.var, self.ex.expr(team.expr, {team.var})) if team else None,
            tiebreak=(tiebreak.var, [(self.ex.expr(k.expr, {tiebreak.var}), k.direction == "most")
                                     for k in tiebreak.keys]) if tiebreak else None,
            results=[(r.name, r.var, self.ex.expr(r.expr, {r.var}), value_kind(r.expr, self.d, {r.var: "player"}))
                     for r in results],
            publics=[(r.name, r.var, self.ex.expr(r.expr, {r.var}), value_kind(r.expr, self.d, {r.var: "player"}))
                     for r in publics],
        )
        return program

    def _parts(self, decl) -> tuple:
        """The def calls at the top of a seat's heuristic (or score) `decl`, of the seat alone
        (`a(p) + b(p) * 2 - c(p)`: each operand of the arithmetic at the top that calls a
        def with the seat for each argument), as (the def's name, its argument count, the
        call compiled alone); and whether the rest of that arithmetic is numbers alone (then
        it reads nothing of the state but through those calls). No calls unless the
        expression is such arithmetic: a search keeps each part's value under its own reads
        (gamedsl/runtime/readmemo.py). Third, whether it is the sum of those calls alone, in
        order."""
        if decl is None or decl.var is None or not isinstance(decl.expr, (A.BinOp, A.Negate)):
            return (), False, False
        parts: Dict[str, tuple] = {}
        closed = True
        todo = [decl.expr]
        while todo:
            e = todo.pop()
            if isinstance(e, A.BinOp):
                todo += [e.right, e.left]
            elif isinstance(e, A.Negate):
                todo.append(e.operand)
            elif (isinstance(e, A.Call) and e.name in self.d.defs and e.name not in B.FUNCTIONS
                  and named_constant(self.d.defs[e.name]) is None
                  and all(isinstance(a, A.Name) and a.name == decl.var for a in e.args)):
                if e.name not in parts:
                    parts[e.name] = (e.name, len(e.args), self.ex.expr(e, {decl.var}))
            elif not isinstance(e, A.Number):
                closed = False
        # (a sum of the calls alone, each once, in order: `a(p) + b(p) + c(p)`)
        leaves = []
        e = decl.expr
        while isinstance(e, A.BinOp) and e.op == "+":
            leaves.append(e.right)
            e = e.left
        leaves.append(e)
        summed = ([leaf.name if isinstance(leaf, A.Call) else None for leaf in reversed(leaves)]
                  == [name for name, _, _ in parts.values()])
        return tuple(parts.values()), closed and bool(parts), summed and bool(parts)

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

    def _family(self, z: A.ZoneDecl, players) -> Dict[str, ZoneInfo]:
        """A zone family's zones, one per index (with each player count the game allows, for a
        range whose ends count the players), each with the family's flags."""
        counts = range(players.low, players.high + 1) if players else range(2, 3)
        if z.family.enum is not None:
            words = self.d.enums.get(z.family.enum.name, ())
            keys = {n: words for n in counts}
        else:
            low, high = self.ex.expr(z.family.low, set()), self.ex.expr(z.family.high, set())
            keys = {}
            for n in counts:
                ctx = Ctx(None, {"n": n}, {}, None, pure=True)
                lo, hi = low(ctx), high(ctx)
                if not all(isinstance(v, int) or (isinstance(v, float) and v.is_integer()) for v in (lo, hi)) \
                        or not 1 <= hi - lo + 1 <= MAX_FAMILY:
                    raise RuleError("E507", f"zone family {z.name}: with {n} players it goes from "
                                    f"{plain(lo)} to {plain(hi)}; it needs 1 to {MAX_FAMILY} zones, "
                                    "numbered by whole numbers", z.family.span)
                keys[n] = tuple(range(int(lo), int(hi) + 1))
        self.d.families[z.name] = Family(z.name, z.per_player, z.family.enum is not None, keys)
        members: Dict[str, ZoneInfo] = {}
        everywhere = frozenset(counts)
        for key in dict.fromkeys(k for n in counts for k in keys[n]):
            info = self._zone(z)
            info.name, info.family = member_zone(z.name, key), z.name
            present = frozenset(n for n in counts if key in keys[n])
            info.players = None if present == everywhere else present
            members[info.name] = info
        return members

    def _zone(self, z: A.ZoneDecl) -> ZoneInfo:
        info = ZoneInfo(z.name, z.per_player, tuple(k.name for k in z.kinds))
        for f in z.flags:
            if f.word in ("public", "hidden", "owner", "others"):
                info.visibility = f.word
            elif f.word == "sorted":
                info.sorted_by = f.arg
                info.order = enum_order(self.d, self.d.types.get(f))
            elif f.word == "refill":
                info.refill = f.arg
            elif f.word == "grid":
                info.grid = True
                info.size = tuple(f.arg) if f.arg else None
            elif f.word == "capacity":
                info.capacity = f.arg
        return info

    def _kind(self, k: A.KindDecl, tables) -> KindInfo:
        table = tables.get(k.source_table) if k.source_table else None
        scope = set(table.columns) if table else set()
        if k.per_player:
            scope.add("owner")
        each = []
        for e in k.each:  # each list sees the names before it (the later are made inside it)
            each.append((e.name, self.ex.expr(e.source, set(scope)), e.span))
            scope.add(e.name)
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
            each,
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


def _zone_name(e) -> Optional[str]:
    """The name of the zone a destination names (`deck`, `p.hand`), or None for a family's
    zone (`pile[c.colour]`: which one is known when the statement runs)."""
    return e.name if isinstance(e, (A.Name, A.Attribute)) else None


def _proven_kinds(t) -> Optional[frozenset]:
    """The kinds of component a value of checker type `t` can only be (itself or a list of
    them), or None when its type leaves that open."""
    if isinstance(t, T.List):
        t = t.item
    if isinstance(t, (T.Kind, T.Zone)):
        return frozenset(t.names if isinstance(t, T.Kind) else t.kinds)
    return None


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
