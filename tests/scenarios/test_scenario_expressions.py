"""A scenario's expressions and `given:` statements are not type-checked: whatever a
scenario writes, `gamedsl test` reports a failure with a message (a rule error, a
refusal), never an internal error.

Random expressions over Wordomino's names (a grid, a word list, tiles with faces, tables,
an enum, player zones) and every function of the language, with arguments of every kind.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from gamedsl.runtime import builtins as B
from gamedsl.scenario import run_file

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "wordomino.game"

ATOMS = ["none", "0", "1", "-3", "2.5", "10 / 3", '"a"', '""', '"うき"', "[]", "[1, 2]", '[1, "a"]',
         "[[0, 0], [1, 0]]", "(0, 0)", "p1", "p2", "current", "players", "true", "round", "table", "nouns", "p1.hand", "pile1",
         "right", "tiles", "first(p1.hand)", "p1.points", "p1.words", "passes", "ending", "scores", "said",
         "winners", "over", "999999999999999", "[none]", "tiles[1]", 'katakana["ア"]']
OPERATORS = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", ">=", "in", "not in", "and", "or"]


def _expr(rng: random.Random, depth: int = 0) -> str:
    k = rng.random()
    if depth > 2 or k < 0.3:
        return rng.choice(ATOMS)
    if k < 0.65:
        name = rng.choice(sorted(B.FUNCTIONS))
        args = ", ".join(_expr(rng, depth + 1) for _ in range(rng.choice([0, 1, 1, 2, 2, 3])))
        return f"{name}({args})"
    if k < 0.8:
        return f"({_expr(rng, depth + 1)} {rng.choice(OPERATORS)} {_expr(rng, depth + 1)})"
    if k < 0.87:
        return f"{_expr(rng, depth + 1)}[{_expr(rng, depth + 1)}]"
    if k < 0.92:
        return f"{_expr(rng, depth + 1)}.{rng.choice(['cell1', 'level', 'hand', 'points', 'x'])}"
    if k < 0.96:
        return f"[v for v in {_expr(rng, depth + 1)} if {_expr(rng, depth + 1)}]"
    return f"(sort v in {_expr(rng, depth + 1)} by most {_expr(rng, depth + 1)})"


def test_random_expressions_in_a_scenario_fail_with_a_message(tmp_path):
    rng = random.Random(11)
    lines = [f'game "{os.path.relpath(GAME, tmp_path)}"', ""]
    for i in range(400):
        lines += [f'scenario "e{i}":', f"  expect {_expr(rng)} == 1", ""]
    path = tmp_path / "random.scenario"
    path.write_text("\n".join(lines), "utf-8")
    results = run_file(str(path))
    # one result per scenario: the file parses, so none of them is lost to one bad line
    assert len(results) == 400
    for r in results:
        assert r.passed or r.reason, r.title
        assert "internal error" not in (r.reason or "") and "Traceback" not in (r.reason or ""), \
            f"{r.title}: {r.reason}"


ZONES = ["table", "pile1", "p1.hand", "p2.hand", "pile3", "x", "none", "first(players).hand", "[1]"]
OWNERS = ["p1", "current", "first(players)", "none", "x", "pile1"]


def _statement(rng: random.Random) -> str:
    e = lambda: _expr(rng, 1)  # noqa: E731
    zone = lambda: rng.choice(ZONES)  # noqa: E731
    return rng.choice([
        lambda: f"move {e()} to {zone()}",
        lambda: f"move {e()} to table at {e()}",
        lambda: f"move {e()} to top of {zone()}",
        lambda: f"draw {e()} from {zone()} to {zone()}",
        lambda: f"shuffle {zone()}",
        lambda: f"{rng.choice(OWNERS)}.points = {e()}",
        lambda: f"passes += {e()}",
        lambda: f"ending = {e()}",
        lambda: f"p1.words[{e()}] = {e()}",
        lambda: f"let v = {e()}",
        lambda: f"say {e()}",
        lambda: f"next turn {e()}",
        lambda: f"end game winner {e()}",
        lambda: f"start_player = {e()}",
        lambda: f"if {e()}:\n      pass",
        lambda: f"for v in {e()}:\n      pass",
        lambda: f"repeat {e()} times:\n      pass",
    ])()


def test_random_given_statements_fail_with_a_message(tmp_path):
    """`given:` runs rule statements that were not checked either."""
    rng = random.Random(5)
    lines = [f'game "{os.path.relpath(GAME, tmp_path)}"', ""]
    for i in range(300):
        lines += [f'scenario "g{i}":', "  given:", f"    {_statement(rng)}", "  expect over or not over", ""]
    path = tmp_path / "given.scenario"
    path.write_text("\n".join(lines), "utf-8")
    results = run_file(str(path))
    assert len(results) == 300, results[0].reason
    for r in results:
        assert "internal error" not in (r.reason or "") and "Traceback" not in (r.reason or ""), \
            f"{r.title}: {r.reason}"
