"""A search's draws are part of the game: the same seeds give the same moves, and the
shortcuts a search takes (the root's moves chosen without a pass over all of them while some
are unvisited, states judged where they stand left unlisted, scores kept across worlds)
change what it costs, never what it picks."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from gamedsl.bots.registry import make_bot
from gamedsl.errors import RuleError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
CLIMB = ROOT / "examples" / "colour_climb.game"


def _moves(spec: str, seed: int, count: int):
    game = load(str(CLIMB))
    bots = [make_bot(spec, game, s, seed) for s in range(game.min_players)]
    state = game.new_game(game.min_players, seed)
    out = []
    while not game.is_over(state) and len(out) < count:
        move = bots[game.waiting_for(state)[0]].choose(state)
        out.append(game.move_text(state, move))
        state = game.apply(state, move)
    return out


# Written down from the search that went over every move at every selection, counted each
# move's availability itself and listed every state it reached. Sixty iterations over a few
# moves: the root's choice by UCB, not only its untried moves, decides these.
@pytest.mark.parametrize("spec, expected", [
    ("mcts:iters=60:worlds=16", ["take", "play yellow-5", "play green-7", "play green-10", "take", "play green-10",
                       "take", "take", "play blue-7", "take", "take", "play blue-4", "play blue-8",
                       "play red-9"]),
    ("mcts:iters=40:depth=0:worlds=16", ["play blue-8", "play green-10", "take", "play green-10", "take",
                               "play red-10", "take", "take", "play blue-10", "take", "take",
                               "play red-9", "play yellow-10", "take"]),
    ("mcts:iters=40:depth=0:worlds=0", ["play blue-8", "play green-10", "take", "play green-10",
                                        "take", "play red-10", "take", "take", "play blue-10", "take",
                                        "take", "play red-9", "play yellow-10", "take"]),
])
def test_seeded_searches_pick_as_they_always_have(spec, expected):
    assert _moves(spec, 4, 14) == expected


def test_a_held_memo_keeps_scores_for_the_states_after_them():
    # Ten worlds scored once each find nothing kept; a memo judging them would give up
    # keeping after eight. Held, it keeps them all, and the same worlds scored again are found.
    game = load(str(ROOT / "games" / "trade_tycoon.game"))
    state = game.new_game(3, 5)
    rng = random.Random(5)
    for _ in range(12):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    worlds = [game.resample(state, 0, rng) for _ in range(10)]
    scores = [game.heuristics(w) for w in worlds]

    memo = game.heuristics_memo()
    memo.hold_judgement(True)
    assert [game.heuristics(w, memo) for w in worlds] == scores
    memo.hold_judgement(False)
    first = memo.hits
    assert [game.heuristics(w, memo) for w in worlds] == scores
    assert memo.hits - first == 30

    unheld = game.heuristics_memo()
    for w in worlds:
        game.heuristics(w, unheld)
    first = unheld.hits
    for w in worlds:
        game.heuristics(w, unheld)
    assert unheld.hits - first < 30


def test_seeded_greedy_picks_as_it_always_has():
    # Written down from the greedy that checked each state it scored for a move at its choice.
    game = load(str(ROOT / "games" / "trade_tycoon.game"))
    bots = [make_bot("greedy", game, s, 4) for s in range(3)]
    state = game.new_game(3, 4)
    out = []
    while len(out) < 12:
        move = bots[game.waiting_for(state)[0]].choose(state)
        out.append(game.move_text(state, move))
        state = game.apply(state, move)
    assert out == ["style 3 japan", "style 13 rome", "style 2 japan", "relay 14 china for 1 rome to P1 order number",
                   "return 1 japan", "give 4 japan to P2 order suit", "return 9 japan",
                   "relay 2 rome for 14 china to P1 order number", "return 12 china",
                   "give 14 rome to P1 order suit", "return 9 rome", "relay 12 rome for 6 japan to P2 order number"]


STUCK = """game "Stuck"
players 2
var total: int = 0

turn:
  choose by current:
    step "step":
      total += 1
      say "the count is " + text(total)
      say "you stepped" to current
    leap "leap":
      total += 10
  choose by current:
    count(n in [1, 2]) "count {n}" if total + n < 10:
      total += n
  if total >= 6:
    end game winner current

