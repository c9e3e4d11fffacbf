"""The plain-Python simulator of Trade Tycoon (benchmarks/direct/trade_tycoon.py) plays the
hand-written version's games exactly: for a seed, the same deal and the same random decisions
(it draws from the same generators the same way), so the same holdings, scores and ranks at
the end. The hand-written version is held to the .game by tests/test_handwritten_trade_tycoon.py;
together they make the direct simulator's speed a yardstick for the same game."""

from __future__ import annotations

import random

import pytest

from benchmarks.direct import trade_tycoon as direct
from benchmarks.handwritten import trade_tycoon as hw


def handwritten_game(seed: int):
    """A random game as benchmarks/handwritten_vs_game.py plays it: its last state and moves made."""
    rng = random.Random(seed)
    state = hw.new_game(seed)
    moves = 0
    while not hw.is_over(state):
        seat = hw.waiting_for(state)[0]
        state = hw.apply_legal(state, rng.choice(hw.legal_moves(state, seat)), in_place=True)
        moves += 1
    return state, moves


@pytest.mark.parametrize("block", range(10))
def test_lockstep_with_the_handwritten_version(block):
    for seed in range(block * 30, block * 30 + 30):
        state, moves = handwritten_game(seed)
        theirs = hw.results(state)
        scores, ranks, made = direct.play(seed)
        mine = direct.final_holdings(seed)
        assert (scores, ranks, made) == (theirs["scores"], theirs["ranks"], moves), seed
        for key in ("hand", "warehouse", "devs", "style", "start"):
            assert mine[key] == state[key], (seed, key)
        assert mine["moves"] == moves


@pytest.mark.parametrize("seed", range(200))
def test_scoring_agrees_on_random_holdings(seed):
    rnd = random.Random(seed)
    trade = list(range(hw.N_TRADE))
    rnd.shuffle(trade)
    devs = list(range(len(hw.DEVS)))
    rnd.shuffle(devs)
    warehouse = [trade.pop() for _ in range(rnd.randint(0, 14))]
    hand = sorted((trade.pop() for _ in range(rnd.randint(0, 8))), key=lambda c: hw.CARDS[c].number)
    mine = [devs.pop() for _ in range(rnd.randint(0, 5))]
    style = rnd.randrange(4)
    state = {"warehouse": [warehouse], "hand": [hand], "devs": [[hw.FIRST_DEV + d for d in mine]],
             "style": [hw.SUITS[style]]}
    assert direct.style_vp(warehouse, style) == hw.style_vp(state, 0)
    assert direct.dev_vp(warehouse, mine) == hw.dev_vp(state, 0)
    assert direct.balance_vp(hand) == hw.balance_vp(state, 0)


def test_games_look_like_the_rules():
    for seed in range(20):
        holdings = direct.final_holdings(seed)
        assert all(len(h) == 6 for h in holdings["hand"])
        # 30 turns: an order and an answer each, 3 styles, and the charters and duplicates
        assert holdings["moves"] >= 63
        cards = sorted(c for z in holdings["hand"] + holdings["warehouse"] for c in z)
        assert len(cards) == len(set(cards))
