"""A game's copier of states, generated from its zones' shapes: the fast clone of search.

A state is plain data, and marshal's round trip (gamedsl/runtime/state.py) copies all of it.
Moves change only some of it, always in the same places: the zones' lists and grids, the
per-player variables' lists, the component states' lists, the variables' dicts, the frames,
the pending decision, what was said and moved. Every value the rules hold (a number, a
text, a list in a variable, a frame's `for` items) is replaced when it changes, never
changed in place (an item assignment copies its list first), so the copy shares those
values and copies only the containers, each with the copy its shape needs (a grid a dict, a
player's zone a list per seat). The options are shared too: nothing changes them once a
game begins.

The source names no zone or variable: the zones' names are taken from the Program when the
copier is made. A state with keys the copier does not know (or without some) is copied key
by key, the unknown ones by marshal.
"""

from __future__ import annotations

import marshal
from typing import Optional

from gamedsl.compiler.codecache import CodeCache

# a state's keys, in the order a new state has them (gamedsl/runtime/machine.py new_state)
KEYS = ("n", "options", "rng", "vars", "pvars", "zones", "cstate", "where", "flow", "stack",
        "pending", "said", "moved")


def _frame(f: dict) -> dict:
    k = f["k"]
    if k == "act":
        return {"k": "act", "env": dict(f["env"])}
    if k == "secret":
        return {**f, "todo": list(f["todo"])}
    return dict(f)


def _pending(p):
    if p is None:
        return None
    p = dict(p)
    if "got" in p:
        p["got"] = dict(p["got"])
    return p


def _deep(v):
    return marshal.loads(marshal.dumps(v))


# the most players a clone is written out for seat by seat (more copy each player's zone in a loop)
UNROLLED = 8


def _zone_copies(zones, n) -> str:
    """The new `zones` dict's items for states of n players (None: any number, in a loop):
    each zone a copy of its list or grid, a player's zone one per seat."""
    parts = []
    for i, info in enumerate(zones):
        if not info.per_player:
            parts.append(f"Z{i}: z[Z{i}].copy()")
        elif n is None:
            parts.append(f"Z{i}: [x.copy() for x in z[Z{i}]]")
        else:
            # (a player's zone holds a container per seat, as every state the engine makes)
            seats = ", ".join(f"q[{o}].copy()" for o in range(1, n))
            parts.append(f"Z{i}: [(q := z[Z{i}])[0].copy(){', ' if seats else ''}{seats}]")
    return "{" + ", ".join(parts) + "}"


def generate(zones, players: range = range(0)) -> str:
    """The source of `make(Z, H)`, returning `clone(state)` for a game whose zones (in the
    Program's order) are `zones`: Z their names, H the copier's helpers. A state of a number
    of `players` (up to UNROLLED) has its players' zones copied seat by seat, without a loop."""
    lines = ["def make(Z, H):", "    frame, pending, deep, KEYS, TOLD, by_key = H"]
    lines += [f"    Z{i} = Z[{i}]" for i in range(len(zones))]
    lines += [
        "    def clone(s):",
        "        told = len(s) == 14",
        "        if s.keys() != (TOLD if told else KEYS):",
        "            return by_key(s)",
        "        z = s['zones']",
        "        n = s['n']",
    ]
    per_player = any(info.per_player for info in zones)
    counts = [n for n in players if n <= UNROLLED] if per_player else []
    for n in counts:
        lines.append(f"        {'elif' if n > counts[0] else 'if'} n == {n}:")
        lines.append(f"            zones = {_zone_copies(zones, n)}")
    if counts:
        lines.append("        else:")
    lines.append(("    " if counts else "") + f"        zones = {_zone_copies(zones, None)}")
    lines += [
        "        p = s['pending']",
        "        new = {'n': n, 'options': s['options'], 'rng': s['rng'], 'vars': s['vars'].copy(),",
        "                'pvars': {k: v.copy() for k, v in s['pvars'].items()},",
        "                'zones': zones,",
        "                'cstate': {k: v.copy() for k, v in s['cstate'].items()},",
        "                'where': s['where'].copy(), 'flow': s['flow'].copy(),",
        "                'stack': [f.copy() if (k := f['k']) == 'blk' else",
        "                          {'k': 'act', 'env': f['env'].copy()} if k == 'act' else frame(f)",
        "                          for f in s['stack']],",
        "                'pending': p if p is None else pending(p) if 'got' in p else p.copy(),",
        "                'said': s['said'].copy(), 'moved': s['moved'].copy()}",
        "        if told:  # (`say ... to`: [seat, messages before it, text], each kept whole)",
        "            new['told'] = s['told'].copy()",
        "        return new",
        "    return clone",
    ]
    return "\n".join(lines) + "\n"


def copier(program, codes: Optional[CodeCache] = None):
    """The clone function of `program`'s states (a new dict sharing none of the containers
    the rules change with the given state), compiled by `codes` where given."""
    zones = list(program.zones.values())
    names = list(program.zones)
    namespace: dict = {}
    source = generate(zones, range(program.min_players, program.max_players + 1))
    exec((codes or CodeCache()).compile(source, "<gamedsl copier>"), namespace)  # noqa: S102 - our own source

    def by_key(s: dict) -> dict:
        # a state of another shape (a `say ... to` kept, keys added or missing): key by key,
        # in its own order, the keys the fast path knows as it copies them
        out = {}
        for k, v in s.items():
            if k in ("vars", "flow"):
                out[k] = dict(v)
            elif k in ("pvars", "cstate"):
                out[k] = {name: list(x) for name, x in v.items()}
            elif k in ("where", "said", "moved", "told"):
                out[k] = list(v)
            elif k == "stack":
                out[k] = [_frame(f) for f in v]
            elif k == "pending":
                out[k] = _pending(v)
            elif k in ("n", "rng", "options"):
                out[k] = v
            else:  # the zones (their shapes known only by name here), any other key
                out[k] = _deep(v)
        return out

    return namespace["make"](names, (_frame, _pending, _deep, frozenset(KEYS),
                                              frozenset(KEYS + ("told",)), by_key))
