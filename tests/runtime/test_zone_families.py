"""Zone families (`zone pile[colour]`, `zone row[1..player_count + 1]`) and `capacity N`, as
the engine runs them: the zones a state holds, addressing them, the capacity, what a seat sees
and what GameInfo says. Both back ends, for each test."""

from __future__ import annotations

import json

import pytest

from gamedsl.errors import GameError, RuleError
from gamedsl.pipeline import load

GAME = '''game "families"
players 2..4
enum colour: red, blue, green
table cards:
  | number | colour: colour |
  | 1      | red    |
  | 2      | blue   |
  | 3      | green  |
  | 4      | red    |
  | 5      | red    |
  | 6      | red    |
kind card:
  from cards
  show text(number)
zone deck of card: public
zone pile[colour] of card: public, capacity 2
zone row[1..player_count + 1] of card: public
player zone exp[colour] of card: owner

display:
  table pile "Pile"

setup:
  move card to deck

turn:
  choose by current:
    sort_one(c in deck) "sort {c}":
      move c to pile[c.colour]
    keep(c in deck) "keep {c}":
      move c to current.exp[c.colour]
    lay(r in row) "lay on {r}" if len(deck) > 0:
      move first(deck) to row[r]
    lay_far "lay far":
      move first(deck) to row[player_count + 2]
  if len(deck) == 0:
    end game
'''


@pytest.fixture(params=["compiled", "interpreter"])
def game(request, tmp_path):
    path = tmp_path / "families.game"
    path.write_text(GAME, "utf-8")
    return load(str(path), backend=request.param)


def play(game, state, text):
    move = next(m for m in game.legal_moves(state) if game.move_text(state, m) == text)
    return game.apply(state, move)


def test_a_range_family_has_as_many_zones_as_its_ends_say_for_this_many_players(game):
    two, four = game.new_game(2, seed=1), game.new_game(4, seed=1)
    assert [z for z in game.view(two, 0)["zones"] if z.startswith("row")] == ["row[1]", "row[2]", "row[3]"]
    assert [z for z in game.view(four, 0)["zones"] if z.startswith("row")] == [f"row[{i}]" for i in range(1, 6)]
    assert two["zones"]["row[5]"] == []  # (every zone is in every state; with 2 players, never used)
    assert [game.move_text(two, m) for m in game.legal_moves(two) if m["alt"] == "lay"] == [
        "lay on 1", "lay on 2", "lay on 3"]
    assert game.info.zone("row[5]").players == (4,) and game.info.zone("row[3]").players is None
    assert game.info.zone("row[1]").family == "row" and game.info.zone("deck").family is None


def test_an_enum_family_addresses_the_zone_of_a_value(game):
    state = game.new_game(2, seed=1)
    state = play(game, state, "sort 2")
    assert len(state["zones"]["pile[blue]"]) == 1 and state["zones"]["pile[red]"] == []
    assert state["where"][state["zones"]["pile[blue]"][0]] == ["pile[blue]", -1, None]
    json.dumps(state)  # the state stays plain data


def test_moving_into_a_full_zone_is_an_error_at_the_move(game):
    state = game.new_game(2, seed=1)
    state = play(game, state, "sort 1")
    state = play(game, state, "sort 4")
    assert game.info.zone("pile[red]").capacity == 2
    with pytest.raises(RuleError) as err:
        play(game, state, "sort 5")
    assert err.value.code == "E504" and "pile[red]" in err.value.message and "full" in err.value.message
    assert GAME.splitlines()[err.value.span.line - 1].strip() == "move c to pile[c.colour]"


def test_a_zone_the_family_does_not_have_is_an_error_naming_those_it_has(game):
    state = game.new_game(2, seed=1)
    with pytest.raises(RuleError) as err:
        play(game, state, "lay far")
    assert "no zone row[4]" in err.value.message and "1 to 3" in err.value.message


def test_a_family_s_visibility_holds_for_each_of_its_zones(game):
    state = game.new_game(2, seed=1)
    state = play(game, state, "keep 3")
    mine, theirs = game.view(state, 0), game.view(state, 1)
    assert mine["zones"]["exp[green]"][0] == state["zones"]["exp[green]"][0]
    assert theirs["zones"]["exp[green]"][0] == {"count": 1}
    assert "row[4]" not in mine["zones"]  # (two players: three rows)


def test_display_names_a_family_for_each_of_its_zones(game):
    assert game.program.display.table[:3] == [("pile[red]", "Pile red"), ("pile[blue]", "Pile blue"),
                                             ("pile[green]", "Pile green")]


def test_ends_that_give_no_zone_with_some_player_count_are_refused_at_load(tmp_path):
    path = tmp_path / "few.game"
    path.write_text(GAME.replace("row[1..player_count + 1]", "row[1..player_count - 2]"), "utf-8")
    with pytest.raises(GameError) as err:
        load(str(path))
    [diag] = err.value.diagnostics
    assert diag.code == "E507" and "with 2 players it goes from 1 to 0" in diag.message
