"""The benchmark commands the READMEs name still run and print their tables (with tiny
budgets: the figures themselves are never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def table_rows(out: str, first_cell: str) -> list:
    return [line.split("|")[1:-1] for line in out.splitlines() if line.startswith(f"| {first_cell}")]


def test_run_prints_every_column_for_each_game_and_the_simulate_table():
    out = run_script("benchmarks/run.py", "--seconds", "0.2", "--decisions", "1", "--sim-seconds", "0.1",
                     "examples/quick_count.game", "games/trade_tycoon.game")
    header = table_rows(out, "game | check")[0]
    assert len(header) == 10
    for game in ("examples/quick_count.game", "games/trade_tycoon.game"):
        (row,) = [r for r in table_rows(out, game) if len(r) == 10]
        assert all(cell.strip() not in ("", "nan") for cell in row), row
    # only the games in games/ are simulated, on 1 and 2 processes
    simulated = [r for r in table_rows(out, "games/") if len(r) == 5]
    assert [r[0].strip() for r in simulated] == ["games/trade_tycoon.game"]
    assert not list(ROOT.glob("examples/.bench-edited-*")), "the edited copies are removed"


def test_side_by_side_table_has_the_direct_simulator():
    out = run_script("benchmarks/handwritten_vs_game.py", "--games", "3", "--rounds", "1", "--sim-rounds", "0")
    assert [r[1].strip() for r in table_rows(out, "")
            if len(r) == 4 and r[0].strip() in ("checked", "in place")] == \
        [".game", ".game interpreted", "hand-written", "direct"] * 2
    ratios = [r for r in table_rows(out, "") if len(r) == 7 and r[0].strip() in ("checked", "in place")]
    assert len(ratios) == 2
    for row in ratios:
        assert all(cell.strip() not in ("", "nan") for cell in row), row


def test_the_direct_simulator_runs_alone_as_the_readme_says():
    out = run_script("benchmarks/direct/trade_tycoon.py", "20")
    assert re.fullmatch(r"\d+ games per CPU-second\n", out), out


def test_tree_walk_runs_and_the_plain_walk_counts_the_known_tree():
    out = run_script("benchmarks/tree_walk.py", "--limit", "200")
    rows = {r[0].strip(): [c.strip() for c in r[1:]] for r in table_rows(out, "")}
    api = rows["API (`legal_moves` + `apply`)"]
    assert api[0] == "200" and sum(map(int, api[1:4])) == 200
    assert rows["plain Python, tic-tac-toe"][:4] == ["255168", "131184", "77904", "46080"]
    assert "plain Python / API" in out


def test_tree_walk_walks_the_handwritten_game_through_the_same_api():
    out = run_script("benchmarks/tree_walk.py", "--handwritten", "--limit", "200")
    assert "(by hand, first 200 games)" in out
    rows = {r[0].strip(): [c.strip() for c in r[1:]] for r in table_rows(out, "")}
    api = rows["API (`legal_moves` + `apply`)"]
    assert api[0] == "200" and sum(map(int, api[1:4])) == 200


def test_tree_walk_walks_a_game_through_the_api_alone():
    from collections import Counter

    from benchmarks.tree_walk import by_result, walk
    from gamedsl import load

    game = load(str(ROOT / "examples" / "tictactoe.game"))
    state = game.new_game(2)
    for cell in ([1, 1], [0, 0], [0, 1], [2, 1]):  # X centre, O corner, X left, O right: 5 empty cells
        (move,) = [m for m in game.legal_moves(state) if m["args"] == [cell]]
        state = game.apply(state, move)
    counts = by_result(walk(game, state, Counter()), first_seat=0)
    # the same continuations walked in plain Python (cell [x, y] is board[3 * y + x])
    assert counts == plain_continuations([2, 0, 0, 1, 1, 2, 0, 0, 0], player=1)


def plain_continuations(board, player):
    from benchmarks.tree_walk import LINES

    out = {"games": 0, "first": 0, "second": 0, "draw": 0}

    def go(player):
        empty = board.count(0)
        for cell in range(9):
            if board[cell] == 0:
                board[cell] = player
                if any(board[a] == board[b] == board[c] == player for a, b, c in LINES):
                    out["first" if player == 1 else "second"] += 1
                elif empty == 1:
                    out["draw"] += 1
                else:
                    go(3 - player)
                board[cell] = 0

    go(player)
    out["games"] = out["first"] + out["second"] + out["draw"]
    return out


def test_instruction_workloads_run_and_repeat_themselves():
    # (what each run under callgrind does; a count is only worth comparing if the same
    # workload makes the same moves every time)
    for mode, n in (("inplace", "2"), ("checked", "2"), ("tree", "20"), ("greedy", "2"), ("mcts", "2"),
                    ("playouts", "2")):
        args = ("benchmarks/instructions.py", "--run", mode, "examples/tictactoe.game", n)
        first = run_script(*args)
        moves = int(first.split(": ")[1].split()[0])
        assert moves > 0, first
        assert run_script(*args) == first
    assert run_script("benchmarks/instructions.py", "--run", "tree", "examples/tictactoe.game", "20").startswith(
        "tree examples/tictactoe.game 20: 20 games")


def test_first_game_compares_a_process_with_and_without_the_code_kept():
    out = run_script("benchmarks/first_game.py", "--rounds", "1", "examples/tictactoe.game")
    (row,) = [r for r in table_rows(out, "examples/tictactoe.game")]
    compiled, kept, _, sources, later = (float(cell) for cell in row[1:])
    assert sources >= 1 and compiled > 0 and kept > 0 and later > 0
