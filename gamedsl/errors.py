"""Every error gamedsl raises on purpose, under one root, so an edge catches them once.

- `GameError`: a rule file cannot be used (its diagnostics, collected);
- `RuleError`: a rule could not be carried out while playing;
- `MoveError`: a move was refused (the state is unchanged);
- `OptionError`: an option value the game does not accept;
- `UsageError`: anything else a person typed or gave that cannot be used (a seat, a log, a file).

Each says which exit code the command line gives it: 1 when the rules are at fault, 2 when
the input is. None leaves a partly changed state behind: moves are applied to a copy.
"""

from __future__ import annotations

from typing import Iterable, Optional

from gamedsl.diagnostics import Diagnostic, Span


class GamedslError(Exception):
    """The root: what gamedsl raises on purpose, with a message meant for a person."""

    exit_code = 1


class GameError(GamedslError):
    """Raised where collecting is impossible (a file that cannot be read at all, a rule error
    while playing); carries its diagnostics so the edge can render them."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


class RuleError(GamedslError):
    """A rule could not be carried out (runaway loop, empty list, missing table row...)."""

    def __init__(self, code: str, message: str, span: Optional[Span] = None, hint: Optional[str] = None):
        super().__init__(message)
        self.code, self.message, self.span, self.hint = code, message, span, hint

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.code, self.message, self.span, self.hint)

    def __str__(self) -> str:
        where = f"{self.span.file}:{self.span.line}:{self.span.col}: " if self.span else ""
        return f"{where}error[{self.code}]: {self.message}"


class MoveError(GamedslError):
    """A move was refused; the state is unchanged. kind: illegal, not_your_turn, game_over, malformed."""

    exit_code = 2

    def __init__(self, message: str, kind: str = "illegal"):
        super().__init__(message)
        self.message, self.kind = message, kind


class OptionError(GamedslError, ValueError):
    """An option the game does not have, or a value it does not accept."""

    exit_code = 2


class UsageError(GamedslError):
    """A problem reported as one line, `gamedsl: error: ...`; exit_code 2 for bad input, 1 otherwise."""

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.message, self.exit_code = message, exit_code
