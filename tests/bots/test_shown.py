"""Search bots use what their seat was shown (`show ... to`): resample keeps it where it lies."""

from __future__ import annotations

import pytest

from gamedsl.bots.registry import make_bot
from gamedsl.pipeline import load

# Each player takes one card of a face-down row and scores its rank; P1 was shown the 9.
GAME = '''
game "Peek"
players 2
table ranks:
  | rank |
  | 1 |
  | 2 |
  | 3 |
  | 4 |
  | 5 |
  | 9 |
kind card:
  from ranks
  show text(rank)
zone deck of card: hidden
player zone row of card: hidden
player var points: number = 0
setup:
  move card to deck
  shuffle deck
  for p in players:
    draw 3 from deck to p.row
  # P1 is shown where the 9 lies, whether in its row or not
  show [c for c in first(players).row if c.rank == 9] to first(players)
turn:
  choose by current:
    take(i in range(1, len(current.row))) "take card {i}":
      current.points += current.row[i - 1].rank
  end game after round
score of p: p.points
'''


@pytest.mark.parametrize("spec", ["greedy:samples=8", "mcts:iters=200"])
def test_search_bots_take_the_card_they_were_shown(spec):
    game = load("peek.game", GAME)
    deals = 0
    for seed in range(40):
        state = game.new_game(2, seed)
        ranks = [game.catalogue(state).attrs[c]["rank"] for c in state["zones"]["row"][0]]
        if 9 not in ranks:
            continue
        deals += 1
        assert state["known"] == {"0": [state["zones"]["row"][0][ranks.index(9)]]}
        move = make_bot(spec, game, 0, seed).choose(state)
        # blind, the 9 would be one card in three; shown, the bot takes it every time
        assert game.move_text(state, move) == f"take card {ranks.index(9) + 1}", seed
    assert deals >= 10
