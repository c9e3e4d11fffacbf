"""What a seat is shown never names a component it cannot see: not a var that holds one
(`next_card: 12` would name the deck's top card), not a move's argument; and a deal drawn
with the host's key cannot be told from the seed alone."""

from __future__ import annotations

import pytest

from gamedsl import new_key
from gamedsl.errors import OptionError
from gamedsl.pipeline import load

PEEK = '''game "Peek"
players 2

table ranks:
  | rank |
  | 1    |
  | 2    |
  | 3    |
  | 4    |
  | 5    |
  | 6    |

kind card:
  from ranks
  show text(rank)

zone deck of card: hidden
player zone hand of card: owner
var next_card: card? = none
player var mine: card? = none
player var kept: list of card = []

setup:
  move card to deck
  shuffle deck
  for p in players:
    draw 1 from deck to p.hand
    p.mine = first(p.hand)
    p.kept = p.hand
  next_card = first(deck)

turn:
  choose by current:
    take(c in deck) "take a card":   # (its text may not write out c: E330)
      move c to current.hand
  end game

score of p: 0
'''


@pytest.fixture(scope="module")
def peek(tmp_path_factory):
    path = tmp_path_factory.mktemp("peek") / "peek.game"
    path.write_text(PEEK)
    return load(str(path))


def test_a_var_naming_a_hidden_component_shows_a_question_mark(peek):
    for seed in range(5):
        state = peek.new_game(2, seed, key=new_key())
        for seat in (0, 1):
            view = peek.view(state, seat)
            own = state["pvars"]["mine"][seat]
            assert view["vars"] == {"next_card": "?"}
            assert view["pvars"]["mine"][seat] == own and view["pvars"]["mine"][1 - seat] == "?"
            assert view["pvars"]["kept"][seat] == [own] and view["pvars"]["kept"][1 - seat] == ["?"]


def test_a_move_naming_a_hidden_component_is_shown_with_a_question_mark(peek):
    state = peek.new_game(2, 3, key=new_key())
    seen = peek.moves_seen(state, 0)
    assert [m["text"] for m in seen] == ["take a card"] * 4
    assert all(m["args"] == ["?"] for m in seen)
    assert len(peek.legal_moves(state, 0)) == 4


def test_an_external_bot_cannot_pick_a_hidden_component_by_name(peek):
    from gamedsl.bots.external import ExternalBot

    state = peek.new_game(2, 3, key=new_key())
    bot = ExternalBot.__new__(ExternalBot)   # (only its matching of answers, no process)
    bot.game, bot.seat = peek, 0
    moves = peek.legal_moves(state, 0)
    listed = peek.moves_seen(state, 0, moves)
    hidden = moves[2]["args"][0]
    face = peek.catalogue(state).show[hidden]
    assert bot.match_answer(state, {"move": {"alt": "take", "args": [hidden]}}, moves, listed) is None
    assert bot.match_answer(state, {"text": f"take {face}"}, moves, listed) is None
    assert bot.match_answer(state, {"move": 2}, moves, listed) == moves[2]


def test_the_key_changes_the_deal_and_the_same_key_repeats_it(peek):
    key = "0123456789abcdef" * 2
    bare = [peek.new_game(2, seed)["zones"]["deck"] for seed in range(8)]
    keyed = [peek.new_game(2, seed, key=key)["zones"]["deck"] for seed in range(8)]
    assert keyed == [peek.new_game(2, seed, key=key.upper())["zones"]["deck"] for seed in range(8)]
    assert keyed != bare
    assert peek.new_game(2, 1, key=new_key())["rng"] != peek.new_game(2, 1, key=new_key())["rng"]


@pytest.mark.parametrize("key", ["abc", "g" * 32, 12, "0" * 33])
def test_a_malformed_key_is_refused(peek, key):
    with pytest.raises(OptionError) as err:
        peek.new_game(2, 1, key=key)
    assert str(err.value) == "bad key: a key is 32 hex digits (128 bits)"


PASS_ON = '''game "Pass on"
players 3

table ranks:
  | rank |
  | 1    |
  | 2    |
  | 3    |
  | 4    |
  | 5    |
  | 6    |

kind card:
  from ranks
  show "card " + text(rank)

player zone hand of card: owner

setup:
  move card to players[0].hand

turn:
  choose by current:
    give(c in current.hand) "give {c} to the next player":
      move c to left_of(current).hand
  end game
'''


def test_a_card_passed_face_down_is_named_only_to_those_who_see_it(tmp_path):
    path = tmp_path / "pass_on.game"
    path.write_text(PASS_ON)
    game = load(str(path))
    before = game.new_game(3, 1)
    move = game.legal_moves(before, 0)[0]
    after = game.apply(before, move)
    name = game.move_text(before, move)
    assert "card" in name and "?" not in name
    assert game.move_told(before, after, move, 0) == name    # the giver saw it
    assert game.move_told(before, after, move, 1) == name    # the taker sees it now
    assert game.move_told(before, after, move, 2) == "give ? to the next player"
