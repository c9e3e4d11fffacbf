"""Statements: `check_block(stmts, env, loops)` checks a block of rules in a local scope.

`env` is the body's scope (lets go to its function level); `loops` counts the loops
around the block (for `break`). Diagnostics go to `env.diags`.
"""

from __future__ import annotations

import re

from typing import Optional

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.exprs import (PLACEHOLDER,
                                   expect_bool,
                                   expect_type,
                                   expect_zone,
                                   infer,
                                   infer_args,
                                   iterate)
from gamedsl.checker.display import zone_visibility
from gamedsl.checker.scope import Env, WHAT, unknown
from gamedsl.diagnostics import Diagnostic
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS


def check_block(stmts, env: Env, loops: int = 0) -> None:
    ended: Optional[str] = None
    for stmt in stmts:
        if ended is not None:
            env.report(Diagnostic("W103", f"this line never runs: it follows '{ended}'",
                                  _first_line(stmt.span), "remove it, or move it before"))
            ended = "..."  # one warning per block
        fn = _DISPATCH.get(type(stmt))
        if fn is not None:
            fn(stmt, env, loops)
        if ended is None:
            ended = _ends(stmt)


def _first_line(span: A.Span) -> A.Span:
    end_col = span.end_col if span.end_line == span.line else span.col + 1
    return A.Span(span.file, span.line, span.col, span.line, end_col)


def _ends(stmt) -> Optional[str]:
    if isinstance(stmt, A.Return):
        return "return"
    if isinstance(stmt, A.Break):
        return "break"
    if isinstance(stmt, A.EndGame) and not stmt.after_round:
        return "end game"
    return None


# ---------------------------------------------------------------- simple statements


def _let(s: A.Let, env: Env, loops):
    t = infer(s.value, env)
    if t == T.NONE:
        t = T.Optional(T.ANY)  # `let best = none`: it gets a value later
    env.bind(s.name, t, "let", s.span, assignable=True, function_level=True)


def _assign(s: A.Assign, env: Env, loops):
    target_type = assign_target(s.target, env)
    if target_type is None:  # cannot be changed (reported): only look at the value
        infer(s.value, env)
        return
    if s.op == "=":
        expect_type(s.value, env, target_type, f"the new value of {describe(s.target)}")
        return
    vt = infer(s.value, env)
    if not T.is_number(target_type):
        env.report(Diagnostic("E202", f"'{s.op}' needs a number to change, not "
                              f"{T.render(target_type)}", s.target.span))
    elif not T.is_number(vt):
        env.report(Diagnostic("E202", f"'{s.op}' needs a number, not {T.render(vt)}",
                              s.value.span))


def describe(e) -> str:
    """A short quote of a simple expression for messages: 'total', 'current.coins'."""
    if isinstance(e, A.Name):
        return f"'{e.name}'"
    if isinstance(e, A.Attribute) and isinstance(e.obj, A.Name):
        return f"'{e.obj.name}.{e.name}'"
    return "this"


