"""What a seat sees and knows: zones held facing away (`others`), `show ... to` remembered in
the seat's view while the component stays put, kept by resample, and hands laid open at the end."""

from __future__ import annotations

import json
import random

import pytest

from gamedsl.pipeline import load
from gamedsl.runtime.state import clone

GAME = '''
game "Peeks"
players 3
table ranks:
  | rank |
  | 1 |
  | 2 |
  | 3 |
  | 4 |
  | 5 |
  | 6 |
  | 7 |
  | 8 |
  | 9 |
kind card:
  from ranks
  show text(rank)
zone deck of card: hidden
zone table of card: public
player zone hand of card: others
display:
  reveal hand at end
setup:
  move card to deck
  for p in players:
    draw 2 from deck to p.hand
turn:
  choose by current:
    peek(p in others(current)) "show {p} its first card":
      show first(p.hand) to p
    bury "bury my first card":
      move first(current.hand) to deck
    tidy "shuffle my hand":
      shuffle current.hand
    look "look at the deck":
      show deck to current
    stop "stop":
      end game
'''


def load_text(backend="compiled"):
    return load("peeks.game", GAME, backend=backend)


def do(game, state, text):
    return game.apply(state, game.parse_move(state, text))


@pytest.fixture(params=["compiled", "interpreter"])
def game(request):
    return load_text(request.param)


def test_others_zone_is_seen_by_everyone_but_its_owner(game):
    s = game.new_game(3, seed=1)
    view = game.view(s, 0)
    assert view["zones"]["hand"][0] == {"count": 2}
    assert view["zones"]["hand"][1] == s["zones"]["hand"][1]
    assert game.sees("hand", 1, 0) and not game.sees("hand", 0, 0)
    assert not set(s["zones"]["hand"][0]) & game.visible_components(s, 0)


def test_show_is_remembered_in_view_and_moves_until_the_card_moves(game):
    s = game.new_game(3, seed=1)
    first = s["zones"]["hand"][1][0]
    s = do(game, s, "show P2 its first card")
    assert s["known"] == {"1": [first]}
    assert game.view(s, 1)["zones"]["hand"][1] == [first, "?"]
    assert game.view(s, 1)["known"] == [first]
    assert game.view(s, 2)["zones"]["hand"][2] == {"count": 2}   # nobody else learnt anything
    assert first in game.visible_components(s, 1)
    # plain data: a saved state resumes with what the seat was shown
    resumed = json.loads(json.dumps(s))
    assert game.view(resumed, 1) == game.view(s, 1)
    s = do(game, s, "bury my first card")   # P2 buries the card it was shown
    assert game.view(s, 1)["zones"]["hand"][1] == {"count": 1}
    assert s["known"] == {"1": []}
    assert game.view(s, 1)["zones"]["deck"] == {"count": len(s["zones"]["deck"])}


def test_a_shuffle_forgets_where_shown_cards_lie(game):
    s = game.new_game(3, seed=2)
    s = do(game, s, "show P2 its first card")
    assert s["known"]["1"]
    s = do(game, s, "shuffle my hand")
    assert s["known"] == {"1": []}


def test_show_a_zone_shows_every_card_in_it(game):
    s = game.new_game(3, seed=3)
    s = do(game, s, "look at the deck")
    assert s["known"] == {"0": sorted(s["zones"]["deck"])}
    assert game.view(s, 0)["zones"]["deck"] == s["zones"]["deck"]


def test_resample_keeps_what_the_seat_was_shown_and_drops_what_others_were():
    game = load_text()
    s = game.new_game(3, seed=4)
    shown = s["zones"]["hand"][1][0]
    s = do(game, s, "show P2 its first card")
    rng = random.Random(0)
    samples = [game.resample(s, 1, rng) for _ in range(40)]
    assert all(w["zones"]["hand"][1][0] == shown and w["known"] == {"1": [shown]} for w in samples)
    # the other card of that hand is redrawn: it was not shown
    assert len({w["zones"]["hand"][1][1] for w in samples}) > 1
    # P3 does not know what P2 was shown; what P2's hand holds, P3 sees anyway
    for w in (game.resample(s, 2, rng) for _ in range(10)):
        assert "known" not in w
        assert w["zones"]["hand"][1] == s["zones"]["hand"][1]
    # without the show, P2's own hand is redrawn
    fresh = game.new_game(3, seed=4)
    assert len({game.resample(fresh, 1, rng)["zones"]["hand"][1][0] for _ in range(40)}) > 1


def test_hands_are_laid_open_when_the_game_is_over(game):
    s = game.new_game(3, seed=5)
    assert game.revealed(s) == []
    s = do(game, s, "stop")
    assert game.revealed(s) == ["hand"]
    assert game.view(s, 0)["zones"]["hand"] == s["zones"]["hand"]


def test_a_card_shown_is_named_to_that_seat_and_masked_before(game):
    s = game.new_game(3, seed=6)
    c = s["zones"]["hand"][1][0]
    assert str(c) not in game.view(s, 1)["shows"]
    s = do(game, s, "show P2 its first card")
    assert game.view(s, 1)["shows"][str(c)] == game.catalogue(s).show[c]
