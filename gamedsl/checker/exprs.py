"""Expression types: `infer(expr, env)` gives an expression's type, records it in
`env.g.types` and reports what is wrong in `env.diags`. After an error the type is ANY,
so one mistake gives one diagnostic.

`expect` is the type the context wants (an assignment's target, a parameter's type,
the other side of ``==``); it only decides which enum a bare word belongs to, so that
an option word such as ``players`` in ``challenge == players`` means the word.
"""

from __future__ import annotations

import re
from typing import Optional

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.scope import WHAT, Env, Globals, KindInfo, tail_span, unknown
from gamedsl.diagnostics import Diagnostic
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS


def infer(e, env: Env, expect=None, role: Optional[str] = None):
    """The type of expression `e` (recorded in env.g.types)."""
    fn = _DISPATCH.get(type(e))
    t = fn(e, env, expect, role) if fn else T.ANY
    env.g.types[e] = t
    return t


def expect_bool(e, env: Env, what: str):
    t = infer(e, env)
    if not T.is_bool(t):
        env.report(Diagnostic("E203", f"{what} must be true or false, not {T.render(t)}",
                              e.span, "compare it, e.g. 'x > 0' or 'x == y'"))
    return t


def expect_type(e, env: Env, want, what: str):
    """Infer `e` and demand it be assignable to `want` (E201)."""
    t = infer(e, env, expect=want)
    if not T.assignable(t, want):
        env.report(Diagnostic("E201", f"{what} must be {T.render(want)}, not {T.render(t)}",
                              e.span))
    return t


def expect_zone(e, env: Env, what: str):
    """Infer `e` as a zone (`deck`, `p.hand`); E201 if it is something else."""
    t = infer(e, env, role="zone")
    t0 = T.unwrap(t)
    if t0 == T.ANY or isinstance(t0, T.Zone):
        return t0
    hint = f"say which of its zones: {t0.name}[...]" if isinstance(t0, T.Family) else None
    env.report(Diagnostic("E201", f"{what} must be a zone, not {T.render(t)}", e.span, hint))
    return T.ANY


def iterate(e, env: Env, what: str = "this"):
    """The item type of a list expression; E211 if it cannot be iterated."""
    t = infer(e, env)
    item = T.item_type(t)
    if item is None:
        hint = "a table's rows are rows(T)" if isinstance(T.unwrap(t), T.Table) else None
        env.report(Diagnostic("E211", f"{what} must be a list or a zone, not {T.render(t)}",
                              e.span, hint))
        return T.ANY
    return item


# ---------------------------------------------------------------- literals and names


def _literal(t):
    return lambda e, env, expect, role: t


def _name(e: A.Name, env: Env, expect, role):
    name = e.name
    local = env.lookup(name)
    if local is not None:
        return local.type
    if name in env.kind_members:
        return _member_type(env, env.kind, name)
    g = env.g
    expect0 = T.unwrap(expect) if expect is not None else None
    if isinstance(expect0, T.List):
        expect0 = T.unwrap(expect0.item)
    if isinstance(expect0, (T.Enum, T.OptionMix)) and name in g.enum_values.get(expect0.name, ()):
        g.use(expect0.name)
        return T.Enum(expect0.name)
    sym = g.use(name)
    if sym is not None and sym.what == "words" and role != "words":
        env.report(Diagnostic("E215", f"'{name}' is a word list: ask it 'w in {name}' or "
                              f"formable({name}, letters)", e.span,
                              "a word list is not a value to keep, count or walk through"))
        return T.ANY
    if sym is not None and sym.what not in ("player var", "player zone"):
        if sym.what == "enum":  # its values, in the order declared
            return T.List(T.Enum(name))
        if sym.what in ("def", "procedure"):
            env.report(Diagnostic("E107", f"'{name}' is {WHAT[sym.what]}, not a value",
                                  e.span, f"call it: {name}(...)"))
            return T.ANY
        return sym.type
    if name in BUILTIN_NAMES:
        return BUILTIN_NAMES[name].type
    if name in g.words:
        owners = g.words[name]
        for owner in owners:
            g.use(owner)
        if len(set(owners)) > 1:
            env.report(Diagnostic(
                "E108", f"'{name}' is a word of both {owners[0]} and {owners[1]}", e.span,
                f"compare it with one of them: '{owners[0]} == {name}'"))
            return T.ANY
        return T.Enum(owners[0])
    if sym is not None:  # a player var or zone, written bare
        env.report(Diagnostic("E107", f"'{name}' is {WHAT[sym.what]}: say whose",
                              e.span, f"write p.{name}, e.g. current.{name}"))
        return T.ANY
    if env.kind is not None and env.kind.open:
        return T.ANY  # perhaps a column of a table whose columns are unknown
    if role == "zone":
        zones = [z for z in g.zones]
        env.report(unknown("E101", "zone", name, zones + env.local_names(), e.span))
    else:
        env.report(unknown("E101", "name", name, g.value_names() + list(BUILTIN_NAMES)
                           + env.local_names(), e.span))
    return T.ANY


