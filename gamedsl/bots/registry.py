"""The one registry of seat kinds: `human` and every bot, and how a seat spec becomes a player.

`gamedsl play`, `simulate`, `compare` and the docs read the kinds from here; a bot kind is
a factory `(game, seat, seed[, params]) -> bot` whose bot answers `choose(state) -> move`.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from gamedsl.bots.external import ExternalBot
from gamedsl.bots.search import GreedyBot, MctsBot
from gamedsl.bots.simple import FirstBot, RandomBot
from gamedsl.bots.spec import seat_seed, split_spec
from gamedsl.errors import UsageError

# kind -> factory; None for a person at the terminal
SEAT_KINDS: Dict[str, Optional[Callable]] = {
    "human": None,
    "random": RandomBot,
    "first": FirstBot,
    "greedy": GreedyBot,
    "mcts": MctsBot,
    "cmd": ExternalBot,
}
# the kinds that take parameters after ':' (`mcts:iters=200`, `cmd:./bot.py`)
TAKES_PARAMETERS = frozenset({"greedy", "mcts", "cmd"})


def seat_kinds() -> Dict[str, Optional[Callable]]:
    """Every kind of seat: `human` (None) and the bots."""
    return dict(SEAT_KINDS)


def bot_kinds() -> List[str]:
    return [k for k, factory in SEAT_KINDS.items() if factory is not None]


def parse_seats(text: str) -> List[str]:
    """Seat specs: a kind, optionally with parameters after ':' (kept as typed: `cmd:./Bot.py`)."""
    seats = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in seats):
        raise UsageError(f"--seats wants a comma-separated list of seat kinds, e.g. human,random "
                         f"(kinds: {', '.join(SEAT_KINDS)})")
    out = []
    for s in seats:
        name, _, params = s.partition(":")
        name = name.strip().lower()
        if name not in SEAT_KINDS:
            raise UsageError(f"unknown seat kind '{name}' (kinds: {', '.join(SEAT_KINDS)})")
        if params and name not in TAKES_PARAMETERS:
            raise UsageError(f"seat kind '{name}' takes no parameters (not '{s}')")
        if params:
            SEAT_KINDS[name].check_params(params)
        out.append(f"{name}:{params}" if params else name)
    return out


def make_seat(spec: str, game, seat: int, seed: int, key: Optional[str] = None):
    """The bot playing a seat (None for a human); a spec's parameters go to its factory.
    With the host's `key`, the bot's seed is derived from it (see `seat_seed`)."""
    name, _, params = spec.partition(":")
    name = name.strip().lower()
    factory = SEAT_KINDS[name]
    if factory is None:
        return None
    seed = seat_seed(seed, seat, name, key)
    return factory(game, seat, seed, params) if params else factory(game, seat, seed)


def make_bot(spec: str, game, seat: int, seed: int, key: Optional[str] = None):
    """A bot for one seat from its spec (`random`, `greedy`, `mcts:iters=200`, `cmd:./bot.py`)."""
    name, params = split_spec(spec)
    factory = SEAT_KINDS.get(name)
    if factory is None:
        raise UsageError(f"unknown bot '{name}' (bots: {', '.join(bot_kinds())})")
    seed = seat_seed(seed, seat, name, key)
    return factory(game, seat, seed, params) if params else factory(game, seat, seed)
