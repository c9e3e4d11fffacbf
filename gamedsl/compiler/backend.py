"""The compiling back end: a compiled Program's blocks as Python source, one function a block.

The interpreter (gamedsl.runtime.machine) walks a block statement by statement, finding each
statement's handler by its record's class and making a context for it. Here each block
becomes one Python function that carries out its statements in a row, with the simple ones
(`let`, `pass`, assignments to locals and game variables, `if`, `for`, `repeat`, `while`,
procedure calls, `say` to every seat) written out in place, and their expressions too
(gamedsl/compiler/pysource.py's `inline`; the closures answer where that code gives up). A `move` or `draw` into a zone that
is a list (not a grid) is written out for that zone, whose name the statement keeps: the
interpreter's checks in its order, with its work, but the component checks dropped where the
checker proves the components' kinds fit (or, for a draw, the pile's kinds do). The others
(other effects, choices, the end) go to the same runtime methods the interpreter calls.

As in Jinja2, the generated code holds no names or texts of the rules: the source mentions
only numbers (statement ids, block ids, statement positions) and the generator's own
identifiers; everything a rule wrote (a variable's name, an expression, a span) is taken
from the Program's statement records by the factory the source defines, at the time it is
made. Each block's source is written and compiled the first time the block runs, and its
compiled code is kept between runs by the digest of its source (gamedsl/compiler/codecache.py):
the next process writes the source again (cheap) and finds its code. A block never reached (an
option's rules, a rare ending) is never written.

The frames stay those of the interpreter: a block's function starts at the statement its
frame says (`frame["i"]`, a dispatch at the top of the function), writes the position of
the next statement into the frame before each one, and pushes and pops the same frames as
the interpreter: a nested block (a branch, a loop's body, a procedure) gets its frame and is
then run by a direct call of its function, and the caller returns to the run loop whenever
a statement asked a player, ended the game or left other frames on top. A nested block
whose statements are all written out here (and so are its own nested blocks', a
procedure's included) is rather written into the block that enters it and runs in place,
without frames or calls: if it reaches a choice, the frames the interpreter would have at
that point are pushed just before the choice is asked (see _in_place). So a state is the
same plain data at every decision in both engines, and each can resume the other's.
"""

from __future__ import annotations

import re
from typing import List, Optional

from gamedsl.compiler.codecache import CodeCache
from gamedsl.runtime import program as P

def _numbered(program) -> bool:
    return all(st.sid == i for i, st in enumerate(program.stmts))


_PROLOGUE = [
    "    MAX = m.max_steps",
    "    WPS = m.work_per_step",
    "    procs = m.p.procs",
    "    runaway = m.runaway",
    "    spent = m.budget_spent",
    "    H = m.handlers",
    "    write = m.p.write",
    "    sized, bounded, is_number, RuleError, plain = m.helpers",
    "    charge, MAXW, MAXN = m.effect_helpers",
]


def generate_block(program, bid: int, observed: bool = False) -> str:
    """The Python source of `make(m, S, F)`, returning the function of block `bid` of
    `program` (m: the machine running it; S: the program's statement records; F: the list of
    every block's function, for direct calls). `observed`: the function tells the machine's
    observer of every statement it runs, as the interpreter's run loop does, and of every
    component moved during play, as the interpreter's _put does."""
    consts: List[str] = []
    body = _block(bid, program.blocks[bid], consts, program, observed)
    lines = ["def make(m, S, F):"] + _PROLOGUE
    if observed:
        lines += ["    told = m.observer.statement", "    moved_told = m.observer.component_moved"]
    lines += ["    " + line for line in consts]
    lines += ["    " + line for line in body]
    lines.append(f"    return b{bid}")
    return "\n".join(lines) + "\n"


def generate(program, observed: bool = False) -> str:
    """The source of every block, one after another (for reading and tests)."""
    assert _numbered(program)
    return "\n".join(generate_block(program, b, observed) for b in range(len(program.blocks)))


def _block(bid: int, block: tuple, consts: List[str], program, observed: bool = False) -> List[str]:
    lines = [f"def b{bid}(state, frame, stack, ctx, steps):"]
    if not block:
        lines += ["    stack.pop()", "    return steps"]
        return lines
    lines += ["    i = frame['i']", "    env = ctx.env", "    rw = m.run_work"]
    for k, st in enumerate(block):
        sid = st.sid
        consts.append(f"s{sid} = S[{sid}]")
        body = _accounted(_stmt(st, consts, program, observed))
        lines.append(f"    if i <= {k}:")
        lines.append(f"        frame['i'] = {k + 1}")
        lines.append("        steps += 1")
        lines.append(f"        if steps + rw // WPS > MAX: runaway(state, s{sid})")
        if observed:
            lines.append(f"        told({sid})")
        lines.append("        " + _ACCOUNT)
        lines.extend("        " + line for line in body)
    lines += ["    stack.pop()", "    return steps"]
    return [_run_work_kept(line) for line in lines]


def _accounted(body: List[str]) -> List[str]:
    """A statement's code `body` run just after _ACCOUNT: the work is 0, so neither reset
    again nor copied for its first expression's fallback (see _evaluated)."""
    if body[:1] == [_RESET]:
        body = body[1:]
    if body[:1] != ["_wk = ctx.work"]:
        return body
    body = body[1:]
    for j, line in enumerate(body):
        if "_gave_up(ctx, _wk, " in line:
            return body[:j] + [line.replace("_gave_up(ctx, _wk, ", "_gave_up(ctx, 0, ")] + body[j + 1:]
    raise AssertionError("an expression's code without its fallback")


