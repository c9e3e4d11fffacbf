"""What a person is shown of a game of hands where the lowest score wins: the header's counter
instead of the engine's round, and the end's ranking with the scores as counted."""

from __future__ import annotations

import io
from pathlib import Path

from gamedsl.cli.screen import make_console
from gamedsl.cli.terminal import play_game, render_result, render_view
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]


def test_the_header_shows_the_counter_instead_of_the_round():
    game = load(str(ROOT / "examples" / "knockout.game"))
    out = io.StringIO()
    play_game(game, ["human", "first"], 3, out=out, inp=io.StringIO("1\n1\nquit\n"), timers=False)
    text = out.getvalue()
    # (with this seed deal 1 ends on P1's move and deal 2 on P2's: P1 next plays in deal 3)
    assert "Knockout · deal 1" in text and "Knockout · deal 3" in text
    assert "round" not in text.replace("(out of the round)", "")


def test_a_player_out_of_the_round_is_shown_so():
    game = load(str(ROOT / "examples" / "knockout.game"))
    state = game.new_game(3, seed=1)
    assert game.view(state, 0)["out"] == []
    state["flow"]["out"] = [1]                 # as `leave round p2` leaves it
    view = game.view(state, 0)
    assert view["out"] == [1]
    out = io.StringIO()
    render_view(make_console(out), game, view)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("P")]
    assert [line.endswith("(out of the round)") for line in lines[:3]] == [False, True, False]


def test_the_result_says_the_lowest_score_wins_and_shows_it_as_counted():
    game = load(str(ROOT / "examples" / "knockout.game"))
    state = game.new_game(2, seed=3, options={"hands": 1})
    while not game.is_over(state):
        state = game.apply(state, game.legal_moves(state)[0])
    result = game.results(state)
    text = render_result(game, result, tiebreaks=game.tiebreaks(state))
    assert "the lowest score wins" in text
    low, high = sorted(result["scores"])
    assert low < high and all(s >= 0 for s in result["scores"])
    assert f"1. P{result['scores'].index(low) + 1}  score {low}  winner" in text