def assign_target(target, env: Env):
    """The type of an assignment's target, or None (and E207) if it cannot be changed."""
    g = env.g
    if isinstance(target, A.Name):
        name = target.name
        local = env.lookup(name)
        sym = g.symbols.get(name)
        if local is not None:
            t = infer(target, env)
            return t if local.assignable else _not_assignable(
                env, target, f"'{name}' is a {local.what}", "only names made with 'let' can "
                f"change; copy it first: 'let x = {name}'")
        if name in env.kind_members:
            infer(target, env)
            return _not_assignable(env, target, f"'{name}' is an attribute of the kind")
        if sym is not None and sym.what == "var":
            return infer(target, env)
        if name in BUILTIN_NAMES and sym is None:
            t = infer(target, env)
            return t if BUILTIN_NAMES[name].assignable else _not_assignable(
                env, target, f"'{name}' is kept by the game")
        g.types[target] = sym.type if sym is not None else T.ANY
        if sym is not None:
            sym.used = True
            return _not_assignable(env, target, f"'{name}' is {WHAT[sym.what]}")
        if name in g.words:
            return _not_assignable(env, target, f"'{name}' is a value of {g.words[name][0]}")
        return infer(target, env)  # unknown: E101
    if isinstance(target, A.Attribute):
        t = infer(target, env)
        obj = T.unwrap(g.types.get(target.obj, T.ANY))
        name = target.name
        if obj == T.PLAYER:
            sym = g.player_members.get(name)
            if sym is not None and sym.what == "player zone":
                return _not_assignable(env, target, f"'{name}' is a zone",
                                       "move components into it with 'move' or 'draw'")
        elif T.kinds_of(obj) is not None:
            for k in sorted(T.kinds_of(obj)):
                m = g.kinds[k].members.get(name) if k in g.kinds else None
                if m is not None and m.what != "state":
                    return _not_assignable(env, target, f"'{name}' is {_member_what(m)} of {k}",
                                           "only a state ('state NAME: TYPE = VALUE') changes")
        elif isinstance(obj, T.Row):
            return _not_assignable(env, target, f"'{name}' is a column of table {obj.table}",
                                   "tables do not change")
        return t
    if isinstance(target, A.Index):
        return _item_target(target, env)
    infer(target, env)
    return _not_assignable(env, target, "this expression")


def _item_target(target: A.Index, env: Env):
    """`x.levels[2] += 1`: an item of a list that can itself be changed."""
    base = assign_target(target.obj, env)
    if base is None:
        infer(target.index, env)
        return None
    item = T.item_type(T.unwrap(base))
    if item is None or not isinstance(T.unwrap(base), T.List):
        infer(target.index, env)
        return _not_assignable(env, target, f"{T.render(base)} has no items to change",
                               "only an item of a list changes: 'x.levels[0] = 2'")
    expect_type(target.index, env, T.NUMBER, "a position in the list")
    env.g.types[target] = item
    return item


def _member_what(m) -> str:
    return {"column": "a column", "attr": "a constant attribute",
            "owner": "the owner"}.get(m.what, "an attribute")


def _not_assignable(env: Env, target, why: str, hint: Optional[str] = None) -> None:
    env.report(Diagnostic("E207", f"cannot change this: {why}", target.span, hint))
    return None


def _call_stmt(s: A.CallStmt, env: Env, loops):
    call, g = s.call, env.g
    span = A.Span(call.span.file, call.span.line, call.span.col, call.span.line,
                  call.span.col + len(call.name))
    func = g.funcs.get(call.name)
    if func is not None and isinstance(func.decl, A.ProcDecl):
        g.use(call.name)
        infer_args(call, env, func.params)
        g.types[call] = T.NONE
        return
    infer(call, env)
    if func is not None:
        env.report(Diagnostic("E208", f"'{call.name}' is a def (a formula): its value "
                              "would be lost", span, "use it in an expression, e.g. "
                              f"'let x = {call.name}(...)', or make it a procedure"))
    elif call.name in BUILTINS and env.lookup(call.name) is None:
        env.report(Diagnostic("E208", f"{call.name}() is a built-in function: its value "
                              "would be lost", span, f"use it in an expression, e.g. "
                              f"'let x = {call.name}(...)'"))