def _run_work_kept(line: str) -> str:
    """`line` of a block's function, the run's work (`m.run_work`, which the step budget
    bounds) kept in the function's local `rw` while it runs: given back to the machine
    before the function returns or calls another block's, taken again after that call."""
    if "steps = F[" in line:
        code = line.lstrip()
        return f"{line[:len(line) - len(code)]}m.run_work = rw; {code}; rw = m.run_work"
    return line.replace("return steps", "m.run_work = rw; return steps")


_RESET = "ctx.work = 0"
# before each statement, as the interpreter's run loop does when it asks for the statement's
# context: the work the last one counted goes to the run's (`rw`: see _run_work_kept), which
# the step budget bounds. (The depth of def calls needs no reset: a call gives it back as
# it returns or fails, so it is 0 again after every expression.)
_ACCOUNT = "rw += ctx.work; ctx.work = 0"
# after a statement handed to the runtime: back to the run loop if it pushed a frame, popped
# this one, asked a player or ended the game (the interpreter's test after every statement)
_STOPPED = ("if not stack or stack[-1] is not frame or state['pending'] is not None "
            "or state['flow']['over']: return steps")


# statements handed to the runtime that never push a frame, ask a player or end the game
_GO_ON = (P.MoveStmt, P.DrawStmt, P.ShuffleStmt, P.SayStmt, P.ShowStmt, P.NextTurnStmt, P.AssignStmt, P.LetStmt,
          P.LeaveStmt, P.EndRoundStmt)
# ... and those that always do (or raise)
_STOP = (P.ChooseStmt, P.BreakStmt, P.ReturnStmt)


# Beyond this many branches of an `if`, its conditions are called, not written in the block
# (each written condition nests the next branch one level deeper; Python allows 100 levels).
_NESTED_IFS = 12


# A nested block (a branch, a loop's body, a procedure) is run by a direct call of its
# function once its frame is pushed, as the run loop would run it next; back here, this
# block goes on if that frame is done, else returns to the run loop. Beyond this many frames
# the run loop runs it (Python's own stack stays short, whatever the rules' recursion).
DIRECT_DEPTH = 48


def _enter(block: int, owner: str) -> List[str]:
    """Push block's frame and run it; return to the run loop unless `owner` is on top again."""
    return [f"nf = {{'k': 'blk', 'b': {block}, 'i': 0}}",
            "stack.append(nf)",
            f"if len(stack) > {DIRECT_DEPTH}: return steps",
            f"steps = F[{block}](state, nf, stack, ctx, steps)",
            f"if not stack or stack[-1] is not {owner} or state['pending'] is not None "
            "or state['flow']['over']: return steps",
            "ctx.env = env"]


# How deep blocks run in place may nest (a branch in a loop's body...): Python allows 20
# nested loops and `try`s in a function, and 100 levels of indentation.
_IN_PLACE_DEPTH = 3
# ... and how many statements, counting the nested blocks' (a procedure's are written at
# each call)
_IN_PLACE_SIZE = 40


def _straight(program, bid: int) -> bool:
    """Whether block `bid` runs in place where it is entered and never stops the run there:
    all its statements are written out (`_nested`), so none can ask a player, end the game,
    call a procedure or look at the frames, and a state at any decision is the same without
    its frame."""
    return _size(program, bid, _IN_PLACE_DEPTH) == (True, False)


def _in_place_ok(program, bid: int) -> bool:
    """Whether block `bid` runs in place where it is entered: as a straight block, but it may
    also ask a player (the frames it would have are made then: see _in_place), end the
    game, and call procedures that run in place."""
    return _size(program, bid, _IN_PLACE_DEPTH) is not None


def _size(program, bid: int, depth: int, procs: tuple = ()):
    """(True, whether it may stop the run) for a block that runs in place (its statements and
    its nested blocks' at most _IN_PLACE_SIZE, nested at most `depth` deep, no procedure
    in `procs` called again), else None."""
    found = _shape(program, bid, depth, procs)
    return None if found is None or found[0] > _IN_PLACE_SIZE else (True, found[1])


def _shape(program, bid: int, depth: int, procs: tuple):
    """(statements, may stop) of a block that runs in place, or None."""
    if depth == 0:
        return None
    total, stops = 0, False
    for st in program.blocks[bid]:
        total += 1
        nested = _nested(st, program)
        if nested is None:
            return None
        blocks, stop = nested
        stops = stops or stop
        loop = isinstance(st, (P.ForStmt, P.WhileStmt, P.RepeatStmt))
        called = (st.proc,) if isinstance(st, P.CallStmt) else ()
        if called and called[0] in procs:
            return None
        for inner in blocks:
            found = _shape(program, inner, depth - 1, procs + called)
            if found is None or (loop and found[1]):  # (a loop's body never stops: see _in_place)
                return None
            total += found[0]
            stops = stops or found[1]
        if total > _IN_PLACE_SIZE:
            return None
    return total, stops


