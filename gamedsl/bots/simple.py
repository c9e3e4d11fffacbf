"""Bots that do not search: a random legal move, or always the first."""

from __future__ import annotations

import random


class RandomBot:
    """A uniformly random legal move, from its own generator seeded by its seed and seat (the seed
    `make_bot` gives it: with the host's key, a keyed hash no other seat can work out)."""

    def __init__(self, game, seat: int, seed: int):
        self.game, self.seat = game, seat
        self.rng = random.Random(seed * 1000 + seat)

    def choose(self, state: dict) -> dict:
        # (the draw rng.choice(legal_moves) would make, without a dict per legal move)
        move = self.game.random_move(state, self.seat, self.rng)
        if move is None:
            raise IndexError("no legal move to choose from")
        return move


class FirstBot:
    """Always the first legal move (predictable; handy for tests)."""

    def __init__(self, game, seat: int, seed: int):
        self.game, self.seat = game, seat

    def choose(self, state: dict) -> dict:
        return self.game.legal_moves(state, self.seat)[0]
