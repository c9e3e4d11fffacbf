"""Letter Tycoon (games/letter_tycoon.game): its scenarios, random games at every player
count, the shipped word lists, and moves typed as a person types them."""

from __future__ import annotations

import gzip
import json
import random
import re
from pathlib import Path

import pytest

from gamedsl.errors import MoveError
from gamedsl.pipeline import load
from gamedsl.scenario import run_file

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "letter_tycoon.game"
SCENARIOS = ROOT / "games" / "scenarios" / "letter_tycoon.scenario"


@pytest.fixture(scope="module")
def game():
    return load(str(GAME))


def test_every_scenario_passes():
    results = run_file(str(SCENARIOS))
    assert len(results) >= 50
    failed = [str(r) for r in results if not r.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13), (5, 14)])
def test_random_games_finish(game, players, seed):
    """A random bot game ends by the goal (not by the turn limit), the state stays plain
    data, and no seat sees another seat's hand."""
    rnd = random.Random(seed)
    state = game.new_game(players, seed=seed)
    while not game.is_over(state):
        moves = game.legal_moves(state)
        state = game.apply(state, rnd.choice(moves))
        view = game.view(state, 0)
        # the others' hands stay hidden until the end, which shows them (display: reveal)
        assert all(isinstance(h, dict) for h in view["zones"]["hand"][1:]) != game.is_over(state)
    json.dumps(state)
    results = game.results(state)
    assert results["finished"] and results["winners"]
    values = results["fields"]["patent_worth"]
    assert max(values) >= {2: 45, 3: 34, 4: 26, 5: 21}[players]
    assert len(state["where"]) == 128


def test_the_word_lists_are_real_english():
    words = set(gzip.decompress((ROOT / "games" / "english_standard.txt.gz").read_bytes()).decode().split())
    large = set(gzip.decompress((ROOT / "games" / "english_large.txt.gz").read_bytes()).decode().split())
    assert 100_000 < len(words) < 130_000 and len(large) > 200_000 and words <= large
    assert {"quiz", "cats", "roomy", "foxes", "hmm", "nth"} <= words
    # no proper names, abbreviations, contractions, capitals or vowel-less junk
    assert not {"london", "nasa", "april", "usa", "cs", "kb", "isn't", "I"} & large
    assert all(w.isascii() and w.isalpha() and w.islower() and 2 <= len(w) <= 15 for w in large)
    assert (ROOT / "games" / "english_COPYRIGHT.txt").read_text().count("Kevin Atkinson") >= 1


def test_a_typed_word_that_cannot_be_formed_says_why(game):
    state = game.new_game(2, seed=0)
    hand = [state_letter(game, state, c) for c in state["zones"]["hand"][0]]
    missing = next(l for l in "QZXJKVWBCFGHMPY" if l not in hand and
                   l not in [state_letter(game, state, c) for c in state["zones"]["community"]])
    with pytest.raises(MoveError) as err:
        game.parse_move(state, "build " + missing * 3)
    assert "the cards lack" in str(err.value)
    with pytest.raises(MoveError) as err:
        game.parse_move(state, "build ab")
    assert "at least 3 letters" in str(err.value)


def test_bots_see_only_words_they_can_build(game):
    state = game.new_game(3, seed=5)
    moves = [m for m in game.legal_moves(state) if m["alt"] == "build"]
    assert moves
    for m in moves:
        game.apply(state, m)  # each suggestion is a legal play


def state_letter(game, state, cid):
    return game.catalogue(state).attrs[cid]["letter"]


def test_a_person_plays_from_the_terminal_without_seeing_the_words(game):
    import io
    from gamedsl.cli.terminal import play_game
    out = io.StringIO()
    typed = "build qqqq\nbuild zzz + yyy\npass\nkeep\nquit\n"
    outcome = play_game(game, ["human", "random"], seed=2, out=out, inp=io.StringIO(typed))
    text = out.getvalue()
    assert outcome.abandoned
    assert "or type: build <t>" in text and "1. pass" in text
    # the prompt tells how to type every kind of play (the move's `help`)
    assert "build DOOR + ROOMY" in text and "build FOXES with Z" in text and "build BO(O)K" in text
    # hints are off by default: the words are not given away
    assert "'hint'" not in text
    assert "the cards lack Q, Q, Q, Q" in text and "two words need the V patent" in text
    mats = text.split("\nP1 (you)")[1]
    assert re.search(r"\n +hand: [A-Z] ", mats) and re.search(r"\nP2 .*\n(.*\n)*? +hand: 7 hidden", mats)
    assert "patents for sale: A$8  B$2" in text and "coins 0" in text and "stock 0" in text
    # the words P1 could build are never listed to P1
    listed = [line for line in text.splitlines() if line.strip()[:3].rstrip(".").strip().isdigit()]
    assert not any("build" in line for line in listed)


def test_the_engine_promises_hold_in_a_checked_game(game):
    """The random-play checks of every example game (tests/support/play_checks.py), on one
    game: illegal moves (a typed word changed, an argument too many, another seat) refused
    with the state unchanged, views hiding the hands and the deck, components in one place,
    JSON round trips, and the same moves from the same seed giving the same game."""
    from tests.support import play_checks as rp
    start, played, final = rp.play(game, 2, 21, sample_apply=3)
    assert game.results(final)["finished"]
    state = game.new_game(2, 21)
    assert rp.dump(state) == start
    for move in played:
        state = game.apply(state, move)
    assert rp.dump(state) == rp.dump(final)


def test_a_person_who_asks_for_a_hint_sees_the_suggested_words_and_may_pick_one(game):
    # hints are opt-in (play --hints): a competitive game does not give the words away
    import io
    import re
    from gamedsl.cli.terminal import play_game
    out = io.StringIO()
    outcome = play_game(game, ["human", "random"], seed=2, out=out, inp=io.StringIO("hint\n2\nquit\n"),
                        hints=True)
    text = out.getvalue()
    assert outcome.abandoned
    before_hint = text.split("P1> ")[0]
    assert "'hint' for the moves the rules" in before_hint
    assert not re.search(r"\d+\. build ", before_hint)            # no word shown before asking
    hinted = re.search(r" 2\. (build \S+)", text)
    assert hinted, "the hint lists the suggested builds after the listed moves"
    assert f"P1: {hinted.group(1)}" in text                        # and its number plays it


def test_hints_are_opt_in_for_a_person(game):
    import io
    from gamedsl.cli.terminal import play_game
    out = io.StringIO()
    play_game(game, ["human", "random"], seed=2, out=out, inp=io.StringIO("hint\nquit\n"))
    text = out.getvalue()
    assert "hints are off" in text and "'hint' for the moves" not in text
    out = io.StringIO()
    play_game(game, ["human", "random"], seed=2, out=out, inp=io.StringIO("hint\nquit\n"), hints=True)
    text = out.getvalue()
    assert "'hint' for the moves" in text and "hints are off" not in text
    assert any(line.strip().startswith(("2.", "3.")) and "build" in line for line in text.splitlines())
