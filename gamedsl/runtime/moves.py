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

from itertools import product
from typing import List


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
        return [(m["alt"], *m["args"]) for m in self.listed]


class Table:
    """blocks: (alternative's name, its parameters' lists, None) for a product of lists,
    (name, None, moves) for moves listed; `count`: the moves in all. `moves()` is called
    at most once (the listed moves are handed out, not copied)."""

    __slots__ = ("seat", "blocks", "count")

    def __init__(self, seat: int, blocks: list, count: int):
        self.seat, self.blocks, self.count = seat, blocks, count

    def at(self, i: int) -> dict:
        if not 0 <= i < self.count:
            raise IndexError(f"move {i} of {self.count}")
        for name, domains, listed in self.blocks:
            if domains is None:
                if i < len(listed):
                    m = listed[i]
                    return {"seat": m["seat"], "alt": m["alt"], "args": list(m["args"])}
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
                args.append(d[k])
            args.reverse()
            return {"seat": self.seat, "alt": name, "args": args}
        raise IndexError(i)  # (unreachable: the count is the blocks' sizes)

    def moves(self) -> List[dict]:
        out: List[dict] = []
        seat = self.seat
        for name, domains, listed in self.blocks:
            if domains is None:
                out += listed
            elif len(domains) == 1:
                out += [{"seat": seat, "alt": name, "args": [v]} for v in domains[0]]
            else:
                out += [{"seat": seat, "alt": name, "args": [*args]} for args in product(*domains)]
        return out


    def keys(self) -> list:
        """(alternative, *arguments) of each move, in order, without the moves: a move's
        values as they are (a list stays a list: such a key is not hashable)."""
        out: list = []
        for name, domains, listed in self.blocks:
            if domains is None:
                out += [(m["alt"], *m["args"]) for m in listed]
            elif len(domains) == 1:
                out += [(name, v) for v in domains[0]]
            else:
                out += [(name, *args) for args in product(*domains)]
        return out


NO_MOVES = Table(0, [], 0)
