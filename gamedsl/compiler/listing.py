"""Listing a choice's moves as generated code: one function per choice, giving a table of its
moves (gamedsl/runtime/moves.py) instead of a move dict per legal move.

The interpreter lists a choice by walking its alternatives' records (Machine.moves_for): the
same work for every choice, then a dict for every move. Here each choice without typed
parameters becomes a function that evaluates, in the rules' order, each alternative's
parameters' lists and keeps them: an alternative whose moves are every combination of its
lists (no condition, no list naming another parameter: most choices) is kept as its lists,
counted but not listed; the others are listed by the interpreter's own methods
(`product`, `enumerate`), which the function calls with the moves counted before them, so
every check (a choice of too many moves, too much work, a list that is not one) is made
where the interpreter makes it, with its message. The moves come out the same, in the same
order; a random move is one dict, whatever the choice's size.

The parameters' lists are written into the function where the expression compiler can write
them (gamedsl/compiler/pysource.py's `inline`, as the blocks' expressions are); should that
code meet anything but the common case, the list's closures answer or raise the diagnostic,
from the work counted before. Beside the listing, each alternative whose moves are a product
of lists gets a check of one move (`L.checks`, by alternative): its arguments found in those
lists in order and its condition run for that one combination, the verdict and the errors of
the interpreter's `Machine.is_listed`, without listing the others. And `L.any`: whether the
choice has a move at all, found as `Machine.moves_for` with `first_only` finds it (the
alternatives cheapest first, stopping at the first move), for a choice reached without
being listed; generated and compiled apart (`generate_first`) the first time it is asked.

As with the blocks (gamedsl/compiler/backend.py), the source holds no names or texts of the
rules, only numbers and the generator's identifiers: an alternative's name, its lists and its
line are taken from the Program's records when the function is made, the first time the
choice is listed.
"""

from __future__ import annotations

from typing import List, Optional

from gamedsl.syntax import ast as A
from gamedsl.compiler.codecache import CodeCache
from gamedsl.runtime import builtins as B
from gamedsl.runtime import program as P
from gamedsl.runtime.machine import cheapest_first


def listed_here(stmt) -> bool:
    """Whether a choice's moves are listed by generated code: a choice none of whose
    alternatives has typed parameters (those offer a search's suggestions, listed apart)."""
    return isinstance(stmt, P.CHOICES) and all(alt.typed is None for alt in stmt.alts)


_NOT_A_LIST = ("raise RuleError('E504', f\"the choices for '{{A{j}.params[{k}].name}}' must be a list, "
               "not {{plain({x})}}\", A{j}.span)")
_TOO_MANY = ("raise RuleError('E504', f\"a choice of more than {{MAX_MOVES:,}} moves\", A{j}.span, "
             "\"narrow its parameters' lists, or ask in two steps\")")


def _domain(alt, j: int, k: int, target: str, consts: List[str]) -> List[str]:
    """`target = D{j}_{k}(ctx)` (the list of parameter k of alternative j), with the
    expression's own code written here where it can be; the names that code reads are bound
    in `make` (added to `consts`)."""
    spec = getattr(alt.params[k].domain, "generated_from", None)
    written = spec[0].inline(spec[1], spec[2]) if spec is not None else None
    if written is None:
        return [f"{target} = D{j}_{k}(ctx)"]
    lines, code, names = written
    consts.append(f"G = D{j}_{k}.generated_from[0].ns")
    consts += [f"{n} = G[{n!r}]" for n in names]
    return (["_wk = ctx.work", "try:"] + ["    " + line for line in lines]
            + [f"    {target} = {code}",
               "except Exception:  # noqa: BLE001 - the closures judge (see pysource.py)",
               f"    {target} = _gave_up(ctx, _wk, D{j}_{k})"])


def _check(alt, j: int, consts: List[str]) -> List[str]:
    """The source of `C{j}(ctx, args)`: whether move arguments `args` (as many as the
    parameters) are a move of product alternative j, as Machine._allows finds it: each
    argument looked for in its list, the lists computed in order and the first argument not
    found ending the search, then the condition with the values found bound."""
    lines = [f"def C{j}(ctx, args):"]
    for k in range(len(alt.params)):
        x = f"x{k}"
        lines += ["    " + line for line in _domain(alt, j, k, x, consts)]
        lines += [f"    if not isinstance({x}, list):",
                  "        " + _NOT_A_LIST.format(j=j, k=k, x=x),
                  f"    v{k} = listed_value({x}, args[{k}])",
                  f"    if v{k} is MISSING:",
                  "        return False"]
    if alt.guard is None:
        return lines + ["    return True"]
    names = [f"P{j}_{k}" for k in range(len(alt.params))]
    lines += ["    env = ctx.env", "    try:"]
    lines += [f"        env[{n}] = v{k}" for k, n in enumerate(names)]
    lines += [f"        return bool(A{j}.guard(ctx))", "    finally:"]
    lines += [f"        env.pop({n}, None)" for n in names] or ["        pass"]
    return lines