def _member_type(env: Env, info, name: str):
    """The type of a kind's member (inferring a constant attribute on first use)."""
    return member_type(env.g, info, name)


# ---------------------------------------------------------------- attributes, indexing


def _attribute(e: A.Attribute, env: Env, expect, role):
    obj = T.unwrap(infer(e.obj, env))
    g, name = env.g, e.name
    span = tail_span(e.span, name)
    if obj == T.ANY:
        return T.ANY
    if obj == T.PLAYER:
        sym = g.player_members.get(name)
        if sym is None:
            what = "zone" if role == "zone" else "player variable or zone"
            cands = [n for n, s in g.player_members.items()
                     if role != "zone" or s.what == "player zone"]
            env.report(unknown("E102", what, name, cands, span))
            return T.ANY
        sym.used = True
        return sym.type
    kinds = T.kinds_of(obj)
    if kinds is not None:
        return component_attribute(env, kinds, name, span)
    if isinstance(obj, T.Row):
        info = g.tables.get(obj.table)
        if info is None or info.columns is None:
            return T.ANY
        if name not in info.columns:
            env.report(unknown("E102", "column", name, info.columns, span,
                               of=f" in table {obj.table}"))
            return T.ANY
        return info.columns[name]
    env.report(Diagnostic("E214", f"{T.render(obj)} has no attributes (no '.{name}')", span))
    return T.ANY


def component_attribute(env: Env, kinds, name: str, span):
    """`c.name` on a component of `kinds`: the member must exist on every one of them."""
    g = env.g
    types, missing = [], []
    for k in sorted(kinds):
        info = g.kinds.get(k)
        if info is None:
            continue
        if name in info.members:
            types.append(_member_type(env, info, name))
        elif info.open:
            types.append(T.ANY)
        else:
            missing.append(k)
    if missing:
        if len(kinds) == 1:
            cands = list(g.kinds[missing[0]].members) if missing[0] in g.kinds else []
            env.report(unknown("E102", "attribute", name, cands, span, of=f" of {missing[0]}"))
        else:
            env.report(Diagnostic("E102", f"'{name}' is not an attribute of every kind here: "
                                  f"{', '.join(missing)} has none", span))
        return T.ANY
    joined = T.join_all(types)
    return joined if joined is not None else T.ANY


def _index(e: A.Index, env: Env, expect, role):
    obj = T.unwrap(infer(e.obj, env))
    g = env.g
    if isinstance(obj, T.Table):
        info = g.tables.get(obj.name)
        if info is not None and info.decl.key is None:
            infer(e.index, env)
            env.report(Diagnostic("E212", f"table {obj.name} has no key to look up",
                                  e.span, f"declare it 'table {obj.name} by COLUMN:', "
                                  f"or use rows({obj.name})"))
            return T.ANY
        key = info.key_type if info is not None else T.ANY
        expect_type(e.index, env, key, f"the key of table {obj.name}")
        return T.Row(obj.name)
    if obj == T.ANY:  # (after an error: say nothing of the index it cannot know the type of)
        infer(e.index, env)
        return T.ANY
    if isinstance(obj, T.Family):
        expect_type(e.index, env, obj.index, f"which zone of {obj.name}")
        return obj.zone
    if isinstance(obj, T.Tuple):
        expect_type(e.index, env, T.NUMBER, "an index")
        if isinstance(e.index, A.Number) and isinstance(e.index.value, int) \
                and 0 <= e.index.value < len(obj.items):
            return obj.items[e.index.value]
        joined = T.join_all(obj.items)
        return joined if joined is not None else T.ANY
    item = T.item_type(obj)
    if item is None:
        infer(e.index, env)
        env.report(Diagnostic("E212", f"cannot index {T.render(obj)}: only lists, zones, "
                              "texts and tables with a key", e.span))
        return T.ANY
    expect_type(e.index, env, T.NUMBER, "an index")
    return item


