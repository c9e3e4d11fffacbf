"""Rule files that check clean but would run for minutes or fill the memory stop within the
step budget, in seconds, with a diagnostic naming their line: the budget counts the work done
inside effects (moving components) and built-in functions (the lists they make), not only
statements. Each case was once a hang or "internal error: MemoryError"."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedsl.checker.checker import check
from gamedsl.errors import RuleError
from gamedsl.pipeline import load, parse_with_extends

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 20  # each stops in well under a few seconds alone; the margin is for a busy machine


def game(setup: str, head: str = "") -> str:
    return (f'game "Limits"\nplayers 2\nvar n: number = 0\n{head}setup:\n{setup}\n'
            "turn:\n  choose by current:\n    stop \"stop\":\n      end game\nscore of p: 0\n")


# name -> (the rule file, the error's code, a text the line it names holds); code None: the
# game must simply start, quickly.
CASES = {
    # 100,000 components moved one by one: linear now, not quadratic (it took 55 s)
    "move_many_copies": (game("  move token to pile", "kind token:\n  copies 100000\nzone pile of token: public\n"),
                         None, None),
    # ... and moved back and forth for ever: the components moved count
    "move_many_copies_in_a_loop": (game("  while true:\n    move token to pile\n    move token to heap",
                                        "kind token:\n  copies 100000\nzone pile of token: public\n"
                                        "zone heap of token: public\n"), "E501", "move token to"),
    # the lines of a long grid: counted before they are made (2.9 GB, MemoryError)
    "lines_of_a_long_grid": (game("  let k = len(lines(board, 1000))",
                                  "kind token:\n  copies 1\nzone board of token: public, grid 1 by 100000\n"),
                             "E501", "lines(board"),
    # a comprehension of ranges: each range made is counted (MemoryError)
    "comprehension_of_ranges": (game("  let l = [range(1, 100000) for x in range(1, 100000)]\n  n = len(l)"),
                                "E501", "let l ="),
    # one list held 100,000 times, written out: measured first (MemoryError)
    "text_of_a_list_held_many_times": (game("  let l = range(1, 100000)\n  say text([l for x in range(1, 100000)])"),
                                       "E504", "say text"),
    # ... kept in a variable: its written size counts
    "list_held_many_times_kept": (game("  let l = range(1, 100000)\n  let a = [l for x in range(1, 100000)]\n"
                                       "  n = len(a)"), "E504", "let a ="),
    # two lists holding one list each many times, compared: once per pair of lists (10^10 comparisons)
    "deep_equality": (game("  let l = range(1, 100000)\n  let m = range(1, 100000)\n"
                           "  if [l for x in range(1, 100000)] == [m for x in range(1, 100000)]:\n    n = 1"),
                      None, None),
    # a comparison of long lists in a loop, under the default budget (minutes)
    "equality_in_a_loop": (game("  let l = range(1, 100000)\n  let m = range(1, 100000)\n  while true:\n"
                                "    if l == m:\n      n += 1"), "E501", "while true"),
    # a loop whose every turn makes and walks a long list, under the default budget (minutes)
    "long_lists_in_a_loop": (game("  while true:\n    n = len([x for x in range(1, 100000)])"),
                             "E501", "while true"),
    # a long text searched in a loop
    "text_search_in_a_loop": (game('  let t = join([text(x) for x in range(1, 100000)], "")\n  while true:\n'
                                   '    if "zz" in t:\n      n += 1'), "E501", "while true"),
}


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 ** 2, 1536 * 1024 ** 2))


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.game"
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize("name", sorted(CASES))
def test_it_checks_clean(name):
    loaded = parse_with_extends(f"{name}.game", CASES[name][0])
    diags = list(loaded.diagnostics) + list(check(loaded.game, loaded.sources).diagnostics)
    assert not [d for d in diags if d.is_error], diags


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_engine_stops_it_at_its_line_in_seconds(name, tmp_path):
    text, code, where = CASES[name]
    path = write(tmp_path, name, text)
    start = time.monotonic()
    g = load(str(path))
    if code is None:
        g.new_game(2, 0)
    else:
        with pytest.raises(RuleError) as err:
            g.new_game(2, 0)
        assert err.value.code == code, err.value
        assert where in text.splitlines()[err.value.span.line - 1], err.value
    assert time.monotonic() - start < SECONDS


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n][1]))
def test_play_says_where_within_a_memory_bound(name, tmp_path):
    """The command itself, in 1.5 GB: the diagnostic, never "internal error"."""
    text, code, where = CASES[name]
    path = write(tmp_path, name, text)
    done = subprocess.run([sys.executable, "-m", "gamedsl", "play", str(path), "--seats", "random,random"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, preexec_fn=_limit_memory,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr and f"error[{code}]" in done.stderr, done.stderr
    line = int(re.search(rf"{re.escape(path.name)}:(\d+):", done.stderr).group(1))
    assert where in text.splitlines()[line - 1]


def test_the_budget_counts_values_gone_through():
    """--max-steps 4000 stops a loop of cheap statements and a loop of expensive ones alike."""
    for setup in ("  while true:\n    n += 1", "  while true:\n    n = len(range(1, 50000))"):
        g = load("budget.game", text=game(setup), max_steps=4000)
        with pytest.raises(RuleError) as err:
            g.new_game(2, 0)
        assert err.value.code == "E501" and "4000 steps" in err.value.message


def test_the_real_games_run_well_within_the_default_budget():
    """The default budget (language.DEFAULT_MAX_STEPS) was chosen from the most the real
    games use: a tenth of it must do for each of them."""
    import random

    from gamedsl.language import DEFAULT_MAX_STEPS

    for path in sorted(ROOT.glob("games/*.game")) + sorted(ROOT.glob("examples/*.game")):
        g = load(str(path), max_steps=DEFAULT_MAX_STEPS // 10)
        rnd = random.Random(1)
        state = g.new_game(g.max_players, 1)
        for _ in range(60):
            if g.is_over(state):
                break
            state = g.apply_legal(state, rnd.choice(g.legal_moves(state)))
