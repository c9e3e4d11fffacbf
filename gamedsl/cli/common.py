"""What the commands share: reading `--option`, `--max-steps` and `--max-turns`, loading a game
for a command (its warnings pointed out once), and writing an error line."""

from __future__ import annotations

import argparse
import re
import sys
from typing import List, Optional

from gamedsl.errors import UsageError
from gamedsl.text import visible
from gamedsl.language import DEFAULT_MAX_STEPS
from gamedsl.pipeline import load
from gamedsl.runtime.rng import check_key


def check_seat_count(game, seats: list, written: str = "") -> None:
    """UsageError unless the game is for as many players as there are seats."""
    if not game.info.accepts_players(len(seats)):
        shown = f": {written}" if written else ""
        raise UsageError(f"{game.title} is for {game.info.players_text()} players, but --seats names {len(seats)}{shown}")


def error(message: str) -> None:
    print(f"gamedsl: error: {message}", file=sys.stderr)


def parse_options(pairs: List[str]) -> dict:
    options = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise UsageError(f"--option wants NAME=VALUE, not '{pair}'")
        options[name.strip()] = value.strip()
    return options


def parse_key(text: Optional[str]) -> Optional[str]:
    """The secret key given with --key (None if none was)."""
    if text is None:
        return None
    try:
        return check_key(text.strip())
    except ValueError as err:
        raise UsageError(f"--key: {err}, not '{text[:40]}'") from None


def whole_number(flag: str, lo: int, hi: int):
    """An argparse type for `flag`: a whole number from lo to hi, or one line saying what is
    wanted (not Python's own words, nor a 5,000-digit number echoed back)."""
    def parse(text: str) -> int:
        t = text.strip()
        value = int(t) if re.fullmatch(r"[+-]?[0-9]{1,30}", t) else None
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"wants a whole number from {lo:,} to {hi:,}, not '{shown(text)}'")
        return value
    parse.__name__ = "number"
    return parse


def shown(text: str, most: int = 24) -> str:
    """What a person typed, as a message repeats it: control characters made visible, and
    not all of a long text."""
    text = visible(text)
    return text if len(text) <= most else text[:most] + "…"


# The largest numbers the command line takes: beyond them a run would never end, or a seed
# would not fit the generator's 64 bits.
MAX_SEED = 2**64 - 1
MAX_TURNS_ASKED = 10**7
MAX_GAMES_ASKED = 10**7
MAX_JOBS_ASKED = 1024
MAX_STEPS_ASKED = 10**9   # (a budget larger than this is no budget: a runaway would run for days)


def max_steps(args) -> Optional[int]:
    """The step budget asked for with --max-steps (None: the engine's default)."""
    value = getattr(args, "max_steps", None)
    if value is not None and value < 1:
        raise UsageError("--max-steps must be at least 1")
    return value


def add_max_steps(p) -> None:
    p.add_argument("--max-steps", type=whole_number("--max-steps", 1, MAX_STEPS_ASKED), default=None, metavar="N",
                   help="statements the rules may run without waiting for a player before they are "
                        f"stopped as a runaway loop (error E501; default {DEFAULT_MAX_STEPS:,})")


def load_game(path: str, steps: Optional[int] = None):
    game = load(path, max_steps=steps)
    warnings = getattr(game, "warnings", [])
    if warnings:
        n = len(warnings)
        print(f"gamedsl: {path} has {n} warning{'s' if n != 1 else ''} (see them: gamedsl check {path})",
              file=sys.stderr)
    return game