# ---------------------------------------------------------------- calls


def _call(e: A.Call, env: Env, expect, role):
    g, name = env.g, e.name
    span = A.Span(e.span.file, e.span.line, e.span.col, e.span.line, e.span.col + len(name))
    func = g.funcs.get(name)
    if func is not None and env.lookup(name) is None:
        g.use(name)
        if isinstance(func.decl, A.ProcDecl):
            infer_args(e, env, func.params)
            env.report(Diagnostic("E209", f"'{name}' is a procedure: it is a statement, "
                                  "not a value", span, "call it on a line of its own, or "
                                  "make it a 'def' if it computes a value"))
            return T.ANY
        infer_args(e, env, func.params)
        return def_result(g, name)
    builtin = BUILTINS.get(name)
    if builtin is not None and (env.lookup(name) is None or e.implicit):
        arg_types = [infer(a, env, role="words" if i in builtin.list_args else None)
                     for i, a in enumerate(e.args)]
        if not _arity_ok(env, e, name, builtin.min_args, builtin.max_args, builtin.arity_text(),
                         f"write {builtin.usage}"):
            return T.ANY
        if not builtin.pure and env.pure:
            env.report(Diagnostic("E210", f"{name}() cannot be used {env.pure}", span,
                                  "random choices are made in statements of setup, turn, "
                                  f"phase or procedure blocks: 'let x = {name}(...)'"))
        result, diags = builtin.infer(arg_types, [a.span for a in e.args])
        env.diags.extend(diags)
        return result
    for a in e.args:
        infer(a, env)
    local = env.lookup(name)
    sym = g.symbols.get(name)
    if local is not None or sym is not None or name in BUILTIN_NAMES:
        what = local.what if local else (WHAT.get(sym.what) if sym else "a built-in name")
        env.report(Diagnostic("E103", f"'{name}' is {what}, not a function", span))
    else:
        env.report(unknown("E103", "function", name, g.function_names(), span))
    return T.ANY


def _arity_ok(env, e, name, lo, hi, text, hint=None) -> bool:
    n = len(e.args)
    if n < lo or (hi is not None and n > hi):
        env.report(Diagnostic("E204", f"{name}() takes {text}, not {n}", e.span, hint))
        return False
    return True


def infer_args(e: A.Call, env: Env, params) -> None:
    """Check a def's or procedure's arguments against its parameters (E204, E201)."""
    n = len(params)
    for i, arg in enumerate(e.args):
        if i < n:
            pname, ptype = params[i]
            expect_type(arg, env, ptype, f"argument '{pname}' of {e.name}()")
        else:
            infer(arg, env)
    usage = f"{e.name}(" + ", ".join(f"{p}: {T.render(t)}" for p, t in params) + ")"
    _arity_ok(env, e, e.name, n, n, f"{n} argument" + ("" if n == 1 else "s"), f"write {usage}")


# ---------------------------------------------------------------- operators


def _binop(e: A.BinOp, env: Env, expect, role):
    lt, rt = infer(e.left, env), infer(e.right, env)
    l0, r0 = T.unwrap(lt), T.unwrap(rt)
    if T.ANY in (l0, r0):
        return T.ANY  # an error was reported: say nothing more
    if e.op == "+":
        if T.is_number(l0) and T.is_number(r0):
            return T.NUMBER
        if l0 == r0 == T.TEXT:
            return T.TEXT
        if isinstance(l0, (T.List, T.Zone)) and isinstance(r0, (T.List, T.Zone)):
            item = T.join(T.item_type(l0), T.item_type(r0))
            if item is not None:
                return T.List(item)
        hint = "to join a number to a text write text(n)" if T.TEXT in (l0, r0) else None
        env.report(Diagnostic("E202", f"cannot add {T.render(rt)} to {T.render(lt)}",
                              e.span, hint))
        return T.ANY
    if T.is_number(l0) and T.is_number(r0):
        return T.NUMBER
    bad = e.left if not T.is_number(l0) else e.right
    env.report(Diagnostic("E202", f"'{e.op}' needs numbers, not {T.render(env.g.types[bad])}",
                          bad.span))
    return T.ANY


