"""gamedsl: board-game rules as text, checked, played and simulated.

The public API: `load` a game file into a `Game`, or `check` files for their diagnostics;
a `Game` is played through `new_game`, `legal_moves`, `apply`, `view`, `is_over` and
`results` over plain-data states. Every error raised on purpose is a `GamedslError`.
"""

from gamedsl.diagnostics import Diagnostic, Span, render_all, to_json
from gamedsl.errors import GameError, GamedslError, MoveError, OptionError, RuleError, UsageError
from gamedsl.pipeline import check_files as check
from gamedsl.pipeline import load
from gamedsl.runtime.game import TIMEOUT_TEXT, Game
from gamedsl.runtime.machine import TIMEOUT
from gamedsl.runtime.rng import new_key
from gamedsl.runtime.state import clone

__all__ = [
    "Diagnostic", "Game", "GameError", "GamedslError", "MoveError", "OptionError", "RuleError", "Span",
    "TIMEOUT", "TIMEOUT_TEXT", "UsageError", "check", "clone", "load", "new_key", "render_all", "to_json",
]
