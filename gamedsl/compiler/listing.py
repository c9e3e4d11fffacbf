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

As with the blocks (gamedsl/compiler/backend.py), the source holds no names or texts of the
rules, only numbers and the generator's identifiers: an alternative's name, its lists and its
line are taken from the Program's records when the function is made, the first time the
choice is listed.
"""

from __future__ import annotations

from typing import List

from gamedsl.runtime import program as P


def listed_here(stmt) -> bool:
    """Whether a choice's moves are listed by generated code: a choice none of whose
    alternatives has typed parameters (those offer a search's suggestions, listed apart)."""
    return isinstance(stmt, P.CHOICES) and all(alt.typed is None for alt in stmt.alts)


_NOT_A_LIST = ("raise RuleError('E504', f\"the choices for '{{A{j}.params[{k}].name}}' must be a list, "
               "not {{plain({x})}}\", A{j}.span)")
_TOO_MANY = ("raise RuleError('E504', f\"a choice of more than {{MAX_MOVES:,}} moves\", A{j}.span, "
             "\"narrow its parameters' lists, or ask in two steps\")")


def generate_choice(stmt) -> str:
    """The source of `make(s, H)`, returning the listing function `L(ctx, seat)` of choice
    `s` (H: the machine's helpers: RuleError, plain, MAX_MOVES, Table, product, enumerate)."""
    lines = ["def make(s, H):",
             "    RuleError, plain, MAX_MOVES, Table, product, enumerate_ = H"]
    body: List[str] = ["blocks = []", "total = 0"]
    for j, alt in enumerate(stmt.alts):
        lines.append(f"    A{j} = s.alts[{j}]")
        lines.append(f"    N{j} = A{j}.name")
        if not alt.fixed or alt.guard is not None:
            # (a condition or a list depending on another parameter: listed move by move)
            call = (f"product(ctx, A{j}, seat, out, False, total)" if alt.fixed
                    else f"enumerate_(ctx, A{j}, 0, [], seat, out, False, total)")
            body += ["out = []", call, "if out:",
                     f"    blocks.append((N{j}, None, out))", "    total += len(out)"]
            continue
        indent = ""
        names = []
        for k in range(len(alt.params)):
            lines.append(f"    D{j}_{k} = A{j}.params[{k}].domain")
            x = f"x{k}"
            names.append(x)
            body += [indent + f"{x} = D{j}_{k}(ctx)",
                     indent + f"if not isinstance({x}, list):",
                     indent + "    " + _NOT_A_LIST.format(j=j, k=k, x=x),
                     indent + f"if {x}:"]
            indent += "    "
        count = " * ".join(f"len({x})" for x in names) or "1"
        body += [indent + f"c = {count}",
                 indent + "if total + c > MAX_MOVES:",
                 indent + "    " + _TOO_MANY.format(j=j),
                 indent + f"blocks.append((N{j}, [{', '.join(names)}], None))",
                 indent + "total += c"]
    body.append("return Table(seat, blocks, total)")
    lines.append("    def L(ctx, seat):")
    lines += ["        " + line for line in body]
    lines.append("    return L")
    return "\n".join(lines) + "\n"


def factory(program):
    """`make(helpers)`: for each statement of `program`, its choice's listing function (None
    where the interpreter lists the moves, and for every other statement), each compiled from
    its generated source the first time the choice is listed."""
    stmts = program.stmts

    def make(helpers):
        fns: list = [None] * len(stmts)

        def lazy(sid):
            def first_run(ctx, seat):
                namespace: dict = {}
                code = compile(generate_choice(stmts[sid]), f"<gamedsl listing {sid}>", "exec")
                exec(code, namespace)  # noqa: S102 - our own source: numbers and our names only
                fn = fns[sid] = namespace["make"](stmts[sid], helpers)
                return fn(ctx, seat)
            return first_run

        for sid, stmt in enumerate(stmts):
            if listed_here(stmt):
                fns[sid] = lazy(sid)
        return fns

    return make