def _nested(st, program):
    """(the blocks nested in statement `st`, whether it stops the run itself) when it runs in
    place, else None: written-out effects and assignments, branches and loops, a choice (not
    a secret one), the end, a procedure call."""
    cls = type(st)
    if cls in (P.PassStmt, P.LetStmt, P.SayStmt):
        return [], False
    if cls is P.AssignStmt:
        t = st.target
        return ([], False) if t[0] in _HOLDERS or (t[0] == "item" and t[1][0] in _HOLDERS) else None
    if cls is P.MoveStmt and st.zone is not None:
        info = program.zones.get(st.zone)
        return ([], False) if (st.cell is None and _listed(info)) or (
            st.cell is not None and info is not None and info.grid) else None
    if cls is P.DrawStmt and st.zones is not None and None not in st.zones:
        src, dst = (program.zones.get(z) for z in st.zones)
        return ([], False) if src is not None and not src.grid and _listed(dst) else None
    if cls is P.IfStmt and len(st.branches) <= _NESTED_IFS:
        return [b for _, b in st.branches] + ([] if st.orelse is None else [st.orelse]), False
    if cls in (P.ForStmt, P.WhileStmt, P.RepeatStmt):
        return [st.body], False
    if cls in (P.ChooseStmt, P.EndStmt):
        return [], True
    if cls is P.CallStmt:
        return [program.procs[st.proc][1]], False
    return None


def _blk(bid: int, k: int) -> str:
    """The frame of block `bid` with statement `k` next."""
    return f"{{'k': 'blk', 'b': {bid}, 'i': {k}}}"


def _in_place(bid: int, consts: List[str], program, lazy: List[str], loop: Optional[int] = None,
              observed: bool = False) -> List[str]:
    """Block `bid` written out where it is entered: each statement counted as the run loop
    counts it, `cur` the one under way (for the line of a diagnostic that has none, as the
    run loop gives it from the frames). `lazy`: the frames the interpreter would have above
    the running function's own, outermost first (a procedure's activation, a branch's
    block): pushed only if a choice is reached, with this block's, before it is asked, so
    the state waiting for the player is the interpreter's. `loop`: the innermost loop run in
    place around it (see _budget). `observed`: the observer is told of each statement, as the
    run loop tells it."""
    lines = []
    for k, st in enumerate(program.blocks[bid]):
        sid = st.sid
        consts.append(f"s{sid} = S[{sid}]")
        body = _stmt(st, consts, program, observed, inside=True, lazy=lazy + [_blk(bid, k + 1)], loop=loop)
        body = _accounted(body)
        lines += [f"cur = s{sid}", "steps += 1", _budget(sid, loop)] + ([f"told({sid})"] if observed else [])
        lines += [_ACCOUNT] + body
    return lines


def _budget(sid: int, loop: Optional[int]) -> str:
    """The step budget's check before statement `sid`: spent, it blames the innermost loop
    (Machine.runaway, which finds it among the frames), or `loop`, the innermost loop run in
    place, which has no frame (its body never stops the run, so no one sees the frame the
    interpreter has while it runs)."""
    if loop is None:
        return f"if steps + rw // WPS > MAX: runaway(state, s{sid})"
    return f"if steps + rw // WPS > MAX: spent(s{loop})"


def _entered(bid: int, owner: str, consts: List[str], program, observed: bool, inside: bool,
             lazy: List[str], culprit: Optional[int] = None) -> List[str]:
    """A nested block (a branch) entered: in place if it can be (see _in_place_ok), else as
    _enter does. `culprit`: the innermost loop run in place around it (see _budget)."""
    if not _in_place_ok(program, bid):
        return _enter(bid, owner)
    lines = _in_place(bid, consts, program, lazy, culprit, observed)
    return lines if inside else _spanned(lines)


def _looped(head: List[str], body: List[str], inside: bool) -> List[str]:
    """A loop whose body runs in place: `head` (its first line the loop's, then each turn's
    own work), `body` each turn. The interpreter's frame of the loop is never made: the body
    never stops the run, so no one sees it while the loop runs; the step budget blames the
    loop itself (_budget)."""
    return head + ["    " + line for line in (body if inside else _spanned(body))]


def _spanned(lines: List[str]) -> List[str]:
    """`lines` (blocks run in place), a diagnostic raised without a line given the line of
    the statement it came from, `cur`."""
    return (["try:"] + ["    " + line for line in lines]
            + ["except RuleError as err:", "    if err.span is None: err.span = cur.span", "    raise"])


def _evaluated(fn, const: str, target: str, consts: List[str]) -> List[str]:
    """`target = const(ctx)`, with the expression's own code written here where it can be
    (gamedsl/compiler/pysource.py's `inline`: names and texts of the rules stay values of its
    namespace, bound in `make`); should that code meet anything but the common case, the
    expression's closures answer or raise the diagnostic, from the work counted before."""
    spec = getattr(fn, "generated_from", None)
    written = spec[0].inline(spec[1], spec[2]) if spec is not None else None
    if written is None:
        return [f"{target} = {const}(ctx)"]
    lines, code, names = written
    if not lines and _CONSTANT.match(code):  # (nothing to give up on)
        return [f"{target} = {code}"]
    for line in [f"G = {const}.generated_from[0].ns"] + [f"{n} = G[{n!r}]" for n in names]:
        if line not in consts or line.startswith("G = "):
            consts.append(line)
    # (the work it started with, unless the code cannot count any: then it is the work still)
    counts = _COUNTS.search(_READS.sub("", "\n".join(lines + [code]))) is not None
    return ((["_wk = ctx.work"] if counts else []) + ["try:"] + ["    " + line for line in lines]
            + [f"    {target} = {code}",
               "except Exception:  # noqa: BLE001 - the closures judge (see pysource.py)",
               f"    {target} = _gave_up(ctx, {'_wk' if counts else 'ctx.work'}, {const})"])