def _move(s: A.Move, env: Env, loops):
    what = infer(s.what, env)
    zone = expect_zone(s.dest, env, "where 'move' puts things")
    kinds = _component_kinds(what, env, s.what.span, "'move' moves a component or a list of them")
    if isinstance(zone, T.Zone):
        check_holds(env, zone, kinds, s.what.span)
        if s.place == "cell" and not zone.grid:
            _position(s, env, zone)
            return
        if s.place != "cell" and zone.grid:
            env.report(Diagnostic("E213", f"zone {zone.name} is a grid: say on which cell",
                                  s.dest.span, f"write 'move ... to {zone.name} at (x, y)'"))
        if s.end is not None and zone.grid:
            env.report(Diagnostic("E213", f"zone {zone.name} is a grid: its places are cells, "
                                  f"not positions from the {s.end}", s.cell.span,
                                  f"write 'move ... to {zone.name} at (x, y)'"))
    if s.cell is not None:
        # a piece with faces covers several cells: 'at [c1, c2]', face i on cell i
        t = infer(s.cell, env, expect=T.CELL)
        if not (T.assignable(t, T.CELL) or T.assignable(t, T.List(T.CELL))):
            env.report(Diagnostic("E201", f"the cell must be a cell, or a list of cells for a "
                                  f"piece with faces, not {T.render(t)}", s.cell.span))


def _position(s: A.Move, env: Env, zone: T.Zone) -> None:
    """`move X to Z at N [from top|bottom]` on a zone that is a list: N is a position."""
    t = infer(s.cell, env, expect=T.NUMBER)
    if T.unwrap(t) == T.ANY:
        return
    if not T.is_number(t):
        hint = "declare it with 'grid W by H'" if T.assignable(t, T.CELL) else \
            f"write 'move ... to {zone.name} at 3 from bottom'"
        env.report(Diagnostic("E213", f"zone {zone.name} is not a grid: 'at' takes a position in "
                              f"it (a number), not {T.render(t)}", s.cell.span, hint))
        return
    decl = env.g.zones.get(zone.name)
    sorted_by = next((f.arg for f in decl.flags if f.word == "sorted"), None) if decl else None
    if sorted_by is not None:
        env.report(Diagnostic("E213", f"zone {zone.name} is kept sorted by {sorted_by}: a "
                              "position in it would not stay", s.cell.span,
                              f"move it to {zone.name} without 'at'"))


def check_holds(env: Env, zone: T.Zone, kinds, span) -> None:
    """E206 if components of `kinds` cannot go into `zone`."""
    if kinds is None:
        return
    extra = [k for k in sorted(kinds) if k not in zone.kinds]
    if extra and zone.kinds:
        env.report(Diagnostic("E206", f"zone {zone.name} holds {' and '.join(sorted(zone.kinds))},"
                              f" not {' or '.join(extra)}", span,
                              f"add {extra[0]} to the zone's kinds: 'zone {zone.name} of ...'"))


def _draw(s: A.Draw, env: Env, loops):
    expect_type(s.count, env, T.NUMBER, "how many to draw")
    src = expect_zone(s.source, env, "where 'draw' takes from")
    dst = expect_zone(s.dest, env, "where 'draw' puts things")
    if isinstance(src, T.Zone) and isinstance(dst, T.Zone):
        check_holds(env, dst, src.kinds, s.source.span)
    for z, node in ((src, s.source), (dst, s.dest)):
        if isinstance(z, T.Zone) and z.grid:
            env.report(Diagnostic("E213", f"zone {z.name} is a grid: draw from or to a grid is "
                                  "not possible", node.span, "use 'move ... at (x, y)'"))


def _shuffle(s: A.Shuffle, env: Env, loops):
    expect_zone(s.zone, env, "what 'shuffle' shuffles")


def _next_turn(s: A.NextTurn, env: Env, loops):
    expect_type(s.player, env, T.PLAYER, "who plays next")


def _end_game(s: A.EndGame, env: Env, loops):
    cooperative = bool(env.g.of(A.CooperativeDecl))
    if s.winner is not None:
        expect_type(s.winner, env, T.PLAYER, "the winner")
        if cooperative:
            env.diags.append(Diagnostic("E410", "in a cooperative game the players win or lose together: "
                                        "no one player is the winner", s.span,
                                        "write 'end game won' or 'end game lost'"))
    if s.outcome is not None and not cooperative:
        env.diags.append(Diagnostic("E410", f"'end game {s.outcome}' ends a cooperative game, and this "
                                    "game is not one", s.span,
                                    "add the line 'cooperative', or write 'end game winner P'"))


