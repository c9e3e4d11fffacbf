"""What the commands share: reading `--option`, `--max-steps` and `--max-turns`, loading a game
for a command (its warnings pointed out once), and writing an error line."""

from __future__ import annotations

import sys
from typing import List, Optional

from gamedsl.errors import UsageError
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


def max_steps(args) -> Optional[int]:
    """The step budget asked for with --max-steps (None: the engine's default)."""
    value = getattr(args, "max_steps", None)
    if value is not None and value < 1:
        raise UsageError("--max-steps must be at least 1")
    return value


def add_max_steps(p) -> None:
    p.add_argument("--max-steps", type=int, default=None, metavar="N",
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

