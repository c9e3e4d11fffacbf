"""Trade Tycoon, drafts 5 and 6 (games/): the scenarios pass, random games finish with
their result fields, and a seat's view holds only what the rules let it see."""

from __future__ import annotations

import json
import re
import random
from pathlib import Path

import pytest

from gamedsl.pipeline import load
from gamedsl.scenario import run_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
DRAFTS = {"draft5": GAMES / "trade_tycoon.game", "draft6": GAMES / "trade_tycoon_draft6.game"}
SCENARIOS = sorted((GAMES / "scenarios").glob("trade_tycoon*.scenario"))
TURNS = {"draft5": 30, "draft6": 27}
DECK_LEFT = {"draft5": 0, "draft6": 1}
STYLES = {"china", "japan", "rome", "persia"}


@pytest.fixture(scope="module", params=sorted(DRAFTS), ids=sorted(DRAFTS))
def draft(request):
    return request.param, load(str(DRAFTS[request.param]))


def test_both_drafts_have_scenarios():
    assert [p.name for p in SCENARIOS] == ["trade_tycoon.scenario", "trade_tycoon_draft6.scenario"]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_pass(path):
    results = run_file(str(path))
    assert len(results) >= 15
    failed = [str(r) for r in results if not r.passed]
    assert not failed, "\n".join(failed)


def random_game(game, seed, on_step=None):
    rnd = random.Random(seed)
    state = game.new_game(3, seed)
    for _ in range(1000):
        if game.is_over(state):
            return state
        if on_step:
            on_step(state)
        state = game.apply(state, rnd.choice(game.legal_moves(state)))
    pytest.fail("a random game did not end within 1000 moves")


@pytest.mark.parametrize("seed", range(6))
def test_random_games_finish_with_result_fields(draft, seed):
    name, game = draft
    final = random_game(game, seed)
    results = game.results(final)
    assert results["finished"] and results["turns"] == TURNS[name]
    assert len(final["zones"]["deck"]) == DECK_LEFT[name]
    fields = results["fields"]
    assert set(fields["style"]) <= STYLES, "every player has a style at the end"
    for seat in range(3):
        parts = fields["style_vp"][seat] + fields["development_vp"][seat] + fields["balance_vp"][seat]
        assert results["scores"][seat] == parts, "the score is the sum of its reported parts"
        assert fields["balance_vp"][seat] in (0, 1, 3)
    assert results["winners"]


def check_view(game, state):
    """Hands are owner-only; the balance counts are public and true; nothing else leaks."""
    hands = state["zones"]["hand"]
    for seat in range(3):
        view = game.view(state, seat)
        for other in range(3):
            shown = view["zones"]["hand"][other]
            if other == seat:
                assert shown == hands[seat]
            else:
                assert shown == {"count": len(hands[other])}
        assert "rng" not in view and "stack" not in view
        left, right = view["public"]["cards_left_of_balance"], view["public"]["cards_right_of_balance"]
        assert [a + b for a, b in zip(left, right)] == [len(h) for h in hands]
        # The same view whatever the hidden cards are, but for the public counts.
        shuffled = json.loads(json.dumps(state))
        rnd = random.Random(len(json.dumps(state)))
        for other in range(3):
            if other != seat:
                pool = shuffled["zones"]["hand"][other] + shuffled["zones"]["deck"]
                rnd.shuffle(pool)
                k = len(shuffled["zones"]["hand"][other])
                shuffled["zones"]["hand"][other], shuffled["zones"]["deck"] = pool[:k], pool[k:]
        again = game.view(shuffled, seat)
        again.pop("public")
        view.pop("public")
        assert again == view, f"P{seat + 1}'s view shows hidden cards"


def test_views_show_hands_to_their_owner_only_and_the_balance_counts_to_all(draft):
    _, game = draft
    random_game(game, 11, lambda state: check_view(game, state))


def test_public_balance_counts_match_the_hand():
    game = load(str(DRAFTS["draft5"]))
    state = game.new_game(3, 0)
    for seat, text in enumerate(["style 4 persia", "style 2 rome", "style 1 japan"]):
        state = game.apply(state, game.parse_move(state, text, seat))
    view = game.view(state, 1)
    # seed 0: P1 holds 6 9 10 10 13 14 and its drawn card; P2 2 7 8 9 11 12; P3 1 6 8 11 13 14
    assert view["public"]["cards_left_of_balance"][1:] == [2, 2]
    assert view["public"]["cards_right_of_balance"][1:] == [4, 4]
    assert sum(view["public"]["cards_left_of_balance"][:1] + view["public"]["cards_right_of_balance"][:1]) == 7
    assert view["zones"]["hand"][0] == {"count": 7}


def test_the_style_stays_secret_until_all_have_chosen():
    game = load(str(DRAFTS["draft5"]))
    state = game.new_game(3, 0)
    before = game.view(state, 1)
    state = game.apply(state, game.parse_move(state, "style 4 persia", 0))
    mine, theirs = game.view(state, 0), game.view(state, 1)
    assert mine["submitted"] is not None and theirs["submitted"] is None
    assert theirs["pvars"]["style"] == [None, None, None]
    assert theirs["zones"]["style_card"] == [[], [], []]
    theirs.pop("waiting_for"), before.pop("waiting_for")
    assert theirs == before, "another seat learns nothing from P1's choice"
    state = game.apply(state, game.parse_move(state, "style 2 rome", 1))
    state = game.apply(state, game.parse_move(state, "style 1 japan", 2))
    assert game.view(state, 1)["pvars"]["style"] == ["persia", "rome", "japan"]


def test_the_rulebook_quotes_the_game_files_as_they_are():
    page = (ROOT / "docs" / "games" / "trade_tycoon.md").read_text("utf-8")
    excerpts = re.findall(r"^ *```game excerpt\n(.*?)^ *```", page, re.S | re.M)
    assert len(excerpts) >= 2
    files = "".join(p.read_text("utf-8") for p in DRAFTS.values())
    for block in excerpts:
        lines = [ln for ln in block.splitlines() if ln.strip()]
        indent = min(len(ln) - len(ln.lstrip()) for ln in lines)
        text = "\n".join(ln[indent:] for ln in lines)
        assert text in files, f"not in the game files:\n{text}"
