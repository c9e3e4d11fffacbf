"""tools/lockstep.py, the differential harness for a second back end: the engine against a
fresh load of itself passes; a variant that differs in one rule, or only in how a move is
written, is caught at the first move where it shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamedsl.bots.registry import make_bot
from gamedsl import load
from tools.lockstep import Divergence, lockstep

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "tictactoe.game"


def variant(old: str, new: str):
    text = TICTACTOE.read_text("utf-8")
    assert text.count(old) == 1
    return load(str(TICTACTOE), text=text.replace(old, new))


@pytest.mark.parametrize("path, games, bot", [
    ("examples/tictactoe.game", 6, "random"),
    ("examples/tictactoe.game", 2, "greedy"),
    ("examples/pearl_auction.game", 3, "random"),  # secret choices: two seats wait at once
    ("games/trade_tycoon.game", 1, "random"),
])
def test_the_engine_agrees_with_a_fresh_load_of_itself(path, games, bot):
    a, b = load(str(ROOT / path)), load(str(ROOT / path))
    for seed in range(games):
        results = lockstep(a, b, a.min_players, seed, bot=bot)
        assert results["finished"]


def first_win(game, seed: int) -> int:
    """The number of the move that completes a line in the random game of `seed` (0: none)."""
    bots = [make_bot("random", game, s, seed) for s in range(2)]
    state, moved = game.new_game(2, seed), 0
    while not game.is_over(state):
        state = game.apply(state, bots[game.waiting_for(state)[0]].choose(state))
        moved += 1
    return moved if game.results(state)["winners"] and len(game.results(state)["winners"]) == 1 else 0


def test_a_rule_changed_is_reported_at_the_first_move_where_it_shows():
    a = load(str(TICTACTOE))
    b = variant("end game winner current", "end game")  # a line ends the game, and nobody wins
    seeds = [seed for seed in range(10) if first_win(a, seed)]
    assert seeds
    for seed in seeds:
        # the moves played only: the winning move is the first difference
        with pytest.raises(Divergence) as caught:
            lockstep(a, b, 2, seed, refusals=False)
        d = caught.value
        assert (d.seed, d.move, d.what) == (seed, first_win(a, seed), "states (at .flow.winner)")
        assert d.a in (0, 1) and d.b is None
        assert f"after move {d.move} (place" in str(d)
        # with made-up moves sent too, a winning move tried may show it sooner
        with pytest.raises(Divergence) as caught:
            lockstep(a, b, 2, seed)
        d = caught.value
        assert d.move <= first_win(a, seed) and d.what.endswith("(at .flow.winner)")
    # where no line is ever completed, the two are the same game
    for seed in range(10):
        if seed not in seeds:
            assert lockstep(a, b, 2, seed)["winners"] == [0, 1]


def test_a_move_written_differently_shows_in_the_refusals():
    a = load(str(TICTACTOE))
    b = variant('"place {c}"', '"put {c}"')  # the same rules; a refused move is quoted as written
    with pytest.raises(Divergence) as caught:
        lockstep(a, b, 2, 0)
    d = caught.value
    assert d.move == 0 and d.what.startswith("outcomes of sending")
    assert "place" in str(d.a) and "put" in str(d.b)


def test_the_command_line():
    def run(*args):
        return subprocess.run([sys.executable, "tools/lockstep.py", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, check=False)

    same = run("examples/tictactoe.game", "--games", "3", "--seed", "5")
    assert same.returncode == 0, same.stderr
    assert "3 games of Tic-tac-toe" in same.stdout and "seeds 5-7" in same.stdout
    differ = run("examples/pearl_auction.game", "--against", "examples/pearl_auction_variant.game", "--games", "1")
    assert differ.returncode == 1, differ.stderr
    assert "before the first move: states (at .options." in differ.stdout
    for bad, said in [(("examples/no_such.game",), "cannot read 'examples/no_such.game'"),
                      (("examples/tictactoe.game", "--bot", "nobody"), "unknown bot 'nobody'"),
                      (("examples/tictactoe.game", "--players", "5"), "is for 2 players, not 5"),
                      (("examples/tictactoe.game", "--option", "ties"), "--option takes NAME=VALUE")]:
        refused = run(*bad)
        assert refused.returncode == 2 and said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
