"""The hand-written Trade Tycoon (benchmarks/handwritten/trade_tycoon.py) is the same game as
games/trade_tycoon.game: it scores any holdings as the .game does, and driven with the same
moves from the same deal it offers the same moves and ends with the same results. Without
this its speed would be no yardstick for the interpreter's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.handwritten import trade_tycoon as hw
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
PER_PLAYER = ("hand", "style_card", "warehouse", "devs")
SHARED = ("removed", "oasis", "oasis_devs", "offer", "discarded")


@pytest.fixture(scope="module")
def game():
    return load(str(ROOT / "games" / "trade_tycoon.game"))


def step_of(game, state) -> str | None:
    """Where the engine's turn stands, in the hand-written version's words."""
    moves = game.legal_moves(state)
    if not moves:
        return None
    return {"style": "style", "charter": "charter", "no_charter": "charter", "give": "order", "relay": "order",
            "answer": "answer", "cash_in": "duplicate", "keep": "duplicate"}[moves[0]["alt"]]


def to_handwritten(game, state, start=None) -> dict:
    """The hand-written state for an engine state (its piles keep their top at the end)."""
    zones, flow = state["zones"], state["flow"]
    env = next((f["env"] for f in reversed(state["stack"]) if f["k"] == "act"), {})  # the rule's locals
    step = step_of(game, state)
    n = state["n"]
    return {
        "n": n,
        "deck": list(reversed(zones["deck"])), "dev_deck": list(reversed(zones["dev_deck"])),
        **{name: list(zones[name]) for name in SHARED},
        **{name: [list(z) for z in zones[name]] for name in PER_PLAYER},
        "style": list(state["pvars"]["style"]), "chosen": [None] * n,
        "taken_on": list(state["cstate"]["taken_on"][hw.FIRST_DEV:]),
        "turn_number": state["vars"]["turn_number"], "round": flow["round"], "turns": flow["turns"],
        "start": flow["start"] if start is None else start, "current": flow["current"],
        "step": step, "partner": env.get("p") if step == "answer" else None,
        "order": env.get("o") if step == "answer" else None,
        "received": env.get("a") if step == "duplicate" else None,
        "over": flow["over"], "said": [],
    }


def random_engine_states(game, seed, every=1):
    """The states of one random engine game, every `every`-th move and the last."""
    rnd = random.Random(seed)
    state = game.new_game(3, seed)
    i = 0
    while not game.is_over(state):
        if i % every == 0:
            yield state
        state = game.apply(state, rnd.choice(game.legal_moves(state)))
        i += 1
    yield state


def compare_scoring(game, state):
    mine = hw.results(to_handwritten(game, state))
    theirs = game.results(state)
    assert mine["scores"] == theirs["scores"]
    assert mine["fields"] == theirs["fields"]
    assert mine["ranks"] == theirs["ranks"]


# ------------------------------------------------------------------ scoring


@pytest.mark.parametrize("seed", range(40))
def test_scoring_agrees_along_random_engine_games(game, seed):
    for state in random_engine_states(game, seed, every=5):
        compare_scoring(game, state)


def deal_holdings(game, state, rnd):
    """Scatter the cards of an engine state at random: any warehouse, hand, devs and style."""
    n, zones = state["n"], state["zones"]
    for name in zones:
        zones[name] = [[] for _ in range(n)] if name in PER_PLAYER else []
    trade = list(range(hw.N_TRADE))
    devs = list(range(hw.FIRST_DEV, hw.FIRST_DEV + len(hw.DEVS)))
    rnd.shuffle(trade)
    rnd.shuffle(devs)
    for p in range(n):
        zones["warehouse"][p] = [trade.pop() for _ in range(rnd.randint(0, 12))]
        zones["hand"][p] = sorted((trade.pop() for _ in range(rnd.randint(0, 6))), key=lambda c: hw.CARDS[c].number)
        zones["devs"][p] = [devs.pop() for _ in range(rnd.randint(0, 4))]
        state["pvars"]["style"][p] = rnd.choice([None, *hw.SUITS])
    zones["deck"], zones["dev_deck"] = trade, devs
    for name, z in zones.items():
        for owner, items in (enumerate(z) if name in PER_PLAYER else [(-1, z)]):
            for c in items:
                state["where"][c] = [name, owner, None]


@pytest.mark.parametrize("seed", range(300))
def test_scoring_agrees_on_random_holdings(game, seed):
    rnd = random.Random(seed)
    state = game.new_game(3, seed)
    deal_holdings(game, state, rnd)
    compare_scoring(game, state)


def test_scoring_cases_from_the_rules():
    # China 3 4 5 5 6: L = 4, 4 + 2; 12 13 14 | 1 2: 14 and 1 are not consecutive
    assert hw.china_vp([3, 4, 5, 5, 6, 10, 11]) == 6 and hw.china_vp([12, 13, 14, 1, 2]) == 5
    assert hw.china_vp([]) == 0
    # Japan: runs 1-3 and 5-8, 8 twice, 11 three times
    assert hw.japan_vp([1, 2, 3, 5, 6, 7, 8, 8, 11, 11, 11]) == 3 + 4 + 1 + 1


# ------------------------------------------------------------------ the same game, move by move


@pytest.mark.parametrize("seed", range(60))
def test_same_moves_and_results_as_the_engine(game, seed):
    rnd = random.Random(seed)
    state = game.new_game(3, seed)
    styles = [rnd.choice(game.legal_moves(state, p)) for p in range(3)]
    after = state
    for m in styles:
        after = game.apply(after, m)
    mine = to_handwritten(game, state, start=after["flow"]["start"])
    assert hw.legal_moves(mine) == game.legal_moves(state)
    while not game.is_over(state):
        assert hw.waiting_for(mine) == game.waiting_for(state)
        seat = game.waiting_for(state)[0]
        theirs = game.legal_moves(state, seat)
        assert hw.legal_moves(mine, seat) == theirs
        move = styles[seat] if mine["step"] == "style" else rnd.choice(theirs)
        mine = hw.apply(mine, move)
        state = game.apply(state, move)
        assert mine["said"] == state["said"]
    assert hw.is_over(mine)
    assert hw.results(mine) == game.results(state)
    assert to_handwritten(game, state)["hand"] == mine["hand"]


# ------------------------------------------------------------------ the hand-written version alone


@pytest.mark.parametrize("seed", range(20))
def test_random_handwritten_games_finish(seed):
    rnd = random.Random(seed)
    state = hw.new_game(seed)
    for _ in range(1000):
        if hw.is_over(state):
            break
        state = hw.apply(state, rnd.choice(hw.legal_moves(state)))
    else:
        pytest.fail("a hand-written random game did not end within 1000 moves")
    result = hw.results(state)
    assert result["finished"] and result["turns"] == 30 and state["round"] == 10
    assert state["deck"] == [] and all(len(h) == 6 for h in state["hand"])
    everything = [c for name in ("deck", "dev_deck", *SHARED) for c in state[name]] + \
        [c for name in PER_PLAYER for z in state[name] for c in z]
    assert sorted(everything) == list(range(hw.FIRST_DEV + len(hw.DEVS)))
    assert len(result["winners"]) >= 1 and all(result["ranks"][w] == 1 for w in result["winners"])


@pytest.mark.parametrize("seed", range(10))
def test_is_legal_agrees_with_the_listing_and_refusals_change_nothing(seed):
    rnd = random.Random(seed)
    state = hw.new_game(seed)
    while not hw.is_over(state):
        seat = hw.waiting_for(state)[0]
        legal = hw.legal_moves(state, seat)
        other = (seat + 1) % 3
        candidates = legal + [
            {"seat": seat, "alt": m["alt"], "args": [rnd.randrange(-1, 70) if isinstance(a, int) else a
                                                     for a in m["args"]]} for m in legal[:20]
        ] + [{"seat": other, "alt": legal[0]["alt"], "args": legal[0]["args"]}]
        for m in candidates:
            assert hw.is_legal(state, m) == (m in hw.legal_moves(state, m["seat"])), m
        snapshot = hw.copy_state(state)
        for m in candidates:
            if not hw.is_legal(state, m):
                with pytest.raises(ValueError):
                    hw.apply(state, m)
        assert state == snapshot
        state = hw.apply(state, rnd.choice(legal))
