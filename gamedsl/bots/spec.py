"""Seat specs as typed (`mcts:iters=200:c=1`), their parameters, and each bot's own generator."""

from __future__ import annotations

import math
import random
from typing import Dict, Optional, Tuple

from gamedsl.errors import UsageError
from gamedsl.runtime.rng import keyed


def split_spec(spec: str):
    """`mcts:iters=200:c=1` -> ("mcts", "iters=200:c=1")."""
    name, _, params = spec.strip().partition(":")
    return name.strip().lower(), params.strip()


Param = Tuple[type, float, float]   # (int or float, the least, the most)


def parse_params(text: str, allowed: Dict[str, Param], kind: str) -> dict:
    """`iters=200:c=1.5` as a dict, each value converted to its declared type and checked to
    lie in its declared range: this is where every number a user types in a seat spec is read,
    so a `c=nan` or a `samples=999999999999` is a clear error here, not a crash (or all the
    memory) in the middle of a game."""
    out: dict = {}
    for part in [p for p in text.split(":") if p.strip()]:
        key, eq, raw = part.partition("=")
        key = key.strip().lower()
        if not eq or key not in allowed:
            names = ", ".join(f"{k}=" for k in allowed) or "none"
            raise UsageError(f"bot '{kind}' does not take '{_shown(part)}' (its parameters: {names})")
        typ, least, most = allowed[key]
        raw = raw.strip()
        what = "a whole number" if typ is int else "a number"
        span = f"{what} from {_number(least)} to {_number(most)}"
        try:
            value = typ(raw)
        except (ValueError, OverflowError):
            raise UsageError(f"bot '{kind}': {key} must be {span}, not '{_shown(raw)}'") from None
        if (typ is float and not math.isfinite(value)) or not least <= value <= most:
            raise UsageError(f"bot '{kind}': {key} must be {span}, not '{_shown(raw)}'")
        out[key] = value
    return out


def _number(x) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _shown(text: str, most: int = 40) -> str:
    """A typed text as an error repeats it: one line, not all of a long one."""
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= most else text[:most] + "..."


def seat_seed(seed: int, seat: int, kind: str, key: Optional[str] = None) -> int:
    """The seed a seat's bot is made with. Without a key, the game's seed (every bot then mixes
    in its seat and kind, so whoever knows the seed can predict it); with the host's key, a
    keyed hash of seed, seat and kind: one seat's draws tell nothing of another's, nor of the deal."""
    return seed if key is None else keyed(key, f"bot:{kind}:{seat}:{seed}", bits=128)


def bot_rng(seed: int, seat: int, kind: str, extra: Optional[int] = None) -> random.Random:
    """The bot's own generator: the same game seed, seat and kind always give the same draws."""
    return random.Random(f"{kind}:{seed}:{seat}:{extra}")