def _is_word(e, env: Env) -> bool:
    return isinstance(e, A.Name) and e.name in env.g.words and env.lookup(e.name) is None


def _compare(e: A.Compare, env: Env, expect, role):
    if e.op in ("in", "not in"):
        rt = infer(e.right, env, role="words")
        if isinstance(T.unwrap(rt), T.Words):
            expect_type(e.left, env, T.TEXT, f"a word looked up in {rt.name}")
            return T.BOOL
        item = T.item_type(rt)
        if item is None:
            infer(e.left, env)
            env.report(Diagnostic("E211", f"'{e.op}' needs a list, a zone or a text on its "
                                  f"right, not {T.render(rt)}", e.right.span))
            return T.BOOL
        lt = infer(e.left, env, expect=item)
        if not T.comparable(lt, item):
            env.report(Diagnostic("E205", f"cannot look for {T.render(lt)} in "
                                  f"{T.render(rt)}", e.span))
        return T.BOOL
    if _is_word(e.left, env) and not _is_word(e.right, env):
        rt = infer(e.right, env)
        lt = infer(e.left, env, expect=rt)
    else:
        lt = infer(e.left, env)
        rt = infer(e.right, env, expect=lt)
    if e.op in ("==", "!="):
        ok = T.comparable(lt, rt)
    else:
        l0, r0 = T.unwrap(lt), T.unwrap(rt)
        ok = (T.is_number(l0) and T.is_number(r0)) or ({l0, r0} <= {T.TEXT, T.ANY}) or (
            isinstance(l0, T.Enum) and l0 == r0)
    if not ok:
        kinds = {type(T.unwrap(lt)), type(T.unwrap(rt))}
        hint = "an enum's value is written without quotes" if T.Enum in kinds and \
            T.TEXT in (T.unwrap(lt), T.unwrap(rt)) else None
        env.report(Diagnostic("E205", f"cannot compare {T.render(lt)} with {T.render(rt)}"
                              + ("" if e.op in ("==", "!=") else f" using '{e.op}'"), e.span,
                              hint))
    return T.BOOL


def _and_or(e, env: Env, expect, role):
    word = "and" if isinstance(e, A.And) else "or"
    expect_bool(e.left, env, f"each side of '{word}'")
    expect_bool(e.right, env, f"each side of '{word}'")
    return T.BOOL


def _not(e: A.Not, env: Env, expect, role):
    expect_bool(e.operand, env, "what follows 'not'")
    return T.BOOL


def _negate(e: A.Negate, env: Env, expect, role):
    t = infer(e.operand, env)
    if T.unwrap(t) == T.ANY:
        return T.ANY
    if not T.is_number(t):
        env.report(Diagnostic("E202", f"'-' needs a number, not {T.render(t)}", e.span))
        return T.ANY
    return T.NUMBER


def _conditional(e: A.Conditional, env: Env, expect, role):
    expect_bool(e.cond, env, "the condition of 'if ... else'")
    a = infer(e.then, env, expect, role)
    b = infer(e.orelse, env, expect if expect is not None else a, role)
    joined = T.join(a, b)
    if joined is None:
        env.report(Diagnostic("E201", f"the two results of 'if ... else' differ: "
                              f"{T.render(a)} and {T.render(b)}", e.span))
        return T.ANY
    return joined


# ---------------------------------------------------------------- lists


def _list(e: A.ListExpr, env: Env, expect, role):
    item_expect = T.item_type(T.unwrap(expect)) if expect is not None else None
    items = [infer(i, env, item_expect) for i in e.items]
    if not items:
        return T.List(T.ANY)
    joined = T.join_all(items)
    if joined is None:
        env.report(Diagnostic("E201", "the items of this list are of different types: "
                              + ", ".join(sorted({T.render(t) for t in items})), e.span))
        return T.List(T.ANY)
    return T.List(joined)


