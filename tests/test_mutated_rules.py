"""Broken rule files never crash: every mutant of a real file ends in diagnostics or a game.

Tokens of the example files are deleted, duplicated, swapped or replaced; each mutant
is loaded (parse, check, compile) and, if it loads, played for a few random moves.
Anything but diagnostics (GameError) or a rule error (RuleError) is a bug.
"""

import random
from pathlib import Path

import pytest

from gamedsl.diagnostics import GameError
from gamedsl.errors import RuleError
from gamedsl.loader import load

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for p in (ROOT / "examples").glob("*.game") if "extends" not in p.read_text())
ODD = ["(", ")", "[", "]", ":", "|", '"', "", "9" * 30, "-", "..", "ね", "none", "0", "players",
       "current", "p.hand", "+", "*", "==", "true", "\t", "then", "#", "  ", "\n"]


def mutate(text: str, rng: random.Random) -> str:
    tokens = text.replace("\n", " \n ").split(" ")
    for _ in range(rng.randint(1, 3)):
        j = rng.randrange(len(tokens))
        op = rng.random()
        if op < 0.3:
            del tokens[j]
        elif op < 0.55:
            tokens.insert(j, rng.choice(tokens))
        elif op < 0.8:
            k = rng.randrange(len(tokens))
            tokens[j], tokens[k] = tokens[k], tokens[j]
        else:
            tokens[j] = rng.choice(ODD)
    return " ".join(tokens).replace(" \n ", "\n")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_mutants_end_in_diagnostics_or_a_game(tmp_path, source):
    rng = random.Random(source.stem)
    text = source.read_text()
    loaded = 0
    for n in range(150):
        mutant = mutate(text, rng)
        path = tmp_path / f"mutant{n}.game"
        try:
            game = load(str(path), text=mutant)
        except GameError as err:
            assert err.diagnostics, mutant
            continue
        loaded += 1
        try:
            state = game.new_game(game.min_players, seed=n)
            for _ in range(30):
                if game.is_over(state):
                    break
                state = game.apply(state, rng.choice(game.legal_moves(state)))
            game.results(state)
        except RuleError as err:
            assert err.code.startswith("E5"), mutant
    assert loaded > 0  # some mutants still load: the test exercises the engine too
