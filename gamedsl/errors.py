"""Errors raised while a game runs: a rule that fails (RuleError) and a refused move (MoveError).

Both carry enough to be rendered as one clear line at the edge; neither leaves a
partly changed state behind, because the engine applies moves to a copy.
"""

from typing import Optional

from .ast import Span
from .diagnostics import Diagnostic


class RuleError(Exception):
    """A rule could not be carried out (runaway loop, empty list, missing table row...)."""

    def __init__(self, code: str, message: str, span: Optional[Span] = None, hint: Optional[str] = None):
        super().__init__(message)
        self.code, self.message, self.span, self.hint = code, message, span, hint

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.code, self.message, self.span, self.hint)

    def __str__(self) -> str:
        where = f"{self.span.file}:{self.span.line}:{self.span.col}: " if self.span else ""
        return f"{where}error[{self.code}]: {self.message}"


class MoveError(Exception):
    """A move was refused; the state is unchanged. kind: illegal, not_your_turn, game_over, malformed."""

    def __init__(self, message: str, kind: str = "illegal"):
        super().__init__(message)
        self.message, self.kind = message, kind
