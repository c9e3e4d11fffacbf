"""Kinds made from a product, ordered enums, positions in a zone, first(L, n) and several
`for`s, as both back ends run them."""

import pytest

from gamedsl.errors import RuleError
from gamedsl.pipeline import load

GAME = '''game "g"
players 2
option top_value: 3..6 = 4
enum colour: red, yellow, blue
kind card:
  for colour in colour, value in 1..top_value
  copies 2 if value == top_value else 1
  show text(colour) + "-" + text(value)
zone deck of card: public
zone pile of card: public, sorted by colour
player zone hand of card: owner
var spot: number = 0

def named(k: colour, v: number) = first([c for c in card if c.colour == k and c.value == v])
def shown(z: list of card) = [text(c) for c in z]
def order_facts() = [red < blue, blue <= yellow, yellow > red, max(colour) == blue, min([blue, yellow]) == yellow]
def by_colour() = [text(c) for c in sort c in deck by most c.colour, then fewest c.value]
def sorted_colours() = sorted([blue, red, yellow, red])
def pairs() = [(a, b) for a in 1..3 if a > 1 for b in 1..a if b != a]
def heads() = [len(first(deck, 2)), len(first(deck, 99)), len(last(deck, 0)), len(first(colour, 2))]

setup:
  move card to deck

turn:
  choose by current:
    bury(c in deck) "bury {c}":
      move c to deck at spot from bottom
    lift(c in deck) "lift {c}":
      move c to deck at spot
    pair "pair":
      move [named(red, 1), named(blue, 1)] to deck at 1
    file(c in deck) "file {c}":
      move c to pile

score of p: len(pairs()) + len(by_colour())
'''


@pytest.fixture(params=["interpreter", "compiled"])
def game(request, tmp_path):
    path = tmp_path / "g.game"
    path.write_text(GAME)
    return load(str(path), backend=request.param)


def value(game, state, expr):
    return game.evaluate(state, _expr(expr))


def _expr(text):
    from gamedsl.syntax.parser import parse
    tree, diags = parse(f'game "x"\ndef f() = {text}\n', "x.game")
    assert not diags
    return tree.decls[1].body


def play(game, state, text):
    moves = [m for m in game.legal_moves(state) if game.move_text(state, m) == text]
    assert moves, text
    return game.apply(state, moves[0])


def test_the_catalogue_is_every_combination_with_copies_by_value(game):
    s = game.new_game(2, seed=1)
    names = value(game, s, "shown(card)")
    assert len(names) == 3 * 4 + 3  # a second copy of each 4
    assert names[:5] == ["red-1", "red-2", "red-3", "red-4", "red-4"]
    s6 = game.new_game(2, seed=1, options={"top_value": 6})
    assert len(value(game, s6, "shown(card)")) == 3 * 6 + 3


def test_enum_values_compare_sort_and_count_in_declared_order(game):
    s = game.new_game(2, seed=1)
    for _ in range(4):  # (past the closures' first runs: the generated code answers too)
        assert value(game, s, "order_facts()") == [True, False, True, True, True]
        assert value(game, s, "sorted_colours()") == ["red", "red", "yellow", "blue"]
        assert value(game, s, "by_colour()")[:3] == ["blue-1", "blue-2", "blue-3"]
        assert game.scores(s) == [3 + 15, 3 + 15]
    assert value(game, s, "colour") == ["red", "yellow", "blue"]
    assert value(game, s, "len(colour)") == 3


def test_a_zone_sorted_by_an_enum_keeps_its_order(game):
    s = game.new_game(2, seed=1)
    for text in ["file blue-1", "file red-2", "file yellow-3", "file red-1"]:
        s = play(game, s, text)
    assert value(game, s, "shown(pile)") == ["red-2", "red-1", "yellow-3", "blue-1"]


def test_several_fors_and_first_n(game):
    s = game.new_game(2, seed=1)
    for _ in range(3):
        assert value(game, s, "pairs()") == [[2, 1], [3, 1], [3, 2]]
        assert value(game, s, "heads()") == [2, 15, 0, 2]


def test_a_position_is_counted_from_the_end_named(game):
    s = game.new_game(2, seed=1)
    deck = value(game, s, "shown(deck)")
    s = play(game, s, "bury red-1")  # spot 0: at the bottom
    assert value(game, s, "shown(deck)") == deck[1:] + ["red-1"]
    s = game.run_statements(s, _turn("spot = 2"))
    s = play(game, s, "lift blue-4")
    now = value(game, s, "shown(deck)")
    assert now[2] == "blue-4" and len(now) == len(deck)
    s = play(game, s, "bury yellow-2")
    assert value(game, s, "shown(deck)")[-3] == "yellow-2"


def test_a_list_goes_in_as_a_block_in_the_order_named(game):
    s = game.new_game(2, seed=1)
    s = play(game, s, "pair")
    assert value(game, s, "shown(first(deck, 3))") == ["red-2", "red-1", "blue-1"]


def test_a_position_past_the_end_is_an_error_with_its_line(game):
    s = game.new_game(2, seed=1)
    s = game.run_statements(s, _turn("spot = 15"))
    with pytest.raises(RuleError) as err:
        play(game, s, "bury red-1")
    assert err.value.code == "E504" and err.value.span.line == GAME.splitlines().index(
        "      move c to deck at spot from bottom") + 1
    assert "no position 15 from the bottom" in err.value.message and "positions 0 to 14" in err.value.message
    s = game.run_statements(s, _turn("spot = 14"))
    assert value(game, play(game, s, "bury red-1"), "first(deck)") == 0
    s = game.run_statements(s, _turn("spot = -1"))
    with pytest.raises(RuleError, match="whole number from 0"):
        play(game, s, "lift red-1")


def test_too_many_components_from_a_product_is_an_error(tmp_path):
    path = tmp_path / "big.game"
    path.write_text(GAME.replace("for colour in colour, value in 1..top_value",
                                 "for colour in colour, value in 1..top_value, a in 1..300, b in 1..300"))
    with pytest.raises(RuleError, match="more than 100,000 components"):
        load(str(path)).new_game(2, seed=1)


def _turn(stmt):
    from gamedsl.syntax.parser import parse
    tree, diags = parse(f'game "x"\nsetup:\n  {stmt}\n', "x.game")
    assert not diags
    return tree.decls[1].body


def test_the_generated_code_orders_enums_without_giving_up(tmp_path):
    path = tmp_path / "g.game"
    path.write_text(GAME)
    game = load(str(path))
    s = game.new_game(2, seed=1)
    for _ in range(5):
        assert game.scores(s) == [18, 18]
    source = game.snippets.source
    assert source.generated > 0 and source.give_ups == 0
