"""A choice's legal moves as a table: how many there are, and the i-th, without a move dict
for each.

A table is made of blocks, one per alternative that has moves, in the rules' order: either
the parameters' lists of an alternative whose moves are every combination of them (no
condition: the i-th combination is worked out from i), or the moves themselves, listed. So
a random bot's move is one dict, however many moves the choice has; `moves()` lists them
all, as `legal_moves` returns them, in the same order (the combinations as
itertools.product gives them: the last parameter changes fastest).
"""

from __future__ import annotations

import marshal
from itertools import chain, product
from typing import List

_FLAT = frozenset({int, str, bool, float, type(None)})
_LISTS = {list}


def _fresh(value):
    """A value of a list, as a move hands it out: a list or an object copied whole, so a
    caller changing a move changes neither the table nor the check made against it
    (Machine.listed_when_reached)."""
    if type(value) in _FLAT:
        return value
    if type(value) is list and _FLAT.issuperset(map(type, value)):
        return list(value)  # (a cell, a list of components)
    return marshal.loads(marshal.dumps(value))


def _copied(move: dict) -> dict:
    """A listed move as a table hands it out (see `_fresh`)."""
    return {"seat": move["seat"], "alt": move["alt"],
            "args": [v if type(v) in _FLAT else _fresh(v) for v in move["args"]]}


def _handed(domain: list) -> list:
    """The values of a list as moves hand them out (see `_fresh`): the list itself when all
    are numbers, texts, truths or none (the usual case); lists of those (cells) each copied."""
    types = set(map(type, domain))
    if types <= _FLAT:
        return domain
    if types == _LISTS and _FLAT.issuperset(map(type, chain.from_iterable(domain))):
        return [list(v) for v in domain]
    return [_fresh(v) for v in domain]



def _keys_of(moves: List[dict]) -> list:
    """(alternative, *arguments) of each move, the arguments as a move hands them out."""
    return [(m["alt"], *m["args"]) if _FLAT.issuperset(map(type, m["args"])) else (m["alt"], *map(_fresh, m["args"]))
            for m in moves]


class Listed:
    """Moves listed one by one (the interpreter's listing): `at(i)` is a copy, so a caller
    changing it changes neither the table nor the list `moves()` hands out once."""

    __slots__ = ("listed", "count")

    def __init__(self, moves: List[dict]):
        self.listed = moves
        self.count = len(moves)

    def at(self, i: int) -> dict:
        m = self.listed[i]
        return {"seat": m["seat"], "alt": m["alt"], "args": list(m["args"])}

    def moves(self) -> List[dict]:
        return self.listed

    def keys(self) -> list:
        return _keys_of(self.listed)


class Table:
    """blocks: (alternative's name, its parameters' lists, None) for a product of lists,
    (name, None, moves) for moves listed; `count`: the moves in all. What it hands out
    (`at`, `moves`) is the caller's: no list or move of the table's own."""

    __slots__ = ("seat", "blocks", "count")

    def __init__(self, seat: int, blocks: list, count: int):
        self.seat, self.blocks, self.count = seat, blocks, count

    def at(self, i: int) -> dict:
        if not 0 <= i < self.count:
            raise IndexError(f"move {i} of {self.count}")
        for name, domains, listed in self.blocks:
            if domains is None:
                if i < len(listed):
                    return _copied(listed[i])
                i -= len(listed)
                continue
            size = 1
            for d in domains:
                size *= len(d)
            if i >= size:
                i -= size
                continue
            args = []
            for d in reversed(domains):
                i, k = divmod(i, len(d))
                v = d[k]
                args.append(v if type(v) in _FLAT else _fresh(v))
            args.reverse()
            return {"seat": self.seat, "alt": name, "args": args}
        raise IndexError(i)  # (unreachable: the count is the blocks' sizes)

    def moves(self, kept: bool = True) -> List[dict]:
        """Every move, in order; without `kept` (a table nothing keeps: made for this call)
        its listed moves themselves."""
        out: List[dict] = []
        seat = self.seat
        for name, domains, listed in self.blocks:
            if domains is None:
                out += [_copied(m) for m in listed] if kept else listed
            elif len(domains) == 1:
                out += [{"seat": seat, "alt": name, "args": [v]} for v in _handed(domains[0])]
            else:
                out += [{"seat": seat, "alt": name, "args": [*args]}
                        for args in product(*[_handed(d) for d in domains])]
        return out

    def keys(self) -> list:
        """(alternative, *arguments) of each move, in order, without the moves: a move's
        values as it hands them out (a list stays a list, a copy: such a key is not hashable)."""
        out: list = []
        for name, domains, listed in self.blocks:
            if domains is None:
                out += _keys_of(listed)
            elif len(domains) == 1:
                out += [(name, v) for v in _handed(domains[0])]
            else:
                out += product((name,), *[_handed(d) for d in domains])  # (each key made by product itself)
        return out


NO_MOVES = Table(0, [], 0)