# the code of an expression that is a number, true, false or none
_CONSTANT = re.compile(r"^(-?[0-9]+(\.[0-9]+)?|True|False|None)$")
# what of the context an expression's code may read without counting work; anything else
# of it (the context handed to a function, its work) may count
_READS = re.compile(r"\bctx\.(state|env|cat)\b")
_COUNTS = re.compile(r"\bctx\b")


def _handled(st, consts) -> List[str]:
    consts.append(f"h{st.sid} = H[type(s{st.sid})]")
    lines = [_RESET, f"h{st.sid}(state, ctx, s{st.sid})"]
    if isinstance(st, _STOP):
        lines.append("return steps")
    elif not isinstance(st, _GO_ON):
        lines.append(_STOPPED)
    return lines


def _put(sid: int, info, proven: bool, top: bool, observed: bool) -> List[str]:
    """The interpreter's _put of component `c` into zone `zn{sid}` (owner `o`, its list of
    every owner `zl`) when that zone is a list (kept sorted or not): the same checks in the same order and
    the same work, the observer told as it tells it (`observed`)."""
    lines = ["ctx.work += 1", f"if ctx.work > MAXW: charge(ctx, 0, s{sid}.span)", *_moved_told(observed)]
    if not proven:
        lines += [f"if K[c] not in kk{sid}:",
                  f"    raise RuleError('E504', f\"zone '{{zn{sid}}}' does not hold a {{K[c]}}\", s{sid}.span)"]
    lines += _owned(sid, info.per_player, "z", "zl", "o")
    if info.capacity is not None:
        cap = int(info.capacity)
        lines += [f"if len(z) >= {cap} and c not in z:",
                  f"    raise RuleError('E504', f\"zone '{{zn{sid}}}' is full: it holds at most {cap}\", s{sid}.span)"]
    lines += _take(sid)
    if info.sorted_by is not None:  # (its place by the zone's order, after the items looked at)
        # (ZoneInfo.sort_value, written out where the zone is sorted by the attribute's value)
        key = f"sf{sid}({{}})" if info.order is not None else f"{{}}.get(sb{sid}, 0)"
        lines += ["A = ctx.cat.attrs",
                  f"k = {key.format('A[c]')}",
                  "pos = len(z)",
                  "for j, other in enumerate(z):",
                  f"    if {key.format('A[other]')} > k:",
                  "        pos = j",
                  "        break",
                  "ctx.work += pos",
                  f"if ctx.work > MAXW: charge(ctx, 0, s{sid}.span)",
                  "z.insert(pos, c)"]
    elif top:
        lines += ["ctx.work += len(z) // 64",
                  f"if ctx.work > MAXW: charge(ctx, 0, s{sid}.span)",
                  "z.insert(0, c)"]
    else:
        lines.append("z.append(c)")
    lines += [f"W[c] = [zn{sid}, o, None]",
              "if mv is not None and c not in seen:",
              "    seen.add(c)",
              "    mv.append(c)"]
    return lines


def _take(sid: int) -> List[str]:
    """The interpreter's _take of component `c` from where it lies (`W`: the state's `where`)."""
    return ["w = W[c]",
            "if w is not None:",
            "    kn = state.get('known')",
            "    if kn:  # (a seat shown it forgets it once it moves)",
            "        for ks in kn.values():",
            "            if c in ks: ks.remove(c)",
            "    wz = state['zones'][w[0]]",
            "    if w[1] >= 0: wz = wz[w[1]]",
            "    wc = w[2]",
            "    if isinstance(wc, list):",
            "        for wk in wc: del wz[wk]",
            "    elif wc is not None: del wz[wc]",
            "    else:",
            "        ctx.work += 1 + len(wz) // 64",
            f"        if ctx.work > MAXW: charge(ctx, 0, s{sid}.span)",
            "        wz.remove(c)"]


def _put_cell(sid: int, info, proven: bool, observed: bool) -> List[str]:
    """The interpreter's _put of component `c` on cell `cell` of grid `zn{sid}` (owner `o`,
    its list of every owner `zl`) for the common case, a piece of one cell given whole-number
    coordinates: the same checks in the same order and the same work. Any other piece or
    cell goes to the machine's _put, which has not begun on it."""
    lines = ["if FC[c] is None and type(cell) is list and len(cell) == 2 and type(cell[0]) is int "
             "and type(cell[1]) is int:",
             "    ctx.work += 1",
             f"    if ctx.work > MAXW: charge(ctx, 0, s{sid}.span)",
             *("    " + line for line in _moved_told(observed))]
    if not proven:
        lines += [f"    if K[c] not in kk{sid}:",
                  f"        raise RuleError('E504', f\"zone '{{zn{sid}}}' does not hold a {{K[c]}}\", s{sid}.span)"]
    lines += ["    " + line for line in _owned(sid, info.per_player, "z", "zl", "o")]
    lines.append("    key = f'{cell[0]},{cell[1]}'")
    if info.size is not None:
        x, y = (int(v) for v in info.size)
        lines += [f"    if not (0 <= cell[0] < {x} and 0 <= cell[1] < {y}):",
                  f"        raise RuleError('E504', f\"cell {{key}} is outside the {x} by {y} grid\", s{sid}.span)"]
    lines += ["    if key in z and z[key] != c:",
              f"        raise RuleError('E504', f\"cell {{key}} of '{{zn{sid}}}' is taken\", s{sid}.span)"]
    lines += ["    " + line for line in _take(sid)]
    lines += ["    z[key] = c",
              f"    W[c] = [zn{sid}, o, key]",
              "    if mv is not None and c not in seen:",
              "        seen.add(c)",
              "        mv.append(c)",
              "else:",
              f"    m.put(state, c, (zn{sid}, o), pl{sid}, cell, s{sid}.span, ctx)"]
    return lines


