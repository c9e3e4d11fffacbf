"""The language's fixed surface shared by every stage: the grammar's text and the limits.

Kept in one leaf module so that the parser, the checker and the runtime read the same
numbers without importing one another.
"""

from __future__ import annotations

from pathlib import Path

MAX_SOURCE_BYTES = 4 * 1024 * 1024  # larger sources are refused before they are read or parsed


def grammar_text() -> str:
    """The grammar: installed as package data (gamedsl/grammar/), or in a checkout, grammar/.
    Found by path rather than with importlib.resources, whose import costs every run ~30 ms."""
    here = Path(__file__).resolve().parent
    installed = here / "grammar" / "gamedsl.lark"
    return (installed if installed.is_file() else here.parent / "grammar" / "gamedsl.lark").read_text("utf-8")


# Rules compute with small numbers (points, counts, positions). Far larger ones are a
# runaway (x *= x in a loop), which would eat memory and time, or overflow a float:
# they stop the rule (E504) instead. Texts and lists that grow without end likewise.
MAX_NUMBER = 10**15
MAX_FAMILY = 100  # zones in one zone family: each is listed, shown and walked like a declared one


# Statements one run of the rules (from a move to the next decision) may carry out, each
# WORK_PER_STEP values its expressions go through counting as one more (runtime/ctx.py).
# The real games need at most ~240 (the largest, a word game's setup, measured over random
# games of every game in games/ and examples/): 10,000 leaves them forty times that, and stops a
# runaway within a few seconds, not minutes.
DEFAULT_MAX_STEPS = 10_000


DEFAULT_MAX_TURNS = 5_000
