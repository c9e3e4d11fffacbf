"""`Game.random_move` on a choice with typed parameters: its suggestions are checked only as
they are drawn, and the move is still a uniformly random legal one."""

from __future__ import annotations

import random
from collections import Counter

from gamedsl.pipeline import load

ODD_PICKS = '''
game "Odd Picks"
players 2
var total: int = 0
turn:
  choose by current:
    say(n: number) "say {n}" suggest [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3] if n % 2 == 1 else "an odd number":
      total += n
      if total > 30:
        end game winner current
    hold "hold":
      pass
result total of p: total
'''


def test_a_random_move_is_uniform_over_the_legal_moves_when_suggestions_fail():
    game = load("odd_picks.game", text=ODD_PICKS)
    state = game.new_game(2, seed=1)
    legal = game.legal_moves(state, 0)
    assert [m["args"] for m in legal] == [[1], [3], [5], [7], [9], []]
    rng = random.Random(5)
    draws = 6000
    seen = Counter()
    for _ in range(draws):
        move = game.random_move(state, 0, rng)
        assert move in legal
        seen[(move["alt"], *move["args"])] += 1
    assert len(seen) == len(legal)
    expected = draws / len(legal)
    # chi-squared with 5 degrees of freedom; 20.5 is its 0.1% tail (the seed is fixed)
    assert sum((n - expected) ** 2 / expected for n in seen.values()) < 20.5
    assert game.legal_moves(state, 0) == legal  # (the state is as it was)


def test_a_random_move_is_the_listings_draw_when_every_suggestion_passes():
    text = ODD_PICKS.replace("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3]", "[1, 3, 5, 7, 9, 3]")
    game = load("odd_picks.game", text=text)
    state = game.new_game(2, seed=1)
    legal = game.legal_moves(state, 0)
    for seed in range(40):
        mine, theirs = random.Random(seed), random.Random(seed)
        assert game.random_move(state, 0, mine) == theirs.choice(legal)
        assert mine.getstate() == theirs.getstate()


def test_a_move_drawn_is_the_callers_own():
    game = load("odd_picks.game", text=ODD_PICKS)
    state = game.new_game(2, seed=1)
    move = game.random_move(state, 0, random.Random(2))
    move["args"].append(99)
    again = game.random_move(state, 0, random.Random(2))
    assert again["args"] != move["args"] and again in game.legal_moves(state, 0)


def test_a_choice_of_more_candidates_than_a_choice_may_have_is_drawn_from_its_listing():
    # (more suggestions than MAX_MOVES: the listing decides, as it does for legal_moves)
    text = ODD_PICKS.replace("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3]", "range(0, 59999) + range(60000, 119999)")
    game = load("odd_picks.game", text=text)
    state = game.new_game(2, seed=1)
    legal = game.legal_moves(state, 0)
    assert len(legal) == 60_001
    mine, theirs = random.Random(4), random.Random(4)
    assert game.random_move(state, 0, mine) == theirs.choice(legal)
    assert mine.getstate() == theirs.getstate()