def _leave_round(s: A.LeaveRound, env: Env, loops):
    if s.player is not None:
        expect_type(s.player, env, T.PLAYER, "who leaves the round")


def _say(s: A.Say, env: Env, loops):
    infer(s.message, env)
    if s.to is not None:
        expect_type(s.to, env, T.PLAYER, "whom 'say ... to' tells")


def _component_kinds(what, env: Env, span, says: str):
    """The kinds of a component, or of a list's or zone's items (None if unknown); E201,
    after `says`, for a value that holds no components."""
    kinds = T.kinds_of(what)
    if kinds is None:
        item = T.item_type(what)
        kinds = T.kinds_of(item) if item is not None else None
        if T.unwrap(what) != T.ANY and (item is None or (kinds is None and item != T.ANY)):
            env.report(Diagnostic("E201", f"{says}, not {T.render(what)}", span))
    return kinds


def _show(s: A.Show, env: Env, loops):
    what = infer(s.what, env)
    kinds = _component_kinds(what, env, s.what.span, "'show' shows a component, a list of them or a zone")
    expect_type(s.to, env, T.PLAYER, "whom 'show ... to' lets look")


def _break(s: A.Break, env: Env, loops):
    if loops == 0:
        env.report(Diagnostic("E404", "'break' is outside a loop", s.span,
                              "break leaves a 'for', 'while' or 'repeat'; to leave a turn or "
                              "procedure write 'return'"))


def _nothing(s, env: Env, loops):
    pass


# ---------------------------------------------------------------- compound statements


def _if(s: A.If, env: Env, loops):
    for branch in s.branches:
        expect_bool(branch.cond, env, "the condition of 'if'")
        check_block(branch.body, env.child(), loops)
    check_block(s.orelse, env.child(), loops)


def _for(s: A.For, env: Env, loops):
    item = iterate(s.iterable, env, "what 'for' goes through")
    inner = env.child()
    inner.bind(s.var, item, "loop variable", s.span)
    check_block(s.body, inner, loops + 1)


def _while(s: A.While, env: Env, loops):
    expect_bool(s.cond, env, "the condition of 'while'")
    check_block(s.body, env.child(), loops + 1)


def _repeat(s: A.Repeat, env: Env, loops):
    if s.count is not None:
        expect_type(s.count, env, T.NUMBER, "the number of repeats")
    check_block(s.body, env.child(), loops + 1)


def _choose(s: A.Choose, env: Env, loops):
    expect_type(s.player, env, T.PLAYER, "who chooses")
    if s.timer is not None:
        expect_type(s.timer, env.child(pure="in a choice's timer"), T.NUMBER, "the seconds of a timer")
        if not s.timeouts:
            env.report(Diagnostic("E318", "this choice has a timer but does not say what happens "
                                  "when time runs out", _first_line(s.span),
                                  "add 'on timeout:' among its moves"))
    _check_timeouts(s, env, loops)
    check_alternatives(s.alternatives, env, loops, s.player)


def _check_timeouts(s, env: Env, loops) -> None:
    """`on timeout:` blocks: one, in a choice with a timer (`within N seconds`)."""
    for i, t in enumerate(s.timeouts):
        if s.timer is None and i == 0 and isinstance(s, A.Choose):
            env.report(Diagnostic("E318", "'on timeout' needs a timer on its choice",
                                  _first_line(t.span), "write 'choose by P within N seconds:'"))
        elif i > 0:
            env.report(Diagnostic("E318", "a choice has one 'on timeout'", _first_line(t.span)))
        body = env.child()
        body.function = body  # like an alternative's (check_alternatives): its lets are its own
        check_block(t.body, body, loops)


