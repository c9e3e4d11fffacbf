"""Kept so that `from gamedsl.engine import Game` goes on working: use `gamedsl.Game`."""

from gamedsl.errors import OptionError
from gamedsl.runtime.game import Game, apply, is_over, legal_moves, new_game, results, view
from gamedsl.runtime.state import clone

__all__ = ["Game", "OptionError", "apply", "clone", "is_over", "legal_moves", "new_game", "results", "view"]