def _moved_told(observed: bool) -> List[str]:
    """The observer told of component `c` put into a zone during play, if one looks."""
    if not observed:
        return []
    return ["if state['flow']['stage'] not in ('new', 'setup'): moved_told(c)"]


# the state's list of what the last move moved (none in a state saved before it was kept)
_MOVED = "mv = state.get('moved'); seen = None if mv is None else m.moved_seen(mv)"


def _owned(sid: int, per_player: bool, name: str, zones: str, owner: str) -> List[str]:
    """`name` = the zone `zones` (a player's, `owner`'s: checked to be a player, as `_put` does)."""
    if not per_player:
        return [f"{name} = {zones}"]
    return [f"if not (isinstance({owner}, int) and 0 <= {owner} < state['n']):",
            f"    raise RuleError('E504', \"a player's zone needs a player\", s{sid}.span)",
            f"{name} = {zones}[{owner}]"]


def _zone_consts(sid: int) -> List[str]:
    return [f"kk{sid} = m.p.zones[zn{sid}].kinds", f"sf{sid} = m.p.zones[zn{sid}].sort_value",
            f"sb{sid} = m.p.zones[zn{sid}].sorted_by"]


def _listed(info) -> bool:
    return info is not None and not info.grid


def _move(st, info, consts: List[str], observed: bool) -> List[str]:
    """`move` to a zone that is a list (not a grid), without a cell: the
    interpreter's _do_move written out for this zone, the component checks only where the
    checker leaves the kinds open."""
    sid = st.sid
    consts += [f"w{sid} = s{sid}.what", f"zn{sid} = s{sid}.zone"] + _zone_consts(sid)
    proven = st.kinds is not None and st.kinds <= frozenset(info.kinds)
    lines = _moved_and_owner(st, info, consts, checked=not proven)
    if st.place == "top":
        lines.append("cs = list(reversed(cs))")
    lines += [f"zl = state['zones'][zn{sid}]", "W = state['where']", _MOVED,
              "for c in cs:"]
    lines += ["    " + line for line in _put(sid, info, proven, st.place == "top", observed)]
    return lines


def _moved_and_owner(st, info, consts: List[str], checked: bool) -> List[str]:
    """A `move`'s components as the list `cs` (each checked to be a component where
    `checked`), then the destination's owner `o`: the interpreter's order."""
    sid = st.sid
    lines = [_RESET, *_evaluated(st.what, f"w{sid}", "x", consts), "cs = x if type(x) is list else [x]",
             "K = ctx.cat.kind"]
    if checked:
        lines += ["for c in cs:",
                  "    if not (isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(K)):",
                  f"        raise RuleError('E504', f\"only components can be moved, not {{plain(c)}}\", s{sid}.span)"]
    if info.per_player:
        consts.append(f"d{sid} = s{sid}.dest")
        lines.append(f"o = d{sid}(ctx)[1]")
    else:
        lines.append("o = -1")
    return lines


def _move_to_cell(st, info, consts: List[str], observed: bool) -> List[str]:
    """`move` to a cell of a grid: the interpreter's _do_move written out for this zone (the
    components, then the destination's owner, then the cell), each piece put by _put_cell."""
    sid = st.sid
    consts += [f"w{sid} = s{sid}.what", f"zn{sid} = s{sid}.zone", f"ce{sid} = s{sid}.cell",
               f"pl{sid} = s{sid}.place"] + _zone_consts(sid)
    proven = st.kinds is not None and st.kinds <= frozenset(info.kinds)
    lines = _moved_and_owner(st, info, consts, checked=True) + ["FC = ctx.cat.faces"]
    lines += _evaluated(st.cell, f"ce{sid}", "cell", consts)
    if st.place == "top":
        lines.append("cs = list(reversed(cs))")
    lines += ["if len(cs) > 1 and cell is not None:",
              f"    raise RuleError('E504', 'only one component fits on a cell', s{sid}.span)",
              f"zl = state['zones'][zn{sid}]", "W = state['where']", _MOVED,
              "for c in cs:"]
    lines += ["    " + line for line in _put_cell(sid, info, proven, observed)]
    return lines


def _draw(st, src, dst, consts: List[str], observed: bool) -> List[str]:
    """`draw` from a pile to a zone that is a list (not a grid): the interpreter's _do_draw written
    out (each component drawn counted against the step budget, a refill by the machine), no
    kind check where every kind the pile holds fits the destination."""
    sid = st.sid
    consts += [f"n{sid} = s{sid}.count", f"sr{sid} = s{sid}.source", f"ds{sid} = s{sid}.dest",
               f"sn{sid} = s{sid}.zones[0]", f"zn{sid} = s{sid}.zones[1]"] + _zone_consts(sid)
    proven = frozenset(src.kinds) <= frozenset(dst.kinds)
    lines = [_RESET, *_evaluated(st.count, f"n{sid}", "n", consts),
             "if not is_number(n):",
             f"    raise RuleError('E504', f\"'draw' needs a number, not {{plain(n)}}\", s{sid}.span)",
             f"src = sr{sid}(ctx)", f"o = ds{sid}(ctx)[1]", "so = src[1]",
             f"zl = state['zones'][zn{sid}]", f"sl = state['zones'][sn{sid}]",
             "W = state['where']", _MOVED, "K = ctx.cat.kind",
             "for _ in range(n if type(n) is int and 0 <= n <= MAX else max(0, int(min(n, MAX + 1)))):",
             f"    if m.count_drawn() > MAX: m.drew_too_many(s{sid}.span)"]
    lines += ["    " + line for line in _owned(sid, src.per_player, "pile", "sl", "so")]
    if src.refill:
        lines.append(f"    if not pile: pile = m.refill(state, ctx, s{sid}.span, src)")
    lines += ["    if not pile: break", "    c = pile[0]"]
    lines += ["    " + line for line in _put(sid, dst, proven, False, observed)]
    return lines


