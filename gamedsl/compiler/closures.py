"""Expressions compiled once into Python closures ``fn(ctx) -> value``.

Values at run time are plain JSON data: numbers, bools, texts (also enum words),
players and components (both ints: a seat, a component id), cells as [x, y],
lists, table rows as dicts, None. Which of these an expression yields is known
when the rules are compiled, so no value carries a tag. Zones are not values:
where a rule needs a zone itself (move, draw, shuffle, top, grid functions) the
expression is compiled with :meth:`ExprCompiler.zone`, giving (name, owner).
"""

from __future__ import annotations

from typing import Callable, Dict, Optional, Set

from gamedsl.syntax import ast as A
from gamedsl.runtime import builtins as B
from gamedsl.runtime import values as V
from gamedsl.errors import RuleError
from gamedsl.compiler.kinds import enum_order, is_enum, kind_of_type, named_constant, value_kind
from gamedsl.compiler.codecache import CodeCache
from gamedsl.compiler.pysource import SourceCompiler, worth_generating
from gamedsl.runtime.ctx import MAX_CALL_DEPTH, MAX_WORK, Ctx, Fn, memo_key
from gamedsl.runtime.values import in_round, zone_items
from gamedsl.runtime.wordlists import ListError


def _refusing(impl, name: str):
    """A function of the rules, saying E504 when a value it is given is not of its kinds.
    The checker sees to that in a game's rules; a scenario's expressions are not checked."""
    def run(ctx, span, *args):
        try:
            return impl(ctx, span, *args)
        except (TypeError, IndexError, KeyError, ValueError, AttributeError):
            given = ", ".join(V.plain(a) for a in args if not isinstance(a, tuple))  # (not zones)
            raise RuleError("E504", f"'{name}' cannot take {given or 'these values'}", span) from None
    return run


