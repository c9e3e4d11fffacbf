"""Seat specs as typed (`mcts:iters=200:c=1`), their parameters, and each bot's own generator."""

from __future__ import annotations

import random
from typing import Dict, Optional

from gamedsl.errors import UsageError
from gamedsl.runtime.rng import keyed


def split_spec(spec: str):
    """`mcts:iters=200:c=1` -> ("mcts", "iters=200:c=1")."""
    name, _, params = spec.strip().partition(":")
    return name.strip().lower(), params.strip()


def parse_params(text: str, allowed: Dict[str, type], kind: str) -> dict:
    """`iters=200:c=1.5` as a dict, each value converted to its declared type."""
    out: dict = {}
    for part in [p for p in text.split(":") if p.strip()]:
        key, eq, raw = part.partition("=")
        key = key.strip().lower()
        if not eq or key not in allowed:
            names = ", ".join(f"{k}=" for k in allowed) or "none"
            raise UsageError(f"bot '{kind}' does not take '{part}' (its parameters: {names})")
        try:
            value = allowed[key](raw.strip())
        except ValueError:
            raise UsageError(f"bot '{kind}': {key} must be a {allowed[key].__name__}, not '{raw.strip()}'") from None
        if isinstance(value, (int, float)) and value < 0:
            raise UsageError(f"bot '{kind}': {key} cannot be negative")
        out[key] = value
    return out


def seat_seed(seed: int, seat: int, kind: str, key: Optional[str] = None) -> int:
    """The seed a seat's bot is made with. Without a key, the game's seed (every bot then mixes
    in its seat and kind, so whoever knows the seed can predict it); with the host's key, a
    keyed hash of seed, seat and kind: one seat's draws tell nothing of another's, nor of the deal."""
    return seed if key is None else keyed(key, f"bot:{kind}:{seat}:{seed}", bits=128)


def bot_rng(seed: int, seat: int, kind: str, extra: Optional[int] = None) -> random.Random:
    """The bot's own generator: the same game seed, seat and kind always give the same draws."""
    return random.Random(f"{kind}:{seed}:{seat}:{extra}")