def _assign_owned(st, consts: List[str]) -> List[str]:
    """The interpreter's _do_assign to a player's variable or a component's state: the value,
    then whose it is (checked as _slot checks it), then the change, with the same checks."""
    sid = st.sid
    consts.append(f"v{sid} = s{sid}.value")
    lines = [_RESET, *_evaluated(st.value, f"v{sid}", "x", consts),
             *_owner_slot(st, st.target, f"s{sid}.target", consts)]
    return lines + _store(st, "c[k]")


def _owner_slot(st, target, path: str, consts: List[str]) -> List[str]:
    """`c`, `k`: the container and key of `target` (a local, the game's variable, a player's
    variable or a component's state; `path` the source reading it from the statement),
    whose it is evaluated and checked as the interpreter's _slot does."""
    sid, (where, _, _) = st.sid, target
    consts += [f"n{sid} = {path}[1]"]
    if where == "local":
        return ["c = env", f"k = n{sid}"]
    if where == "global":
        return ["c = state['vars']", f"k = n{sid}"]
    consts.append(f"ob{sid} = {path}[2]")
    lines = _evaluated(target[2], f"ob{sid}", "k", consts)
    if where == "pvar":
        lines += ["if not (type(k) is int and 0 <= k < state['n']):",
                  f"    raise RuleError('E504', f\"'.{{n{sid}}}' needs a player, not {{plain(k)}}\", s{sid}.span)",
                  f"c = state['pvars'][n{sid}]"]
    else:
        consts.append(f"ks{sid} = m.p.decls.comp_states[n{sid}]")
        lines += [f"if k is None or ctx.cat.kind[k] not in ks{sid}:",
                  f"    raise RuleError('E504', f\"this component has no state '{{n{sid}}}'\", s{sid}.span)",
                  f"c = state['cstate'][n{sid}]"]
    return lines


# the targets an item assignment is written out for: an item of a list held by one of these
_HOLDERS = ("local", "global", "pvar", "cstate")


def _assign_item(st, consts: List[str]) -> List[str]:
    """The interpreter's _do_assign to an item of a list (`v.free[i] -= m`): the value, the
    list's holder (_owner_slot), then the position, checked as _slot checks them; the item
    changed in a fresh copy of the list, which replaces the held one."""
    sid = st.sid
    consts += [f"v{sid} = s{sid}.value", f"ix{sid} = s{sid}.target[2]"]
    lines = [_RESET, *_evaluated(st.value, f"v{sid}", "x", consts),
             *_owner_slot(st, st.target[1], f"s{sid}.target[1]", consts),
             "seq = c[k]",
             *_evaluated(st.target[2], f"ix{sid}", "ix", consts),
             "if not isinstance(seq, list):",
             f"    raise RuleError('E504', f\"only an item of a list can change, not of {{plain(seq)}}\", s{sid}.span)",
             "if not (is_number(ix) and int(ix) == ix and -len(seq) <= ix < len(seq)):",
             f"    raise RuleError('E504', f\"position {{plain(ix)}} is outside this list of {{len(seq)}}\", s{sid}.span)",
             "c[k] = c = list(seq)",
             "k = int(ix)"]
    return lines + _store(st, "c[k]")


def _store(st, slot: str) -> List[str]:
    """`slot` (an item of container `c`) given the value `x` by assignment `st`: `=` checks
    its size, `+=`/`-=`/`*=` its numbers, whole numbers within the bounds first (the common
    case, every check passed), as the interpreter's _do_assign does."""
    sid = st.sid
    if st.op == "=":
        return [f"if isinstance(x, (str, list)): sized(x, s{sid}.span)", f"{slot} = x"]
    sign = {"+=": "+", "-=": "-", "*=": "*"}[st.op]
    return [f"o = {slot}",
            f"if type(o) is int and type(x) is int and -MAXN <= (r := o {sign} x) <= MAXN:",
            f"    {slot} = r",
            "else:",
            "    if not (is_number(o) and is_number(x)):",
            f"        raise RuleError('E504', f\"'{{s{sid}.op}}' needs numbers, not {{plain(o)}} and "
            f"{{plain(x)}}\", s{sid}.span)",
            f"    {slot} = bounded(o {sign} x, s{sid}.span)"]