def _conjuncts(e) -> list:
    """`a and b and c` as [a, b, c] (the closures' `and`: each side's truth, left first)."""
    if isinstance(e, A.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _reads_no_parameter(e, params: set) -> bool:
    """Whether `e` reads none of `params` and calls no def nor anything random: its value,
    and the work it charges, are the same for every combination of the parameters' values."""
    if A.names_in(e) & params:
        return False
    for node in A.walk(e):
        if isinstance(node, A.Call):
            f = B.FUNCTIONS.get(node.name)
            if f is None or f.impure:
                return False
    return True


def _pretested(alt, j: int, passing: List[str], consts: List[str]) -> List[str]:
    """`passing` (the moves of alternative j's lists `c` combinations, by the interpreter's
    loop), unless its condition starts with conditions reading none of the parameters and
    those are false: then no combination passes, and the listing is charged what the loop
    charges for them, `c` times the work of one (beyond the most work, or should the code
    written meet anything but the common case, the loop runs and says so). Not while an
    observer is told of the table rows the rules look up: the loop looks them up each time."""
    spec = getattr(alt.guard, "generated_from", None)
    if spec is None or not alt.params:
        return passing
    params = {p.name for p in alt.params}
    first = []
    for e in _conjuncts(spec[1]):
        if not _reads_no_parameter(e, params):
            break
        written = spec[0].inline(e, spec[2])
        if written is None:
            break
        first.append(written)
    if not first:
        return passing
    lines = ["ok = None", "if ctx.observer is None:", "    _w = ctx.work", "    try:"]
    indent = "        "
    for n, (pre, code, names) in enumerate(first):
        consts.append(f"G = A{j}.guard.generated_from[0].ns")
        consts += [f"{name} = G[{name!r}]" for name in names]
        lines += [indent + line for line in pre] + [indent + f"ok = bool({code})"]
        if n < len(first) - 1:
            lines.append(indent + "if ok:")
            indent += "    "
    lines += ["    except Exception:  # noqa: BLE001 - the loop judges",
              "        ok = None",
              "    if ok is False and _w + c * (1 + ctx.work - _w) <= MAX_WORK:",
              "        ctx.work = _w + c * (1 + ctx.work - _w)",
              "    else:",
              "        ok = None",
              "        ctx.work = _w",
              "if ok is not False:"]
    return lines + ["    " + line for line in passing]


_HEADER = ["def make(s, H):",
           "    (RuleError, plain, MAX_MOVES, Table, product, enumerate_, listed_value, MISSING, passing,",
           "     MAX_WORK) = H"]


def _names(stmt) -> List[str]:
    """The lines of `make` binding each alternative (A), its name (N), its parameters'
    lists (D) and names (P)."""
    lines = []
    for j, alt in enumerate(stmt.alts):
        lines.append(f"    A{j} = s.alts[{j}]")
        lines.append(f"    N{j} = A{j}.name")
        for k in range(len(alt.params)):
            lines.append(f"    D{j}_{k} = A{j}.params[{k}].domain")
            lines.append(f"    P{j}_{k} = A{j}.params[{k}].name")
    return lines


def generate_first(stmt) -> str:
    """The source of `make(s, H)` (H as for `generate_choice`), returning `F(ctx, seat)`:
    whether choice `s` has a move (see `_first_move`). Apart from the listing: only a
    choice reached without being listed needs it."""
    consts: List[str] = []
    first = _first_move(stmt, consts)
    lines = _HEADER + _names(stmt) + ["    " + line for line in dict.fromkeys(consts)]
    return "\n".join(lines + ["    " + line for line in first] + ["    return F"]) + "\n"


def _first_move(stmt, consts: List[str]) -> List[str]:
    """The source of `F(ctx, seat)`: whether the choice has a move, as Machine.moves_for
    with `first_only` finds it (the alternatives cheapest first, each one's lists in order
    until one is empty, its first passing combination by the interpreter's loop), with the
    lists written as the listing writes them."""
    lines = ["def F(ctx, seat):"]
    index = {id(alt): j for j, alt in enumerate(stmt.alts)}
    for alt in cheapest_first(stmt.alts):
        j = index[id(alt)]
        if not alt.fixed:
            lines += ["    out = []", f"    enumerate_(ctx, A{j}, 0, [], seat, out, True, 0)",
                      "    if out:", "        return True"]
            continue
        more, names, indent = _lists(alt, j, consts, "    ")
        lines += more
        if alt.guard is None:
            lines.append(indent + "return True")
            if not names:
                return lines  # (a move at once: the alternatives after it are never tried)
            continue
        count = " * ".join(f"len({x})" for x in names) or "1"
        passing = ["out = []", f"passing(ctx, A{j}, [{', '.join(names)}], c, seat, out, True, 0)",
                   "if out:", "    return True"]
        lines += [indent + f"c = {count}"] + [indent + line for line in _pretested(alt, j, passing, consts)]
    return lines + ["    return False"]


def _lists(alt, j: int, consts: List[str], indent: str):
    """The lines working out alternative j's parameters' lists in turn, each under the test
    that the one before is not empty (as the listing stops at an empty one); the lists'
    names, and the indent inside the last test."""
    lines, names = [], []
    for k in range(len(alt.params)):
        x = f"x{k}"
        names.append(x)
        lines += [indent + line for line in _domain(alt, j, k, x, consts)]
        lines += [indent + f"if not isinstance({x}, list):",
                  indent + "    " + _NOT_A_LIST.format(j=j, k=k, x=x),
                  indent + f"if {x}:"]
        indent += "    "
    return lines, names, indent


def generate_choice(stmt) -> str:
    """The source of `make(s, H)`, returning the listing function `L(ctx, seat)` of choice
    `s` (H: the machine's helpers: RuleError, plain, MAX_MOVES, Table, product, enumerate,
    listed_value, MISSING, passing, MAX_WORK), with `L.checks`: per alternative, its check of one move's
    arguments `C(ctx, args)`, or None where the interpreter's is used."""
    lines = list(_HEADER)
    consts: List[str] = []
    body: List[str] = ["blocks = []", "total = 0"]
    checks: List[str] = []
    lines += _names(stmt)
    for j, alt in enumerate(stmt.alts):
        if alt.fixed:
            checks += _check(alt, j, consts)
        if not alt.fixed:
            # (a list depending on another parameter: listed move by move)
            body += ["out = []", f"enumerate_(ctx, A{j}, 0, [], seat, out, False, total)", "if out:",
                     f"    blocks.append((N{j}, None, out))", "    total += len(out)"]
            continue
        more, names, indent = _lists(alt, j, consts, "")
        body += more
        count = " * ".join(f"len({x})" for x in names) or "1"
        body.append(indent + f"c = {count}")
        if alt.guard is not None:
            # (a condition: the interpreter's moves of the lists, after the condition's part
            # that reads none of the parameters, where there is one, found false once)
            passing = [f"out = []", f"passing(ctx, A{j}, [{', '.join(names)}], c, seat, out, False, total)",
                       "if out:", f"    blocks.append((N{j}, None, out))", "    total += len(out)"]
            body += [indent + line for line in _pretested(alt, j, passing, consts)]
            continue
        body += [indent + "if total + c > MAX_MOVES:",
                 indent + "    " + _TOO_MANY.format(j=j),
                 indent + f"blocks.append((N{j}, [{', '.join(names)}], None))",
                 indent + "total += c"]
    body.append("return Table(seat, blocks, total)")
    lines += ["    " + line for line in dict.fromkeys(consts)]
    lines.append("    def L(ctx, seat):")
    lines += ["        " + line for line in body]
    lines += ["    " + line for line in checks]
    made = ", ".join(f"C{j}" if alt.fixed else "None" for j, alt in enumerate(stmt.alts))
    lines += [f"    L.checks = ({made}{',' if len(stmt.alts) == 1 else ''})", "    return L"]
    return "\n".join(lines) + "\n"


def factory(program, codes: Optional[CodeCache] = None):
    """`make(helpers)`: for each statement of `program`, its choice's listing function (None
    where the interpreter lists the moves, and for every other statement), each compiled from
    its generated source the first time the choice is listed (by `codes`, which may have it
    from an earlier run)."""
    stmts = program.stmts
    codes = codes or CodeCache()

    def make(helpers):
        fns: list = [None] * len(stmts)

        def made(generate, sid, label):
            namespace: dict = {}
            code = codes.compile(generate(stmts[sid]), f"<gamedsl {label} {sid}>")
            exec(code, namespace)  # noqa: S102 - our own source: numbers and our names only
            return namespace["make"](stmts[sid], helpers)

        def lazy(sid):
            def first_run(ctx, seat):
                fn = fns[sid] = made(generate_choice, sid, "listing")
                fn.any = first_run.any
                return fn(ctx, seat)

            def first_any(ctx, seat):
                fn = first_run.any = fns[sid].any = made(generate_first, sid, "first move")
                return fn(ctx, seat)
            first_run.any = first_any
            return first_run

        for sid, stmt in enumerate(stmts):
            if listed_here(stmt):
                fns[sid] = lazy(sid)
        return fns

    return make