class ExprCompiler:
    # Whether expressions are also compiled to Python source (off: closures only, which
    # the generated code must agree with; tests compare the two).
    generate = True

    def __init__(self, decls, codes: Optional[CodeCache] = None):
        # decls: the compiler's tables of declared names (see compiler.Decls)
        self.d = decls
        self.codes = codes or CodeCache()  # where the generated code is compiled (and kept)
        self.source = None  # the SourceCompiler, made when first needed
        # what a comprehension's (or sort's) variable holds, for writing it with text() where
        # the checker left no type (scenario expressions are compiled without checking)
        self.local_kinds: Dict[str, str] = {}

    # ------------------------------------------------------------ entry points
    def expr(self, e, scope: Set[str], pure: bool = False) -> Fn:
        """A whole expression as a function of the context: closures at first, and, for one
        worth it, Python source generated once it has run twice (gamedsl/compiler/pysource.py).
        `pure`: it may not draw at random (a condition, a choice's list: what listing the
        moves evaluates, which must not change the game)."""

        fn = self._expr(e, scope)
        if pure:
            fn = _pure(fn)
        if self.generate:
            if worth_generating(e):
                fn = self._source().root(e, frozenset(scope), fn)
            # (for writing it into a block's function: see backend.py and pysource.inline)
            fn.generated_from = (self._source(), e, frozenset(scope))
        return fn

    def guard_filter(self, guard, scope: Set[str], params: list):
        """For listing a choice's moves: `run(ctx, domains, count)` giving the combinations
        of the parameters' values that pass `guard`, in generated code once it has listed
        twice, or None (not yet, or it gave up: then the caller tries each combination)."""
        if not self.generate:
            return None
        return self._source().guard_filter(guard, frozenset(scope), tuple(params))

    def _source(self):
        """The program's SourceCompiler (made on first need)."""
        if self.source is None:
            self.source = SourceCompiler(self)
        return self.source

    def _expr(self, e, scope) -> Fn:
        method = getattr(self, "_" + type(e).__name__)
        return method(e, scope)

    def zone(self, e, scope: Set[str]) -> Callable[["Ctx"], tuple]:
        """Compile an expression that names a zone: ``deck`` or ``p.hand``."""
        if isinstance(e, A.Name) and e.name in self.d.shared_zones and e.name not in scope:
            name = e.name
            return lambda ctx: (name, -1)
        if isinstance(e, A.Attribute) and e.name in self.d.player_zones:
            owner = self._expr(e.obj, scope)
            name = e.name
            return lambda ctx: (name, owner(ctx))
        family = self.family_of(e, scope)
        if family is not None:
            key, span = self._expr(e.index, scope), e.index.span
            if family.per_player:
                owner = self._expr(e.obj.obj, scope)

                def players_zone(ctx):
                    p = owner(ctx)
                    if not (type(p) is int and 0 <= p < ctx.state["n"]):
                        raise RuleError("E504", "a player's zone needs a player", e.span)
                    return (family.zone(key(ctx), ctx.state["n"], span), p)
                return players_zone
            return lambda ctx: (family.zone(key(ctx), ctx.state["n"], span), -1)
        raise RuleError("E201", "a zone is needed here (a zone's name, or p.zone for a player's zone)", e.span)

    def is_zone(self, e, scope) -> bool:
        return (isinstance(e, A.Name) and e.name in self.d.shared_zones and e.name not in scope) or (
            isinstance(e, A.Attribute) and e.name in self.d.player_zones) or (
            self.family_of(e, scope) is not None)

    def family_of(self, e, scope):
        """The zone family `e` addresses one zone of (`pile[c.colour]`, `p.expedition[red]`), or None."""
        if not isinstance(e, A.Index):
            return None
        return self.family_named(e.obj, scope)

    def family_named(self, e, scope):
        """The zone family `e` names (`pile`, `p.expedition`), or None."""
        if isinstance(e, A.Name) and e.name not in scope:
            family = self.d.families.get(e.name)
            return family if family is not None and not family.per_player else None
        if isinstance(e, A.Attribute):
            family = self.d.families.get(e.name)
            return family if family is not None and family.per_player else None
        return None

    # ------------------------------------------------------------ leaves
    def _Number(self, e, scope):
        v = e.value
        return lambda ctx: v

    def _Text(self, e, scope):
        v = e.value
        return lambda ctx: v

    def _Bool(self, e, scope):
        v = e.value
        return lambda ctx: v

    def _NoneLit(self, e, scope):
        return lambda ctx: None

    def _Name(self, e, scope):
        name, d = e.name, self.d
        if name in scope:
            span = e.span

            def local(ctx):
                try:
                    return ctx.env[name]
                except KeyError:
                    raise RuleError("E504", f"'{name}' has no value here yet", span) from None
            return local
        if self.is_word(e):
            return lambda ctx: name
        if name == "current":
            return lambda ctx: ctx.state["flow"]["current"]
        if name == "start_player":
            return lambda ctx: ctx.state["flow"]["start"]
        if name == "round":
            return lambda ctx: ctx.state["flow"]["round"]
        if name == "players":
            return lambda ctx: list(range(ctx.state["n"]))
        if name == "in_round":
            return lambda ctx: in_round(ctx.state)
        if name == "player_count":
            return lambda ctx: ctx.state["n"]
        if name in d.global_vars:
            return lambda ctx: ctx.state["vars"][name]
        if name in d.shared_zones:
            return lambda ctx: zone_items(ctx.state, name, -1)
        if name in d.families:
            return self._family_keys(d.families[name])
        if name in d.kinds:
            return lambda ctx: list(ctx.cat.by_kind[name])
        if name in d.enums:  # its values, in the order declared
            values = d.enums[name]
            return lambda ctx: list(values)
        if name in d.options:
            return lambda ctx: ctx.state["options"][name]
        if name in d.word_lists:
            option, lists = d.word_lists[name]
            span = e.span

            def word_list(ctx):
                wl = lists.get(ctx.state["options"].get(option) if option else None)
                if wl is None:
                    raise RuleError("E504", f"word list '{name}' was not read (is its file beside the game?)", span)
                try:
                    wl.words  # read on first use: a broken file is a rule error, not a crash
                except (ListError, OSError) as err:
                    why = err.message if isinstance(err, ListError) else err
                    raise RuleError("E504", f"word list '{name}': {why}", span) from None
                return wl
            return word_list
        if name in d.words:
            return lambda ctx: name
        raise RuleError("E101", f"unknown name '{name}'", e.span)

    def is_word(self, e) -> bool:
        """Whether a name that is not local is read as an enum's or option's word (`challenge
        == players`): then the word wins over a built-in name of the same spelling."""
        return e.name in self.d.words and is_enum(self.d.types.get(e) if self.d.types else None)

    # ------------------------------------------------------------ structure
    def attribute_plan(self, e):
        """How `x.name` is read: the categories the name may be (a player's variable or zone,
        a component's state or attribute), whether a table row may have it as a column, and
        `resolve(ctx, value)`, the general road for any value of x."""
        name, d, span = e.name, self.d, e.span
        cats = []
        if name in d.player_vars:
            cats.append("pvar")
        if name in d.player_zones:
            cats.append("pzone")
        if name in d.comp_states:
            cats.append("cstate")
        if name in d.comp_attrs:
            cats.append("cattr")
        row_col = name in d.row_columns
        owner_kind = kind_of_type(d.types.get(e.obj)) if d.types else None
        if owner_kind == "player":
            cats = [c for c in cats if c.startswith("p")]
        elif owner_kind == "component":
            cats = [c for c in cats if c.startswith("c")]
        if any(c.startswith("p") for c in cats) and any(c.startswith("c") for c in cats):
            raise RuleError("E102", f"'{name}' is both a player's and a component's; rename one", span)
        if not cats and not row_col:
            raise RuleError("E102", f"unknown attribute '{name}'", span)

        players = cats[0].startswith("p") if cats else False
        pvar, pzone, cstate, cattr = ("pvar" in cats, "pzone" in cats, "cstate" in cats, "cattr" in cats)
        state_kinds = d.comp_states.get(name) if cstate else None

        def resolve(ctx, v):
            if type(v) is not int:
                if isinstance(v, dict):
                    if name in v:
                        return v[name]
                    raise RuleError("E504", f"this row has no column '{name}'", span)
                if v is None:
                    raise RuleError("E504", f"'.{name}' of none", span)
            # (a scenario's expressions are not checked: x may be any value)
            if not (type(v) is int and 0 <= v < (ctx.state["n"] if players else len(ctx.cat.kind))):
                raise RuleError("E504", f"'.{name}' needs {'a player' if players else 'a component'}, "
                                f"not {V.plain(v)}", span)
            if pvar:
                return ctx.state["pvars"][name][v]
            if pzone:
                return zone_items(ctx.state, name, v)
            if cstate and name in ctx.state["cstate"] and ctx.cat.kind[v] in state_kinds:
                return ctx.state["cstate"][name][v]
            if cattr:
                attrs = ctx.cat.attrs[v]
                if name in attrs:
                    return attrs[name]
            raise RuleError("E504", f"this {ctx.cat.kind[v]} has no attribute '{name}'", span)
        return cats, row_col, resolve

    def _family_keys(self, family):
        """A zone family as a value: its indices with this many players."""
        return lambda ctx: list(family.keys.get(ctx.state["n"], ()))

    def _Attribute(self, e, scope):
        family = self.family_named(e, scope)
        if family is not None:
            return self._family_keys(family)
        obj = self._expr(e.obj, scope)
        name = e.name
        cats, _, resolve = self.attribute_plan(e)
        # The common cases first, each what resolve() would answer for a component or a seat
        # (an int); anything else takes the general road.
        if cats == ["cattr"]:
            def get(ctx):
                v = obj(ctx)
                if type(v) is int and 0 <= v < len(ctx.cat.attrs):
                    attrs = ctx.cat.attrs[v]
                    if name in attrs:
                        return attrs[name]
                return resolve(ctx, v)
        elif cats == ["pzone"]:
            def get(ctx):
                v = obj(ctx)
                if type(v) is int and 0 <= v < ctx.state["n"]:
                    return zone_items(ctx.state, name, v)
                return resolve(ctx, v)
        elif cats == ["pvar"]:
            def get(ctx):
                v = obj(ctx)
                if type(v) is int and 0 <= v < ctx.state["n"]:
                    return ctx.state["pvars"][name][v]
                return resolve(ctx, v)
        else:
            def get(ctx):
                return resolve(ctx, obj(ctx))
        return get

    def _Index(self, e, scope):
        span = e.span
        if isinstance(e.obj, A.Name) and e.obj.name in self.d.tables and e.obj.name not in scope:
            table = self.d.tables[e.obj.name]
            key = self._expr(e.index, scope)

            def lookup(ctx):
                k = key(ctx)
                i = table.row_index(k)
                if i is None:
                    raise RuleError("E504", f"table '{table.name}' has no row for {V.plain(k)}", span)
                if ctx.observer is not None:
                    ctx.observer.table_row(table.name, i)
                return table.rows[i]
            return lookup
        if self.family_of(e, scope) is not None:
            zone = self.zone(e, scope)
            return lambda ctx: zone_items(ctx.state, *zone(ctx))
        obj, idx = self._expr(e.obj, scope), self._expr(e.index, scope)

        def index(ctx):
            seq, i = obj(ctx), idx(ctx)
            if isinstance(seq, dict):  # a table's row (unchecked: a scenario's expression)
                raise RuleError("E504", f"a table's row is read by a column's name (row.column), not by "
                                f"a position: {V.plain(i)}", span)
            if not isinstance(seq, (list, str)):  # (unchecked: a scenario's expression)
                raise RuleError("E504", f"cannot take an item of {V.plain(seq)}", span)
            try:
                return seq[int(i)]
            except (IndexError, TypeError, ValueError, OverflowError):
                raise RuleError("E504", f"position {V.plain(i)} is outside this list of {len(seq)}", span) from None
        return index

    def _Call(self, e, scope):
        d, span = self.d, e.span
        if e.name in d.defs and e.name not in B.FUNCTIONS:
            return self._call_def(e, scope)
        if e.name == "rows" and e.args and isinstance(e.args[0], A.Name) and e.args[0].name in d.tables:
            rows = d.tables[e.args[0].name].rows
            return lambda ctx: [dict(r) for r in rows]
        spec = B.FUNCTIONS.get(e.name)
        if spec is None:
            raise RuleError("E103", f"unknown function '{e.name}'", span)
        ranked = self.ranked_call(e)
        if ranked is not None:
            a0 = self._expr(e.args[0], scope)

            def in_order(ctx):
                v = a0(ctx)
                if type(v) is list:
                    _charge(ctx, len(v), span)
                return ranked(ctx, span, v)
            return in_order
        if e.name in B.STOPPING and len(e.args) == 1 and isinstance(e.args[0], A.Comprehension):
            return self._stopping(e, scope)
        args = [self.zone(a, scope) if i in spec.zone_args else self._expr(a, scope)
                for i, a in enumerate(e.args)]
        impl = _refusing(spec.impl, e.name)
        if spec.wants_kind:
            if len(args) != 1:  # (the checker sees to it in rules; a scenario is not checked)
                def wrong(ctx):
                    raise RuleError("E504", f"'{e.name}' takes one value, not {len(args)}", span)
                return wrong
            kind = value_kind(e.args[0], self.d, self.local_kinds)
            a0 = args[0]
            return lambda ctx: impl(ctx, span, kind, a0(ctx))
        if spec.impure:
            def impure(ctx):
                if ctx.pure:
                    raise RuleError("E210", f"'{e.name}' is random and cannot be used here", span)
                return impl(ctx, span, *[a(ctx) for a in args])
            return impure
        # A function's work is about the length of the lists it is given: charged to the
        # expression, so one called on a long list for each item of it stops (E501).
        if len(args) == 1:
            a0 = args[0]

            def call1(ctx):
                v = a0(ctx)
                if type(v) is list:
                    _charge(ctx, len(v), span)
                return impl(ctx, span, v)
            return call1

        def call(ctx):
            values = [a(ctx) for a in args]
            for v in values:
                if type(v) is list:
                    _charge(ctx, len(v), span)
            return impl(ctx, span, *values)
        return call

    def _stopping(self, e, scope):
        """`any`, `all` or `first` of a comprehension: its items worked out in order up to
        the first that gives the value (a true one for `any`, a false one for `all`, the first
        kept for `first`), the rest left alone. The function charges the items worked out,
        as it charges the list it is given, and with none kept `first` says what it says of
        an empty list."""
        c = e.args[0]
        inner = scope | {c.var}
        source = self._expr(c.source, scope)
        element, cond = self.with_local_kind(c.var, c.source, lambda: (
            self._expr(c.element, inner),
            self._expr(c.cond, inner) if c.cond is not None else None))
        var, span = c.var, e.span
        deciding = B.DECIDED.get(e.name)  # (None: `first`)
        empty = _refusing(B.FUNCTIONS[e.name].impl, e.name)

        def stopping(ctx):
            env = ctx.env
            had, old = var in env, env.get(var)
            items = V.as_list(source(ctx), c.span)
            ctx.work += len(items)
            if ctx.work > MAX_WORK:
                _runaway(c.span)
            done, value = 0, None if deciding is None else not deciding
            try:
                for item in items:
                    env[var] = item
                    if cond is None or cond(ctx):
                        done += 1
                        v = element(ctx)
                        if deciding is None:
                            value = v
                            break
                        if bool(v) is deciding:
                            value = deciding
                            break
            finally:
                if had:
                    env[var] = old
                else:
                    env.pop(var, None)
            _charge(ctx, done, span)
            if deciding is None and not done:
                return empty(ctx, span, [])
            return value
        return stopping

    def order_of(self, e):
        """{word: place} if `e` is an enum's value (or a list of them): see kinds.enum_order."""
        return enum_order(self.d, self.d.types.get(e)) if self.d.types else None

    def unchecked(self, e) -> bool:
        """Whether the checker has not seen `e` (a scenario's expression)."""
        return self.d.types.get(e) is None

    def ranked_call(self, e):
        """sorted(L), min(L), max(L) of an enum's values: the function ordering them as the
        enum declares them, or None."""
        if e.name in ("sorted", "min", "max") and len(e.args) == 1:
            order = self.order_of(e.args[0])
            if order is not None:
                return B.in_order(e.name, order)
            if self.d.orders and self.unchecked(e.args[0]):
                return B.in_found_order(e.name, list(self.d.orders.values()))
        return None

    def _call_def(self, e, scope):
        fn_decl = self.d.defs[e.name]
        constant = named_constant(fn_decl)
        if constant is not None:
            value = constant.value
            return lambda ctx: value
        names = [p.name for p in fn_decl.params]
        args = [self._expr(a, scope) for a in e.args]
        span = e.span
        body_holder = self.d.def_bodies  # filled lazily: defs may call each other, or themselves

        def call(ctx):
            values = [a(ctx) for a in args]
            memo = ctx.memo
            if memo is not None:
                key = memo_key(e.name, values)
                if key in memo:
                    return memo[key]
                memo[key] = result = _run_def(ctx, values)
                return result
            return _run_def(ctx, values)

        def _run_def(ctx, values):
            ctx.work += 1
            if ctx.work > MAX_WORK:
                _runaway(span)
            body = body_holder.get(e.name)
            if body is None:
                body = body_holder[e.name] = self._expr(fn_decl.body, set(names))
            if ctx.depth >= MAX_CALL_DEPTH:
                raise RuleError("E502", f"'{e.name}' calls itself more than {MAX_CALL_DEPTH} deep", span)
            saved_env, saved_pure = ctx.env, ctx.pure
            ctx.env, ctx.pure = dict(zip(names, values)), True
            ctx.depth += 1
            try:
                return body(ctx)
            except RecursionError:
                # Python's own stack ran out before MAX_CALL_DEPTH (a def whose body nests
                # deeply): the same runaway. The innermost call with room to spare reports it.
                raise RuleError("E502", f"'{e.name}' calls itself too deeply", span) from None
            finally:
                ctx.depth -= 1
                ctx.env, ctx.pure = saved_env, saved_pure
        return call

    # ------------------------------------------------------------ operators
    def _BinOp(self, e, scope):
        left, right, op, span = self._expr(e.left, scope), self._expr(e.right, scope), e.op, e.span
        f = B.ARITH[op]
        fast = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}.get(op)
        if fast is None:
            def binop(ctx):
                return f(left(ctx), right(ctx), span)
            return binop

        def int_binop(ctx):
            a, b = left(ctx), right(ctx)
            if type(a) is int and type(b) is int:  # what f gives for two ints, without its checks
                r = fast(a, b)
                if -V.MAX_NUMBER <= r <= V.MAX_NUMBER:
                    return r
            return f(a, b, span)  # (and beyond the bounds, the error: x = x * x would grow without end)
        return int_binop

    def _Compare(self, e, scope):
        left, right, op, span = self._expr(e.left, scope), self._expr(e.right, scope), e.op, e.span
        if op == "==":
            return lambda ctx: V.equal(ctx, left(ctx), right(ctx), span)
        if op == "!=":
            return lambda ctx: not V.equal(ctx, left(ctx), right(ctx), span)
        if op in ("in", "not in"):
            want = op == "in"

            def member(ctx):
                container = right(ctx)
                if container is None or type(container) in (int, float, bool):
                    raise RuleError("E504", f"'in' needs a list or a text, not {V.plain(container)}", span)
                if type(container) is list:
                    _charge(ctx, len(container), span)
                elif type(container) is str:  # (searched by the C library: by the 64 characters)
                    _charge(ctx, len(container) >> 6, span)
                item = left(ctx)
                try:
                    return (item in container) == want
                except TypeError:  # (a text searched for a number, say: unchecked, in a scenario)
                    raise RuleError("E504", f"cannot look for {V.plain(item)} in {V.plain(container)}", span) from None
            return member
        f = B.ORDER[op]
        places = self.order_of(e.left) or self.order_of(e.right)
        if places is not None:  # an enum's values: in the order the enum declares them
            def by_place(ctx):
                a, b = left(ctx), right(ctx)
                try:
                    return f(places[a], places[b])
                except (KeyError, TypeError):
                    raise RuleError("E504", f"cannot compare {V.plain(a)} {op} {V.plain(b)}", span) from None
            return by_place
        if self.unchecked(e.left) and self.unchecked(e.right):
            # (a scenario's expression: which enum, if any, is known only from the values)
            orders = list(self.d.orders.values())

            def guessed(ctx):
                a, b = left(ctx), right(ctx)
                if type(a) is str and type(b) is str:
                    for places in orders:
                        if a in places and b in places:
                            return f(places[a], places[b])
                try:
                    return f(a, b)
                except TypeError:
                    raise RuleError("E504", f"cannot compare {V.plain(a)} {op} {V.plain(b)}", span) from None
            return guessed

        def order(ctx):
            a, b = left(ctx), right(ctx)
            try:
                return f(a, b)
            except TypeError:
                raise RuleError("E504", f"cannot compare {V.plain(a)} {op} {V.plain(b)}", span) from None
        return order

    def _And(self, e, scope):
        left, right = self._expr(e.left, scope), self._expr(e.right, scope)
        return lambda ctx: bool(left(ctx)) and bool(right(ctx))

    def _Or(self, e, scope):
        left, right = self._expr(e.left, scope), self._expr(e.right, scope)
        return lambda ctx: bool(left(ctx)) or bool(right(ctx))

    def _Not(self, e, scope):
        operand = self._expr(e.operand, scope)
        return lambda ctx: not operand(ctx)

    def _Negate(self, e, scope):
        operand, span = self._expr(e.operand, scope), e.span

        def negate(ctx):
            v = operand(ctx)
            if not V.is_number(v):
                raise RuleError("E504", f"cannot negate {V.plain(v)}", span)
            return -v
        return negate

    def _Conditional(self, e, scope):
        cond, then, orelse = (self._expr(x, scope) for x in (e.cond, e.then, e.orelse))
        return lambda ctx: then(ctx) if cond(ctx) else orelse(ctx)

    # ------------------------------------------------------------ collections
    def _ListExpr(self, e, scope):
        items = [self._expr(x, scope) for x in e.items]
        return lambda ctx: [f(ctx) for f in items]

    _TupleExpr = _ListExpr  # a cell (x, y) is the list [x, y]: JSON keeps lists, not tuples

    def with_local_kind(self, var, source, build):
        """Compile `build()` knowing what `var`, an item of `source`, holds."""
        had, old = var in self.local_kinds, self.local_kinds.get(var)
        self.local_kinds[var] = value_kind(source, self.d, self.local_kinds)
        try:
            return build()
        finally:
            if had:
                self.local_kinds[var] = old
            else:
                del self.local_kinds[var]

    def _Comprehension(self, e, scope):
        inner = scope | {e.var}
        source = self._expr(e.source, scope)
        element, cond = self.with_local_kind(e.var, e.source, lambda: (
            self._expr(e.element, inner),
            self._expr(e.cond, inner) if e.cond is not None else None))
        var = e.var

        def comprehension(ctx):
            env = ctx.env
            had, old = var in env, env.get(var)
            out = []
            items = V.as_list(source(ctx), e.span)
            ctx.work += len(items)
            if ctx.work > MAX_WORK:
                _runaway(e.span)
            try:
                for item in items:
                    env[var] = item
                    if cond is None or cond(ctx):
                        out.append(element(ctx))
            finally:
                if had:
                    env[var] = old
                else:
                    env.pop(var, None)
            return out
        return comprehension

    def _sort_key(self, k, scope) -> Fn:
        key = self._expr(k, scope)
        places = self.order_of(k)
        return key if places is None else _placed(key, places, k.span)

    def _Sort(self, e, scope):
        inner = scope | {e.var}
        source = self._expr(e.source, scope)
        keys = self.with_local_kind(e.var, e.source, lambda: [
            (self._sort_key(k.expr, inner), k.direction == "most") for k in e.keys])
        var, span = e.var, e.span

        def sort(ctx):
            items = V.as_list(source(ctx), span)
            ctx.work += len(items)
            if ctx.work > MAX_WORK:
                _runaway(span)
            env = ctx.env
            had, old = var in env, env.get(var)
            try:
                computed = []
                for item in items:
                    env[var] = item
                    computed.append((item, [k(ctx) for k, _ in keys]))
            finally:
                if had:
                    env[var] = old
                else:
                    env.pop(var, None)
            try:
                for n in range(len(keys) - 1, -1, -1):
                    computed.sort(key=lambda pair: pair[1][n], reverse=keys[n][1])
            except TypeError:
                raise RuleError("E504", "sort keys must be numbers, texts or bools of one kind", span) from None
            return [item for item, _ in computed]
        return sort


def _placed(key: Fn, places: dict, span) -> Fn:
    """A sort key that is an enum's value, as its place in the enum."""
    def place(ctx):
        v = key(ctx)
        try:
            return places[v]
        except (KeyError, TypeError):
            raise RuleError("E504", f"a sort key {V.plain(v)} is not one of {', '.join(places)}", span) from None
    return place


def _pure(fn: Fn) -> Fn:
    def pure(ctx):
        if ctx.pure:  # (listing moves: pure already)
            return fn(ctx)
        ctx.pure = True
        try:
            return fn(ctx)
        finally:
            ctx.pure = False
    return pure


def _charge(ctx, work: int, span) -> None:
    ctx.work += work
    if ctx.work > MAX_WORK:
        _runaway(span)


def _runaway(span):
    raise RuleError("E501", f"an expression went through more than {MAX_WORK:,} values: a function "
                    "that calls itself more than once, or long lists gone through for each item of "
                    "another?", span, "give the recursion a case that stops, or compute the value in steps")


