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
