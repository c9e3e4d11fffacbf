"""`reveal ... at end` in the terminal: a bots-only game played with -v ends with the hands laid open."""

import io
from pathlib import Path

from gamedsl.cli.terminal import play_game
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]


def test_verbose_play_prints_the_hands_revealed_at_the_end():
    game = load(str(ROOT / "examples" / "blind_hands.game"))
    out = io.StringIO()
    outcome = play_game(game, ["random", "random"], seed=4, out=out, verbose=True)
    state = outcome.state
    assert game.is_over(state)
    shows = game.catalogue(state).show
    lines = out.getvalue().splitlines()
    for seat, hand in enumerate(state["zones"]["hand"]):
        want = f"  P{seat + 1} hand: " + "  ".join(shows[c] for c in hand) if hand else f"  P{seat + 1} hand: (empty)"
        assert want in lines, out.getvalue()


def test_without_verbose_nothing_but_the_moves_is_printed():
    game = load(str(ROOT / "examples" / "blind_hands.game"))
    out = io.StringIO()
    play_game(game, ["random", "random"], seed=4, out=out)
    assert "hand:" not in out.getvalue()