score of p: total
"""


@pytest.mark.parametrize("backend", ["compiled", "interpreter"])
def test_a_state_only_scored_is_the_state_played_on_without_its_messages_or_a_look_ahead(tmp_path, backend):
    path = tmp_path / "stuck.game"
    path.write_text(STUCK)
    game = load(str(path), backend=backend)
    state = game.new_game(2, 1)
    step, leap = game.legal_moves(state)
    played = game.apply_legal(state, step)
    quiet = game.apply_legal(state, step, quiet=True)
    scored = game.apply_legal(state, step, scored_only=True)
    assert played["said"] == ["the count is 1"] and played["told"] == [[0, 1, "you stepped"]]
    for silent in (quiet, scored):
        assert silent["said"] == [] and "told" not in silent
        assert {k: v for k, v in silent.items() if k not in ("said", "told")} == \
            {k: v for k, v in played.items() if k not in ("said", "told")}
    assert game.legal_moves(quiet) == game.legal_moves(played)
    # a move into a choice with no legal move: the mistake shows where a game goes on
    scored = game.apply_legal(state, leap, scored_only=True)
    assert scored["vars"]["total"] == 10 and scored["pending"]["players"] == [0]
    assert game.legal_moves(scored) == []
    with pytest.raises(RuleError) as err:
        game.apply_legal(state, leap)
    assert err.value.code == "E503"
    with pytest.raises(RuleError):
        game.apply(state, leap)


SHUFFLE_PICK = '''
game "Shuffle pick"
players 2

kind chip:
  copies 3 per player

zone pile of chip: public
player zone kept of chip: public

setup:
  move chip to pile

turn:
  choose by current:
    mix "mix":
      shuffle pile
    take "take":
      move first(pile) to current.kept
  if len(pile) == 0:
    end game

score of p: len(p.kept)
'''


def _applied(game, spec: str) -> dict:
    """How often greedy's first decision applies each alternative's move (in its worlds)."""
    counts: dict = {}
    apply_legal = game.apply_legal

    def counting(state, move, *args, **kwargs):
        counts[move["alt"]] = counts.get(move["alt"], 0) + 1
        return apply_legal(state, move, *args, **kwargs)

    bot = make_bot(spec, game, 0, 7)
    state = game.new_game(game.min_players, 7)
    game.apply_legal = counting
    try:
        bot.choose(state)
    finally:
        del game.apply_legal
    return counts


def test_greedy_scores_a_move_once_in_worlds_alike(tmp_path):
    # nothing is hidden: the four sampled worlds differ only in their future draws, so a move
    # that draws nothing is scored once; a shuffle draws, and is scored in every world
    path = tmp_path / "shuffle_pick.game"
    path.write_text(SHUFFLE_PICK)
    assert _applied(load(str(path)), "greedy:samples=4") == {"mix": 4, "take": 1}


def test_greedy_scores_every_world_that_hides_something():
    game = load(str(ROOT / "games" / "trade_tycoon.game"))
    counts = _applied(game, "greedy:samples=3")
    assert counts and all(n % 3 == 0 for n in counts.values())


@pytest.mark.parametrize("path", [ROOT / "games" / "trade_tycoon.game", ROOT / "games" / "legendary_inventors.game",
                                  CLIMB, ROOT / "examples" / "blind_hands.game"], ids=lambda p: p.name)
def test_a_resampler_draws_the_samples_resample_draws(path):
    """Sample after sample of one state (the places it cannot see into and the public facts
    worked out with the first): the same worlds, and the same draws, as `resample` each time."""
    game = load(str(path))
    rng = random.Random(2)
    state = game.new_game(game.min_players, seed=6)
    for step in range(40):
        if game.is_over(state):
            break
        if step % 4 == 0:
            for seat in range(game.min_players):
                sampler = game.resampler(state, seat)
                ours, alone = random.Random(step + seat), random.Random(step + seat)
                for _ in range(3):
                    assert sampler.draw(ours) == game.resample(state, seat, alone)
                    assert ours.getstate() == alone.getstate()
        state = game.apply_legal(state, game.random_move(state, game.waiting_for(state)[0], rng))


def test_sampled_worlds_that_keep_public_facts_are_drawn_as_they_always_have():
    # Trade Tycoon's balance card makes each hand's count of low and high cards public: a
    # sample redeals hands until they match. Written down from the sampler before its redeals
    # were made cheaper; any change to which components a draw picks, or in what order it
    # deals them, changes this digest.
    game = load(str(ROOT / "games" / "trade_tycoon.game"))
    digest = hashlib.sha256()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(3, seed)
        for turn in range(30):
            if turn % 6 == 2:
                sampler = game.resampler(state, game.waiting_for(state)[0])
                draws = random.Random(turn)
                for _ in range(3):
                    digest.update(json.dumps(sampler.draw(draws), sort_keys=True).encode())
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert digest.hexdigest() == "5048cf8a1ca898d807e80d9e3e6afbc02842ef76b76e08ce91522000682274af"
