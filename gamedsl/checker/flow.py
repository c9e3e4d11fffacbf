"""Rule blocks and the game's flow: procedures, setup, turn or phases, scoring, and the
warnings about what is never used or never reached. Each ``check_*(g)`` returns its
diagnostics."""

from __future__ import annotations

from typing import List

from gamedsl.syntax import ast as A
from gamedsl.checker import types as T
from gamedsl.checker.decls import name_span
from gamedsl.checker.exprs import check_sort_key, expect_bool, expect_type, infer
from gamedsl.checker.scope import Env, Globals, head_span, unknown
from gamedsl.checker.stmts import check_block
from gamedsl.diagnostics import Diagnostic
from gamedsl.checker.signatures import BUILTIN_NAMES, BUILTINS

UNUSED_WHAT = {"def": "def", "procedure": "procedure", "table": "table", "enum": "enum",
               "var": "variable", "player var": "player variable", "words": "word list"}


def check_procedures(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for name, f in g.funcs.items():
        if isinstance(f.decl, A.ProcDecl):
            for p in f.decl.params:
                diags += T.parse_type(p.type, g.type_scope, g.use)[1]
            env = Env(g, diags)
            for p, (pname, ptype) in zip(f.decl.params, f.params):
                env.bind(pname, ptype, "parameter", p.span)
            check_block(f.decl.body, env)
    return diags


def check_setup(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for d in g.of(A.SetupDecl):
        check_block(d.body, Env(g, diags))
    return diags


def check_flow(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    turns, phases = g.of(A.TurnDecl), g.of(A.PhaseDecl)
    for d in turns:
        check_block(d.body, Env(g, diags))
        if phases:
            diags.append(Diagnostic("E401", "a top-level 'turn:' cannot be used together with "
                                    "phases", head_span(d.span, 4), "move this turn into a "
                                    "phase ('phase NAME:' then an indented 'turn:')"))
    if not turns and not phases:
        diags.append(Diagnostic("E402", "the game has no turn: add 'turn:' or a 'phase'",
                                A.Span(g.file, 1, 1, 1, 2)))
    for d in phases:
        check_block(d.begin, Env(g, diags))
        check_block(d.turn, Env(g, diags))
        if d.end_when is not None:
            expect_bool(d.end_when, Env(g, diags, pure="in 'end when'"),
                        "the condition of 'end when'")
        if d.then is not None and d.then.name not in g.phases:
            diags.append(unknown("E403", "phase", d.then.name, g.phases, d.then.span,
                                 "'then' names the phase that follows"))
        elif d.then is not None and d.turn and d.end_when is None:
            diags.append(Diagnostic("W104", f"phase {d.name} has turns but no 'end when': it "
                                    f"never ends, so 'then {d.then.name}' is never followed",
                                    d.then.span, "add 'end when CONDITION' to the phase"))
    if phases:
        reachable, todo = set(), [phases[0].name]
        while todo:
            name = todo.pop()
            if name in reachable or name not in g.phases:
                continue
            reachable.add(name)
            then = g.phases[name].then
            if then is not None:
                todo.append(then.name)
        for name, d in g.phases.items():
            if name not in reachable:
                diags.append(Diagnostic("W102", f"phase {name} is never reached: the game "
                                        f"starts with phase {phases[0].name} and goes on "
                                        "through 'then'", name_span(g, d),
                                        f"add 'then {name}' to the phase before it"))
    return diags


def check_scoring(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    cooperative = g.of(A.CooperativeDecl)
    for d in g.of(A.ScoreDecl):
        if d.var is None:
            env = Env(g, diags, pure="in 'score'")
            if not cooperative:
                diags.append(Diagnostic("E325", "a 'score:' without 'of p' is the shared score of a "
                                        "cooperative game, and this game is not one",
                                        head_span(d.span, 5),
                                        "add the line 'cooperative', or write 'score of p: ...'"))
        else:
            env = _player_env(g, diags, d, "in 'score'")
        expect_type(d.expr, env, T.NUMBER, "a score")
    for d in g.of(A.TeamDecl):
        if cooperative:
            diags.append(Diagnostic("E325", "a cooperative game is one team of every player: it has "
                                    "no 'team of'", head_span(d.span, 4),
                                    "remove 'team of', or 'cooperative' for teams that play against each other"))
        got = infer(d.expr, _player_env(g, diags, d, "in 'team'"))
        if got is not None and not (T.unwrap(got) in (T.NUMBER, T.TEXT, T.BOOL, T.PLAYER, T.ANY)
                                    or isinstance(T.unwrap(got), (T.Enum, T.OptionMix))):
            diags.append(Diagnostic("E201", "a team must be a number, a text, a word or a player, "
                                    f"not {T.render(got)}", d.expr.span))
    for d in g.of(A.HeuristicDecl):
        env = _player_env(g, diags, d, "in 'heuristic'")
        expect_type(d.expr, env, T.NUMBER, "a heuristic")
    for d in g.of(A.TiebreakDecl):
        env = _player_env(g, diags, d, "in 'tiebreak'")
        for key in d.keys:
            check_sort_key(key, env)
    for d in g.of(A.ResultDecl):
        infer(d.expr, _player_env(g, diags, d, "in 'result'"))
    for d in g.of(A.PublicDecl):
        infer(d.expr, _player_env(g, diags, d, "in 'public'"))
    return diags


def _player_env(g: Globals, diags, d, pure: str) -> Env:
    env = Env(g, diags, pure=pure)
    span = g.locate(d.span, r"\bof\s+(" + d.var + r")\b")
    env.bind(d.var, T.PLAYER, "player", span)
    return env


def check_unused(g: Globals) -> List[Diagnostic]:
    diags: List[Diagnostic] = []
    for name, sym in g.symbols.items():
        what = UNUSED_WHAT.get(sym.what)
        # A draft's declaration that a variant no longer uses (the variant replaced its
        # caller) is not the variant's mistake: only the checked file's own are reported.
        inherited = getattr(getattr(sym.decl, "span", None), "file", g.file) != g.file
        if what and not sym.used and not inherited and name not in BUILTINS and name not in BUILTIN_NAMES:
            diags.append(Diagnostic("W101", f"{what} '{name}' is never used",
                                    name_span(g, sym.decl), "use it or remove it"))
    return diags