def _stmt(st, consts: List[str], program, observed: bool = False, inside: bool = False,
          lazy: Optional[List[str]] = None, loop: Optional[int] = None) -> List[str]:
    """The code of statement `st` (`inside`: in a block run in place, `lazy` the frames it
    would have, `loop` the innermost loop run in place around it: see _in_place)."""
    sid = st.sid
    cls = type(st)
    lazy = lazy if inside else []
    if inside and cls is P.ChooseStmt:  # (its frames made, it is asked as the interpreter asks it)
        consts.append(f"h{sid} = H[type(s{sid})]")
        return [_RESET, f"stack.extend([{', '.join(lazy)}])", f"h{sid}(state, ctx, s{sid})", "return steps"]
    if inside and cls is P.EndStmt:  # (the frames go with the game; `after round` goes on)
        consts.append(f"h{sid} = H[type(s{sid})]")
        return [_RESET, f"h{sid}(state, ctx, s{sid})", "if state['flow']['over']: return steps"]
    if cls is P.PassStmt:
        return []
    if cls is P.SayStmt:  # (the interpreter's _do_say; nothing said in a state no one is shown)
        consts += [f"ms{sid} = s{sid}.message", f"mk{sid} = s{sid}.kind"]
        text = f"x if type(x) is str else write(x, mk{sid}, ctx.cat)"  # (a text is written as it is)
        lines = [*_evaluated(st.message, f"ms{sid}", "x", consts),
                 f"if isinstance(x, list): sized(x, s{sid}.span)"]
        if st.to is None:
            lines.append(f"state['said'].append({text})")
        else:
            consts.append(f"to{sid} = s{sid}.to")
            lines += [*_evaluated(st.to, f"to{sid}", "p", consts),
                      "if not (isinstance(p, int) and not isinstance(p, bool) and 0 <= p < state['n']):",
                      f"    raise RuleError('E504', \"'say ... to' needs a player\", s{sid}.span)",
                      f"state.setdefault('told', []).append([p, len(state['said']), {text}])"]
        return [_RESET, "if m.says:", *("    " + line for line in lines)]
    if cls is P.MoveStmt and st.cell is None and st.zone is not None:
        info = program.zones.get(st.zone)
        if _listed(info):
            return _move(st, info, consts, observed)
    if cls is P.MoveStmt and st.cell is not None and st.zone is not None:
        info = program.zones.get(st.zone)
        if info is not None and info.grid:
            return _move_to_cell(st, info, consts, observed)
    if cls is P.DrawStmt and st.zones is not None and None not in st.zones:
        src, dst = (program.zones.get(z) for z in st.zones)
        if src is not None and not src.grid and _listed(dst):
            return _draw(st, src, dst, consts, observed)
    if cls is P.LetStmt:
        consts += [f"v{sid} = s{sid}.value", f"n{sid} = s{sid}.name"]
        return [_RESET, *_evaluated(st.value, f"v{sid}", "x", consts),
                f"if isinstance(x, (str, list)): sized(x, s{sid}.span)",
                f"env[n{sid}] = x"]
    if cls is P.AssignStmt and st.target[0] in ("local", "global"):
        consts += [f"v{sid} = s{sid}.value", f"n{sid} = s{sid}.target[1]"]
        into = "env" if st.target[0] == "local" else "state['vars']"
        lines = [_RESET, *_evaluated(st.value, f"v{sid}", "x", consts), f"c = {into}"]
        return lines + _store(st, f"c[n{sid}]")
    if cls is P.AssignStmt and st.target[0] in ("pvar", "cstate"):
        return _assign_owned(st, consts)
    if cls is P.AssignStmt and st.target[0] == "item" and st.target[1][0] in _HOLDERS:
        return _assign_item(st, consts)
    if cls is P.IfStmt and len(st.branches) > _NESTED_IFS:
        lines = [_RESET]
        for j, (_, block) in enumerate(st.branches):
            consts.append(f"c{sid}_{j} = s{sid}.branches[{j}][0]")
            lines += [("if" if j == 0 else "elif") + f" c{sid}_{j}(ctx):"]
            lines += ["    " + line for line in _enter(block, "frame")]
        if st.orelse is not None:
            lines += ["else:"] + ["    " + line for line in _enter(st.orelse, "frame")]
        return lines

    def enter(block: int, owner: str) -> List[str]:
        return _entered(block, owner, consts, program, observed, inside, lazy, loop)

    def in_place_body(block: int) -> Optional[List[str]]:
        """A loop's body run in place, each turn (see _looped), if it can be: straight."""
        if not _straight(program, block):
            return None
        return _in_place(block, consts, program, lazy, sid, observed)

    if cls is P.IfStmt:  # (each condition's code before its test: one `else:` deeper a branch)
        lines, indent = [_RESET], ""
        for j, (cond, block) in enumerate(st.branches):
            consts.append(f"c{sid}_{j} = s{sid}.branches[{j}][0]")
            if j > 0:
                lines.append(indent + "else:")
                indent += "    "
            lines += [indent + line for line in _evaluated(cond, f"c{sid}_{j}", "_t", consts)]
            lines += [indent + "if _t:"] + [indent + "    " + line for line in enter(block, "frame")]
        if st.orelse is not None:
            lines += [indent + "else:"] + [indent + "    " + line for line in enter(st.orelse, "frame")]
        return lines
    if cls is P.CallStmt:
        consts += [f"p{sid} = procs[s{sid}.proc]", f"a{sid} = s{sid}.args"]
        # (the frames run in place above this function's own count as the interpreter's do)
        more, acts = len(lazy), sum(1 for f in lazy if "'act'" in f)
        lines = [f"if len(stack) > {100 - more} and sum(1 for f in stack if f['k'] == 'act') > {100 - acts}:",
                 f"    raise RuleError('E502', f\"procedure '{{s{sid}.proc}}' calls itself more than 100 deep\", "
                 f"s{sid}.span)"]
        lines += ["e = {}"]
        if st.args:  # (the arguments in order, each given to its parameter as it is worked out)
            lines.append(_RESET)
            for j in range(min(len(program.procs[st.proc][0]), len(st.args))):
                consts += [f"a{sid}_{j} = a{sid}[{j}]", f"pn{sid}_{j} = p{sid}[0][{j}]"]
                lines += [*_evaluated(st.args[j], f"a{sid}_{j}", "x", consts), f"e[pn{sid}_{j}] = x"]
        callee = program.procs[st.proc][1]
        if _in_place_ok(program, callee):
            # its body run in place, its locals the context's while it runs
            body = _in_place(callee, consts, program, lazy + [f"{{'k': 'act', 'env': e{sid}}}"], loop, observed)
            return (lines + [f"e{sid} = e", f"pe{sid} = env", "env = ctx.env = e"]
                    + (body if inside else _spanned(body)) + [f"env = ctx.env = pe{sid}"])
        lines += ["act = {'k': 'act', 'env': e}", "stack.append(act)",
                  f"nf = {{'k': 'blk', 'b': p{sid}[1], 'i': 0}}", "stack.append(nf)",
                  f"if len(stack) > {DIRECT_DEPTH}: return steps",
                  "ctx.env = e",
                  f"steps = F[p{sid}[1]](state, nf, stack, ctx, steps)",
                  "ctx.env = env",
                  "if not stack or stack[-1] is not act or state['pending'] is not None "
                  "or state['flow']['over']: return steps",
                  "stack.pop()"]
        return lines
    if cls is P.ForStmt:
        consts += [f"v{sid} = s{sid}.items", f"n{sid} = s{sid}.var"]
        lines = [_RESET, *_evaluated(st.items, f"v{sid}", "x", consts),
                 "if not isinstance(x, list):",
                 f"    raise RuleError('E504', f\"'for' needs a list, not {{plain(x)}}\", s{sid}.span)"]
        body = in_place_body(st.body)
        if body is not None:  # (the items copied, as the interpreter's frame copies them)
            return lines + _looped([f"for it{sid} in list(x):", f"    env[n{sid}] = it{sid}"], body, inside)
        lf = f"lf{sid}"  # (each loop's own name: a body run in place may hold a loop)
        return (lines + [f"{lf} = {{'k': 'for', 's': {sid}, 'b': {st.body}, 'var': n{sid}, 'items': list(x), 'n': 0}}",
                         f"stack.append({lf})",
                         f"while {lf}['n'] < len({lf}['items']):",
                         f"    env[{lf}['var']] = {lf}['items'][{lf}['n']]",
                         f"    {lf}['n'] += 1"]
                + ["    " + line for line in enter(st.body, lf)]
                + ["stack.pop()"])
    if cls is P.WhileStmt:
        consts.append(f"v{sid} = s{sid}.cond")
        body = in_place_body(st.body)
        head = ["while True:",
                "    steps += 1",
                "    " + _budget(sid, sid if body is not None else None),
                "    " + _ACCOUNT]
        head += ["    " + line for line in _evaluated(st.cond, f"v{sid}", "_t", consts)]
        head += ["    if not _t: break"]
        if body is not None:
            return _looped(head, body, inside)
        lf = f"lf{sid}"
        return ([f"{lf} = {{'k': 'while', 's': {sid}}}", f"stack.append({lf})"] + head
                + ["    " + line for line in enter(st.body, lf)]
                + ["stack.pop()"])
    if cls is P.RepeatStmt:
        if st.count is None:
            lines = ["left = -1"]
        else:
            consts.append(f"v{sid} = s{sid}.count")
            lines = [_RESET, *_evaluated(st.count, f"v{sid}", "x", consts),
                     "if not is_number(x):",
                     f"    raise RuleError('E504', f\"'repeat' needs a number, not {{plain(x)}}\", s{sid}.span)",
                     "left = max(0, int(x))"]
        body = in_place_body(st.body)
        if body is not None:  # (the turns left in a local of this loop's own)
            return lines + _looped([f"lt{sid} = left",
                                    "while True:",
                                    "    steps += 1",
                                    "    " + _budget(sid, sid),
                                    f"    if lt{sid} == 0: break",
                                    f"    if lt{sid} > 0: lt{sid} -= 1"], body, inside)
        lf = f"lf{sid}"
        return (lines + [f"{lf} = {{'k': 'rep', 's': {sid}, 'left': left}}", f"stack.append({lf})",
                         "while True:",
                         "    steps += 1",
                         f"    if steps + rw // WPS > MAX: runaway(state, s{sid})",
                         f"    if {lf}['left'] == 0: break",
                         f"    if {lf}['left'] > 0: {lf}['left'] -= 1"]
                + ["    " + line for line in enter(st.body, lf)]
                + ["stack.pop()"])
    return _handled(st, consts)


def factory(program, codes: Optional[CodeCache] = None):
    """`make(m, observed=False)`: the functions of `program`'s blocks for machine `m` (telling
    its observer of what they do, if `observed`), each compiled from its generated source the
    first time it runs (compile() costs 1-15 ms a game when done all at once: a game that never
    reaches a block never pays for it), by `codes` (which may have it from an earlier run)."""
    assert _numbered(program)
    stmts = program.stmts
    codes = codes or CodeCache()

    def make(m, observed: bool = False):
        fns: list = []

        def lazy(bid):
            def first_run(state, frame, stack, ctx, steps):
                namespace: dict = {}
                code = codes.compile(generate_block(program, bid, observed), f"<gamedsl block {bid}>")
                exec(code, namespace)  # noqa: S102 - our own source: numbers and our names only
                fn = fns[bid] = namespace["make"](m, stmts, fns)
                return fn(state, frame, stack, ctx, steps)
            return first_run

        fns.extend(lazy(b) for b in range(len(program.blocks)))
        return fns

    return make