def _secret_choose(s: A.SecretChoose, env: Env, loops):
    t = infer(s.players, env)
    if not T.assignable(t, T.List(T.PLAYER)):
        env.report(Diagnostic("E201", f"who chooses must be a list of players, not "
                              f"{T.render(t)}", s.players.span))
    inner = env.child()
    inner.bind(s.var, T.PLAYER, "chooser", s.span)
    if s.timer is not None or s.timeouts:
        where = s.timer.span if s.timer is not None else _first_line(s.timeouts[0].span)
        env.report(Diagnostic("E318", "a secret choice has no timer", where,
                              "time a 'choose by' instead, or drop 'within' and 'on timeout'"))
    _check_timeouts(s, inner, loops)
    check_alternatives(s.alternatives, inner, loops, A.Name(s.span, s.var))


def check_alternatives(alts, env: Env, loops, chooser=None) -> None:
    names = {}
    for alt in alts:
        if alt.name in names and alt.params == () and names[alt.name] == ():
            env.report(Diagnostic("E301", f"two moves named '{alt.name}' in this choice",
                                  _first_line(alt.span)))
        names.setdefault(alt.name, alt.params)
        inner = env.child(pure="in a choice's parameters")
        typed = _typed_params(alt, env)
        for p in alt.params:
            if p.domain is None:
                item = typed.get(p.name, T.ANY)
            else:
                item = iterate(p.domain, inner, f"the choices for '{p.name}'")
                if p.nobody and item != T.ANY:   # `or nobody`: none when the list is empty
                    item = T.join(item, T.NONE) or item
            env.g.types[p] = item
            inner.bind(p.name, item, "choice parameter", p.span)
        if alt.guard is not None:
            guard_env = inner.child(pure="in a choice's condition")
            expect_bool(alt.guard, guard_env, "a choice's condition")
            if alt.refusal is not None:
                expect_type(alt.refusal, guard_env, T.TEXT, "what a refused move is told ('else')")
        if alt.suggest is not None and typed and len(typed) == len(alt.params):  # else E315 above
            types = [typed[p.name] for p in alt.params]
            want = T.List(types[0] if len(types) == 1 else T.Tuple(tuple(types)))
            outer = env.child(pure="in a choice's suggestions")
            expect_type(alt.suggest, outer, want, "the suggestions")
        if alt.template is not None:
            _check_template(alt, env)
        if chooser is not None:
            _check_leaks(alt, env, chooser)
        body_env = inner.child(pure=env.pure)
        # Only one alternative runs: its lets are its own (not the enclosing function's,
        # where a sibling's 'let' of the same name would clash), and end with it.
        body_env.function = body_env
        check_block(alt.body, body_env, loops)


# Any {...} in a move's text: only a bare parameter name is written there (the engine also
# reads a typed move back through the text, which an expression would not allow).
_BRACES = re.compile(r"\{([^{}]*)\}")


def _check_template(alt, env: Env) -> None:
    params = [p.name for p in alt.params]
    shown = ", ".join("{" + p + "}" for p in params)
    listed = (f"this move's parameters are written {shown}" if params
              else "this move has no parameters: its text is written as it stands")
    for m in _BRACES.finditer(alt.template):
        inner = m.group(1)
        span = env.g.locate(_first_line(alt.span), "(" + re.escape(m.group(0)) + ")")
        if not PLACEHOLDER.fullmatch(m.group(0)):
            env.report(Diagnostic("E110", f"a move's text writes only its parameters, not "
                                  f"'{{{inner}}}'", span,
                                  listed + "; to write another value, let a parameter range "
                                  "over it ('x in [n + 1 for n in L]'); a component is written "
                                  "as its kind's 'show' says"))
        elif inner not in params:
            env.report(unknown("E109", "parameter", inner, params, span, listed,
                               of=" in the move's text"))


