"""A generated listing's table keeps its lists whole when no two components it names are
alike (Machine.one_of_each_table's quick test); where some are, it lists one move per
look, as the interpreter does. Both back ends list the same moves at every step."""

from __future__ import annotations

import random

import pytest

from gamedsl.pipeline import load

PAIRS = """game "pairs"
players 2
table cards:
  | colour | copies |
  | green  | 3      |
  | red    | 2      |
  | blue   | 1      |
kind card:
  from cards
  copies copies
  show colour
zone pile of card: public
zone left of card: public
zone right of card: public
setup:
  move card to pile
  shuffle pile
  draw 1 from pile to left
  draw 1 from pile to right
turn:
  choose by current:
    swap(a in left, b in right, o in ["x", "y"]) "swap {a} {b} {o}":
      move a to right
      move b to left
    take(c in pile, d in ["left", "right"]) "take {c} to {d}":
      if d == "left":
        move c to left
      else:
        move c to right
    both(a in left, b in pile) "both {a} {b}":
      move a to pile
  if len(pile) == 0:
    end game
"""


@pytest.mark.parametrize("seed", range(6))
def test_both_back_ends_list_one_move_per_look_alike(seed):
    games = [load("pairs.game", text=PAIRS, backend=b) for b in ("interpreter", "compiled")]
    states = [g.new_game(2, seed) for g in games]
    rng = random.Random(seed)
    merged = 0
    for _ in range(60):
        if games[0].is_over(states[0]):
            break
        listed = [g.legal_moves(s) for g, s in zip(games, states)]
        assert listed[0] == listed[1]
        counts = {m["alt"]: 0 for m in listed[0]}
        for m in listed[0]:
            counts[m["alt"]] += 1
        pile = len(states[0]["zones"]["pile"])
        merged += counts.get("take", 0) < 2 * pile
        move = rng.choice(listed[0])
        states = [g.apply(s, move) for g, s in zip(games, states)]
        assert states[0] == states[1]
    assert merged  # (look-alike cards in the pile were listed once)


TWICE = """game "twice"
players 2
kind card:
  for value in 1..2
  copies COPIES
  show text(value)
zone deck of card: hidden
player zone hand of card: public
setup:
  move card to deck
  for p in players:
    draw 2 from deck to p.hand
turn:
  choose by current:
    play(c in current.hand, o in ["x", "x"]) "play {c} {o}":
      move c to deck
  end game
"""


@pytest.mark.parametrize("copies, listed", [(2, ["play 1 x"]), (1, ["play 1 x", "play 1 x", "play 2 x", "play 2 x"])])
def test_a_value_listed_twice_merges_with_its_look_alikes_in_both_back_ends(tmp_path, copies, listed):
    # Where the hand's cards look alike, the moves that differ only by which copy and which
    # "x" are one move; where none does, nothing is merged and the list's "x" comes twice.
    path = tmp_path / "twice.game"
    path.write_text(TWICE.replace("COPIES", str(copies)))
    for backend in ("interpreter", "compiled"):
        game = load(str(path), backend=backend)
        state = game.new_game(2, 1)
        assert [game.move_text(state, m) for m in game.legal_moves(state)] == listed, backend