def _tuple(e: A.TupleExpr, env: Env, expect, role):
    return T.Tuple(tuple(infer(i, env) for i in e.items))


def _comprehension(e: A.Comprehension, env: Env, expect, role):
    item = iterate(e.source, env, "what follows 'in'")
    inner = env.child()
    inner.bind(e.var, item, "comprehension variable", e.span, shadow=True)
    if e.cond is not None:
        expect_bool(e.cond, inner, "the condition after 'if'")
    return T.List(infer(e.element, inner))


def _sort(e: A.Sort, env: Env, expect, role):
    item = iterate(e.source, env, "what follows 'in'")
    inner = env.child()
    inner.bind(e.var, item, "sort variable", e.span, shadow=True)
    for key in e.keys:
        check_sort_key(key, inner)
    return T.List(item)


def check_sort_key(key: A.SortKey, env: Env) -> None:
    t = infer(key.expr, env)
    if not T.orderable(t) and T.unwrap(t) not in (T.ANY, T.BOOL):
        env.report(Diagnostic("E201", f"a sort key must be a number, a text or a bool, not "
                              f"{T.render(t)}", key.expr.span))


_DISPATCH = {
    A.Number: _literal(T.NUMBER), A.Text: _literal(T.TEXT), A.Bool: _literal(T.BOOL),
    A.NoneLit: _literal(T.NONE), A.Name: _name, A.Attribute: _attribute, A.Index: _index,
    A.Call: _call, A.BinOp: _binop, A.Compare: _compare, A.And: _and_or, A.Or: _and_or,
    A.Not: _not, A.Negate: _negate, A.Conditional: _conditional, A.ListExpr: _list,
    A.TupleExpr: _tuple, A.Comprehension: _comprehension, A.Sort: _sort,
}

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def kind_env(g: Globals, info: KindInfo, diags, scope: str, pure: str) -> Env:
    """An Env for a kind's expressions: `scope` says which members are visible bare."""
    visible = {"copies": ("column", "each", "attr"), "attr": ("column", "each", "attr", "owner"),
               "show": ("column", "each", "attr", "state", "owner")}[scope]
    members = frozenset(n for n, m in info.members.items() if m.what in visible)
    return Env(g, diags, pure=pure, kind=info, kind_members=members)


def member_type(g: Globals, info: KindInfo, name: str):
    m = info.members[name]
    if m.type is not None:
        return m.type
    if m.what == "each":
        return _each_type(g, info, m)
    if name in info.busy:
        info.diags.append(Diagnostic("E314", f"attribute '{name}' of {info.decl.name} is "
                                     "defined in terms of itself", m.node.span))
        m.type = T.ANY
        return T.ANY
    info.busy.add(name)
    env = kind_env(g, info, info.diags, "attr", "in a kind's attribute")
    t = infer(m.node.value, env)
    info.busy.discard(name)
    if m.type is None:
        m.type = T.Optional(T.ANY) if t == T.NONE else t
    return m.type


def _each_type(g: Globals, info: KindInfo, m) -> object:
    """The type of a kind's `for NAME in LIST` attribute: an item of the list, which sees the
    table's columns and the kind's earlier `for` names (the later ones are made inside it)."""
    earlier = []
    for each in info.decl.each:
        if each is m.node:
            break
        earlier.append(each.name)
    members = frozenset(n for n, x in info.members.items() if x.what == "column" or n in earlier)
    env = Env(g, info.diags, pure="in a kind's 'for'", kind=info, kind_members=members)
    m.type = T.ANY  # (while its list is read: a list made of its own items is an error there)
    m.type = iterate(m.node.source, env, f"the list of '{m.name}'")
    return m.type


def def_result(g: Globals, name: str):
    """A def's result type, inferring its body the first time (ANY while recursing)."""
    f = g.funcs[name]
    if f.state == "done":
        return f.result
    if f.state == "busy":
        return T.ANY
    f.state = "busy"
    env = Env(g, f.diags, pure="in a def (a def is a formula)")
    for p, (pname, ptype) in zip(f.decl.params, f.params):
        env.bind(pname, ptype, "parameter", p.span)
    f.result = infer(f.decl.body, env)
    f.state = "done"
    return f.result