def _check_leaks(alt, env: Env, chooser) -> None:
    """E330: a move's text (its template, or without one its name and every parameter) writes
    out a component drawn from a zone its chooser cannot see: the move list and the log would
    name the hidden cards."""
    written = ([m.group(1) for m in _BRACES.finditer(alt.template)] if alt.template is not None
               else [p.name for p in alt.params])
    for p in alt.params:
        if p.name not in written or p.domain is None:
            continue
        hidden = _unseen_zone(p.domain, env, chooser)
        if hidden is None:
            continue
        zone, vis = hidden
        who = "nobody sees it" if vis == "hidden" else "its player holds it facing away"
        env.report(Diagnostic(
            "E330", f"the move's text writes out '{p.name}', a component of {zone}, which its "
            f"chooser cannot see ({who}): the moves listed and the log would name it",
            p.span,
            f"let the chooser pick it by its place: '{alt.name}(i in range(1, len({zone}))) "
            f"\"... card {{i}}\"' and {zone}[i - 1] in the rules"))


def _unseen_zone(domain, env: Env, chooser):
    """(the zone as written, its visibility) when `domain` is a zone the chooser provably
    cannot look into: a hidden one, or its own hand held facing away (`others`); else None."""
    if isinstance(domain, A.Name) and env.lookup(domain.name) is None:
        decl = env.g.zones.get(domain.name)
        owner = None
    elif isinstance(domain, A.Attribute) and isinstance(domain.obj, A.Name):
        decl = env.g.zones.get(domain.name)
        owner = domain.obj.name
    else:
        return None
    if decl is None or decl.per_player != (owner is not None):
        return None
    vis = zone_visibility(decl)
    zone = domain.name if owner is None else f"{owner}.{domain.name}"
    if vis == "hidden":
        return zone, vis
    if vis == "others" and isinstance(chooser, A.Name) and chooser.name == owner:
        return zone, vis
    return None


# What a person can type: a text, a number, a cell "4,2", a word of an enum, texts "a, b"
TYPEABLE = (T.TEXT, T.NUMBER, T.CELL, T.List(T.TEXT))


def _typed_params(alt, env: Env) -> dict:
    """The types of an alternative's typed parameters (`w: text`); E315 for what cannot be typed."""
    typed = {}
    head = _first_line(alt.span)
    for p in alt.params:
        if p.domain is not None:
            continue
        t, _ = T.parse_type(p.type, env.g.type_scope, env.g.use)
        if t in TYPEABLE or isinstance(t, T.Enum) or t == T.ANY:
            typed[p.name] = t
            continue
        typed[p.name] = T.ANY
        env.report(Diagnostic("E315", f"a typed parameter is a text, a number, a cell, an "
                              f"enum or a list of text, not '{_type_text(p.type)}'", p.span,
                              f"to choose among values write '{p.name} in LIST'"))
    if typed and len(typed) != len(alt.params):
        env.report(Diagnostic("E315", "a move's parameters are all listed ('x in L') or all "
                              "typed ('x: text'), not some of each", head))
    if not typed and alt.suggest is not None:
        env.report(Diagnostic("E315", "'suggest' lists values for typed parameters ('w: text'); "
                              "this move has none", alt.suggest.span))
    if not typed and alt.help is not None:
        env.report(Diagnostic("E315", "'help' tells a person how to type a move with typed "
                              "parameters ('w: text'); this move has none", head))
    return typed


def _type_text(t) -> str:
    if isinstance(t, A.TypeName):
        return t.name
    if isinstance(t, A.TypeOptional):
        return _type_text(t.inner) + "?"
    if isinstance(t, A.TypeList):
        return "list of " + _type_text(t.item)
    return "?"


_DISPATCH = {
    A.Let: _let, A.Assign: _assign, A.CallStmt: _call_stmt, A.Move: _move, A.Draw: _draw,
    A.Shuffle: _shuffle, A.NextTurn: _next_turn, A.EndGame: _end_game, A.Say: _say, A.Show: _show,
    A.LeaveRound: _leave_round, A.EndRound: _nothing,
    A.Break: _break, A.Return: _nothing, A.Pass: _nothing, A.If: _if, A.For: _for,
    A.While: _while, A.Repeat: _repeat, A.Choose: _choose, A.SecretChoose: _secret_choose,
}
