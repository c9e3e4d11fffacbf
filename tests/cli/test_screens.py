"""Each game played a few turns by a human seat through the terminal (scripted input): the
screen shows the game's table as its `display:` declares it — the panels a player expects,
the events told — and never its bookkeeping nor what another seat may not see."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gamedsl.cli.terminal import play_game
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]


def screens(name: str, seats: list, seed: int, typed: list) -> str:
    """What the terminal printed; it also checks that no message said `to` another seat only
    (`say ... to P`) was printed to P1."""
    game = load(str(ROOT / "games" / f"{name}.game"))
    others = []
    apply = game.apply

    def spying(state, move):
        new = apply(state, move)
        mine = set(game.heard(new, 0))
        others.extend(t for to, _, t in new.get("told", ()) if to != 0 and t not in mine)
        return new
    game.apply = spying
    out = io.StringIO()
    outcome = play_game(game, seats, seed, out=out, inp=io.StringIO("\n".join(typed + ["quit"]) + "\n"),
                        timers=False)
    assert outcome.abandoned  # the script quits: the screens are all there is to check
    text = out.getvalue()
    told_to_p1_only(text, others)
    return text


def words(text: str) -> set:
    return set(re.findall(r"\w+", text))


def told_to_p1_only(text: str, others: list) -> None:
    """No message told only to another seat reaches P1's screen."""
    shown = {line.strip()[2:] for line in text.splitlines() if line.strip().startswith("» ")}
    assert not shown & set(others), shown & set(others)


def test_letter_tycoon_screen():
    text = screens("letter_tycoon", ["human", "random"], 5, ["pass", "discard a", "pass", "keep", "pass", "keep"])
    assert not words(text) & {"from_hand", "copy_word", "s_word", "vowels", "failed", "built", "phase", "round"}
    head = text.splitlines()[1]
    assert head == "Letter Tycoon · goal: patents worth $45 and 6 patents · start player P2"
    for panel in ("On the table", "  community: ", "  patents for sale: A$8", "\nP1 (you)  coins 0 · stock 0 · patents worth 0",
                  "\nP2  coins", "    hand: 7 hidden", "What happened"):
        assert panel in text
    assert re.search(r"» [A-Z]+ pays \$[0-9]+\n", text)  # what a play earned, told to everyone
    assert re.search(r"» you drew [A-Z]\n", text)      # P1's own draw, told to P1
    assert "(new)" in text                             # what came since the last screen is marked


def test_legendary_inventors_screen():
    text = screens("legendary_inventors", ["human", "random", "random"], 3, ["1"] * 6)
    assert not words(text) & {"bonus", "acted", "box", "round", "phase", "of_age", "of_class"}
    assert text.splitlines()[1].startswith("Legendary Inventors · age 1 of 3 · Leonardo: ")
    for panel in ("  inventions:", "age   class   needs", "  tokens on offer: ", "  age 2 deck: 12 hidden",
                  "\nP1 (you)  cubes ", "\nP3  cubes ", "    team:", "knowledge", "    won: "):
        assert panel in text
    assert "» Age 1 begins" in text                    # the setup's message, at the first screen


def test_trade_tycoon_screen():
    text = screens("trade_tycoon", ["human", "random", "random"], 3, ["1", "1", "2", "1"])
    assert not words(text) & {"turn_number", "taken_on", "phase", "round"}
    assert "Trade Tycoon — draft 5 · turn 1 of 10 · start player P1" in text
    for panel in ("  oasis: ", "  developments in the oasis: ", "  removed unseen: 2 hidden",
                  "\nP1 (you)  style persia · left of balance", "    warehouse: ", "    hand: 6 hidden"):
        assert panel in text
    # 112 moves are chosen step by step, every step listed whole
    assert "give <c> to <p> order <o>  (28 moves)" in text and "more: type a move" not in text
    assert "Your move, P1: give 5 china to P2 order <o>" in text
    assert re.search(r"» you drew \d+ \w+", text)
    assert "» P1 trades in the persia style" in text


def test_trade_tycoon_draft6_screen_keeps_the_development_hands_secret():
    text = screens("trade_tycoon_draft6", ["human", "random", "random"], 4, ["1", "1"])
    assert not words(text) & {"turn_number", "taken_on"}
    assert re.search(r"\nP2  .*\n(.*\n)*? +developments in hand: \d hidden", text)


def test_wordomino_screen():
    text = screens("wordomino", ["human", "random"], 3, ["2", "1"])
    assert not words(text) & {"passes", "ending", "unfinished", "round", "phase"}
    assert "Wordomino · tiles left in the piles: 86" in text
    for panel in ("  table:", "  pile 3 (level 2): 30 hidden", "\nP1 (you)  points 0 · words -",
                  "no.   level", "\nP2  points 0"):
        assert panel in text


@pytest.mark.parametrize("name", ["letter_tycoon", "trade_tycoon"])
def test_the_end_reveals_the_hands(name):
    """At the end every hand is shown, as players lay them down (`reveal hand at end`)."""
    game = load(str(ROOT / "games" / f"{name}.game"))
    import random
    rnd = random.Random(1)
    state = game.new_game(game.min_players if name == "trade_tycoon" else 2, 1)
    assert isinstance(game.view(state, 0)["zones"]["hand"][1], dict)
    while not game.is_over(state):
        state = game.apply(state, rnd.choice(game.legal_moves(state)))
    assert all(isinstance(h, list) for h in game.view(state, 0)["zones"]["hand"])


def test_a_single_move_is_shown_and_made(tmp_path):
    path = tmp_path / "one.game"
    path.write_text('game "One"\nplayers 2\nvar n: number = 0\nturn:\n  choose by current:\n'
                    '    step "step":\n      n += 1\n      say "stepped to " + text(n)\n'
                    '      say "only you know" to current\n  if n == 3:\n    end game\n', encoding="utf-8")
    out = io.StringIO()
    outcome = play_game(load(str(path)), ["human", "first"], 1, out=out, inp=io.StringIO(""))
    text = out.getvalue()
    assert not outcome.abandoned                        # nothing was asked: no input needed
    assert "Your only move, P1: step" in text
    assert "» stepped to 2" in text
    # P1 is told its own private message, never P2's
    assert text.count("» only you know") == 2            # P1 stepped twice (1 and 3); P2's never shown
