"""Bots: always legal, blind to what their seat cannot see, deterministic; determinization; external bots."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from gamedsl.bots.registry import make_bot
from gamedsl.runtime.state import clone
from gamedsl.pipeline import load
from gamedsl.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.game"))
SIM_GAMES = Path(__file__).resolve().parents[1] / "sim" / "games"
BOTS = Path(__file__).resolve().parent / "programs"
SPECS = ["random", "greedy:samples=2", "mcts:iters=15"]


def play_checked(game, specs, seed, players=None):
    """Play a game with the given bots, asserting every move is among the seat's legal moves."""
    bots = [make_bot(s, game, i, seed) for i, s in enumerate(specs)]
    state = game.new_game(len(specs), seed)
    moves = 0
    while not game.is_over(state):
        seat = game.waiting_for(state)[0]
        move = bots[seat].choose(state)
        assert move in game.legal_moves(state, seat), (specs[seat], move)
        state = game.apply(state, move)
        moves += 1
    for b in bots:
        if hasattr(b, "close"):
            b.close()
    return state, moves


@pytest.mark.parametrize("path", EXAMPLES + [SIM_GAMES / "low_cards.game"], ids=lambda p: p.stem)
def test_bots_only_choose_legal_moves(path):
    game = load(str(path))
    fewest = max(2, game.min_players)  # (a game for four: four seats)
    for seed in range(2):
        specs = [SPECS[(seed + i) % len(SPECS)] for i in range(fewest)]
        state, _ = play_checked(game, specs, seed)
        assert game.results(state)["finished"]
    if game.max_players >= 3 and game.min_players <= 3:
        state, _ = play_checked(game, SPECS, 5)
        assert game.is_over(state)


def test_same_seed_same_game():
    game = load(str(ROOT / "examples" / "high_card.game"))
    a, _ = play_checked(game, ["mcts:iters=20", "greedy"], 3)
    b, _ = play_checked(game, ["mcts:iters=20", "greedy"], 3)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# ---------------------------------------------------------------- blind to hidden information


def swap_hidden(game, state, seat):
    """The same state for `seat`'s eyes, with another player's hand and the deck's order changed."""
    other = 1 - seat
    new = clone(state)
    hand, deck = new["zones"]["hand"][other], new["zones"]["deck"]
    cat = game.catalogue(new)
    rank = lambda c: cat.attrs[c]["rank"]  # noqa: E731
    i = next(i for i, c in enumerate(deck) if all(rank(c) != rank(h) for h in hand))
    deck[i], hand[0] = hand[0], deck[i]
    hand.sort(key=rank)
    deck.reverse()
    for z, name, owner in ((hand, "hand", other), (deck, "deck", -1)):
        for c in z:
            new["where"][c] = [name, owner, None]
    return new


@pytest.mark.parametrize("spec", ["greedy:samples=3", "mcts:iters=40"])
def test_decision_does_not_depend_on_hidden_information(spec):
    game = load(str(ROOT / "examples" / "high_card.game"))
    for seed in range(4):
        state = game.new_game(2, seed)
        seat = game.waiting_for(state)[0]
        other = swap_hidden(game, state, seat)
        assert game.view(other, seat) == game.view(state, seat)
        assert other["zones"]["hand"][1 - seat] != state["zones"]["hand"][1 - seat]
        rng_a, rng_b = random.Random(9), random.Random(9)
        assert game.resample(state, seat, rng_a) == game.resample(other, seat, rng_b)
        a = make_bot(spec, game, seat, seed).choose(state)
        b = make_bot(spec, game, seat, seed).choose(other)
        assert a == b


def test_decision_ignores_unrevealed_secret_choices():
    """A seat bidding second cannot see the first bid: changing it changes nothing."""
    game = load(str(ROOT / "examples" / "pearl_auction.game"))
    state = game.new_game(2, 4)
    assert game.waiting_for(state) == [0, 1]
    bids = game.legal_moves(state, 0)
    low, high = game.apply(state, bids[0]), game.apply(state, bids[-1])
    assert low != high and game.view(low, 1) == game.view(high, 1)
    for spec in ("greedy", "mcts:iters=40"):
        assert make_bot(spec, game, 1, 7).choose(low) == make_bot(spec, game, 1, 7).choose(high)


def test_determinization_keeps_what_the_seat_knows():
    game = load(str(SIM_GAMES / "low_cards.game"))
    rng = random.Random(1)
    for seed in range(5):
        state = game.new_game(2, seed)
        state = game.apply(state, game.legal_moves(state, 1)[1])  # P2's secret guess: 2
        real_low = game.public_facts(state)
        cat = game.catalogue(state)
        changed = 0
        for _ in range(20):
            # (a hand of four low cards is one deal in fourteen: 200 redraws leave no sample
            # with the fact wrong in practice, where the default 50 would one in about 300)
            sample = game.resample(state, 0, rng, 200)
            assert game.view(sample, 0) == game.view(state, 0)
            assert game.public_facts(sample) == real_low
            hand = sample["zones"]["hand"][1]
            assert [cat.attrs[c]["rank"] for c in hand] == sorted(cat.attrs[c]["rank"] for c in hand)
            placed = sorted(sample["zones"]["deck"] + sample["zones"]["played"]
                            + sample["zones"]["hand"][0] + hand)
            assert placed == list(range(len(cat.kind)))
            for c in range(len(cat.kind)):
                name, owner, _ = sample["where"][c]
                z = sample["zones"][name][owner] if owner >= 0 else sample["zones"][name]
                assert c in z
            assert sample["pvars"]["guess"][1] in (0, sample["pvars"]["guess"][0])  # start value or ours
            assert sample["pending"]["got"]["1"] in game.legal_moves(
                dict(sample, pending=dict(sample["pending"], got={})), 1)
            assert sample["rng"] != state["rng"]
            changed += sample["zones"]["hand"][1] != state["zones"]["hand"][1]
        assert changed > 0


def test_determinization_keeping_public_facts_does_not_depend_on_hidden_information():
    """The hidden cards differ, the public fact about them does not: the samples are the same,
    redraws for the fact included (what a fact reads is recorded on the sample)."""
    game = load(str(SIM_GAMES / "low_cards.game"))
    redrawn = 0
    for seed in range(4):
        state = game.new_game(2, seed)
        cat = game.catalogue(state)
        rank = lambda c: cat.attrs[c]["rank"]  # noqa: E731
        other = clone(state)
        hand, deck = other["zones"]["hand"][1], other["zones"]["deck"]
        # a card of P2's changes places with a deck card of another rank, as low or as high
        i, j = next((i, j) for i, c in enumerate(hand) for j, d in enumerate(deck)
                    if rank(c) != rank(d) and (rank(c) <= 2) == (rank(d) <= 2))
        hand[i], deck[j] = deck[j], hand[i]
        hand.sort(key=rank)
        for z, name, owner in ((hand, "hand", 1), (deck, "deck", -1)):
            for c in z:
                other["where"][c] = [name, owner, None]
        assert game.view(other, 0) == game.view(state, 0) and other != state
        want = game.public_facts(state)
        for k in range(6):
            sample = game.resample(state, 0, random.Random(k), 200)
            assert sample == game.resample(other, 0, random.Random(k), 200)
            assert game.public_facts(sample) == want
            # (one try: the first deal of the same draws; where it differs, a redraw made the sample)
            plain = game.resample(state, 0, random.Random(k), 1)
            redrawn += plain["zones"]["hand"][1] != sample["zones"]["hand"][1]
    assert redrawn > 0


def test_determinization_keeps_every_seats_public_facts():
    """Three players, two facts each about a hidden hand: every other hand is redealt until its
    facts hold, and the hands still vary between samples."""
    game = load(str(ROOT / "games" / "trade_tycoon.game"))
    for seed in range(2):
        state = game.new_game(3, seed)
        seat = game.waiting_for(state)[0]
        want = game.public_facts(state)
        rng = random.Random(seed)
        hands = set()
        for _ in range(15):
            sample = game.resample(state, seat, rng, 200)
            assert game.public_facts(sample) == want
            assert game.view(sample, seat) == game.view(state, seat)
            hands.add(tuple(tuple(h) for s, h in enumerate(sample["zones"]["hand"]) if s != seat))
        assert len(hands) > 10


def test_bad_bot_specs_are_clear_errors():
    game = load(str(ROOT / "examples" / "tictactoe.game"))
    for spec, words in (("mcts:iters=ten", "iters must be a whole number from 0 to 1,000,000, not 'ten'"),
                        ("mcts:speed=3", "does not take"),
                        ("greedy:samples=-1", "samples must be a whole number from 0 to 1,000, not '-1'"),
                        ("robot", "unknown bot"),
                        ("cmd:", "needs a command"), ("cmd:./x.py:fallback=cry", "fallback")):
        with pytest.raises(UsageError) as err:
            make_bot(spec, game, 0, 1)
        assert words in err.value.message


# ---------------------------------------------------------------- the external-bot protocol


def cmd(script: Path, *opts: str) -> str:
    return ":".join([f"cmd:{sys.executable} {script}", *opts])


def test_external_bot_plays_a_whole_game():
    game = load(str(ROOT / "examples" / "high_card.game"))
    bot = make_bot(cmd(ROOT / "examples" / "json_bot.py"), game, 0, 5)
    other = make_bot("random", game, 1, 5)
    state = game.new_game(2, 5)
    while not game.is_over(state):
        seat = game.waiting_for(state)[0]
        move = (bot if seat == 0 else other).choose(state)
        if seat == 0 and len(game.legal_moves(state, 0)) > 1:
            ranks = [int(game.move_text(state, m).split()[-1]) for m in game.legal_moves(state, 0)]
            assert int(game.move_text(state, move).split()[-1]) == max(ranks)  # the bot's own choice
        state = game.apply(state, move)
    bot.close()
    assert bot.problems == []
    assert game.results(state)["finished"]


@pytest.mark.parametrize("script,opts,problem", [
    ("crash.py", [], "the bot exited"),
    ("stall.py", ["timeout=0.3"], "no answer within 0.3 s"),
    ("garbage.py", [], "not JSON"),
])
def test_protocol_survives_bad_bots(script, opts, problem):
    game = load(str(ROOT / "examples" / "high_card.game"))
    state, moves = play_checked(game, [cmd(BOTS / script, *opts), "random"], 2)
    assert game.results(state)["finished"] and moves > 4


def test_bad_answers_are_recorded_and_fall_back():
    from gamedsl.sim.simulate import SimSpec, play_one

    game = load(str(ROOT / "examples" / "high_card.game"))
    for script, opts, problem in (("crash.py", [], "the bot exited"),
                                  ("stall.py", ["timeout=0.3"], "no answer within 0.3 s"),
                                  ("garbage.py", [], "not JSON")):
        spec = SimSpec(path="", seats=[cmd(BOTS / script, *opts), "random"], games=1, seed=3)
        record = play_one(game, spec, 0)
        assert record["finished"] and record["error"] is None
        assert record["bot_problems"]["0"][0].startswith(problem)
    spec = SimSpec(path="", seats=[cmd(BOTS / "garbage.py"), "random"], games=1, seed=3)
    problems = play_one(game, spec, 0)["bot_problems"]["0"]
    assert any(p.startswith("not a legal move") for p in problems)


def test_a_failing_bot_may_forfeit():
    from gamedsl.sim.simulate import SimSpec, play_one

    game = load(str(ROOT / "examples" / "high_card.game"))
    spec = SimSpec(path="", seats=["random", cmd(BOTS / "crash.py", "fallback=forfeit")], games=1, seed=3)
    record = play_one(game, spec, 0)
    assert record["forfeit"] == 1 and record["winners"] == [0]
    assert "P2 forfeits: the bot exited" in record["error"]


# ---------------------------------------------------------------- the declared heuristic

MOODS = '''game "Moods"
players 2
player var mood: number = 0
player var points: number = 0
turn:
  choose by current:
    sulk "sulk":
      current.mood = 0
    cheer "cheer":
      current.mood = 5
  current.points += 1
  if current.points >= 3:
    end game
score of p: p.points
'''


def test_greedy_follows_the_declared_heuristic(tmp_path):
    path = tmp_path / "moods.game"
    path.write_text(MOODS + "heuristic of p: p.mood\n")
    game = load(str(path))
    state = game.new_game(2, 0)
    assert game.heuristics(game.apply(state, game.legal_moves(state)[1])) == [5, 0]
    picks = {make_bot("greedy", game, 0, seed).choose(state)["alt"] for seed in range(12)}
    assert picks == {"cheer"}
    path.write_text(MOODS)  # without a heuristic the score decides: both moves are equal
    game = load(str(path))
    assert game.heuristics(state) == game.scores(state)
    picks = {make_bot("greedy", game, 0, seed).choose(state)["alt"] for seed in range(12)}
    assert picks == {"cheer", "sulk"}


def test_heuristic_is_checked_like_a_score(tmp_path):
    from gamedsl.pipeline import check_files

    path = tmp_path / "bad.game"
    path.write_text(MOODS + 'heuristic of p: "happy"\nheuristic of p: random([1, 2])\n')
    diags, _ = check_files([str(path)])
    assert sorted(d.code for d in diags if d.is_error) == ["E201", "E210", "E301"]


def test_apply_legal_is_apply_without_the_check():
    game = load(str(ROOT / "examples" / "pearl_auction.game"))
    state = game.new_game(3, 2)
    for move in game.legal_moves(state)[:5]:
        checked = game.apply(state, move)
        assert game.apply_legal(state, move) == checked
        mine = clone(state)
        assert game.apply_legal(mine, move, in_place=True) is mine and mine == checked


def test_mcts_top_searches_only_the_moves_a_one_ply_look_rates_best(tmp_path):
    # One iteration cannot tell the moves apart: without `top` the pick is any fresh move;
    # with top=1 the root holds only the move with the best one-ply margin (cheer).
    path = tmp_path / "moods.game"
    path.write_text(MOODS + "heuristic of p: p.mood\n")
    game = load(str(path))
    state = game.new_game(2, 0)
    plain = {make_bot("mcts:iters=1", game, 0, seed).choose(state)["alt"] for seed in range(12)}
    assert plain == {"cheer", "sulk"}
    topped = {make_bot("mcts:iters=1:top=1", game, 0, seed).choose(state)["alt"] for seed in range(12)}
    assert topped == {"cheer"}


def test_mcts_worlds_caps_the_determinizations_drawn_per_decision(monkeypatch):
    game = load(str(ROOT / "examples" / "high_card.game"))
    state = game.new_game(2, 4)
    drawn = []
    resampler = game.resampler

    def counting(*args, **kwargs):
        sampler = resampler(*args, **kwargs)
        draw = sampler.draw

        def counted(*args, **kwargs):
            drawn.append(1)
            return draw(*args, **kwargs)
        sampler.draw = counted
        return sampler

    monkeypatch.setattr(game, "resampler", counting)
    # (by default a world per eight iterations, 8 at least)
    for spec, most in (("mcts:iters=40:worlds=3", 3), ("mcts:iters=40:worlds=0", 40), ("mcts:iters=40", 8),
                       ("mcts:iters=100", 12), ("mcts:iters=300", 37), ("mcts:iters=6", 6)):
        drawn.clear()
        bot = make_bot(spec, game, 0, 1)
        move = bot.choose(state)
        assert move in game.legal_moves(state, 0)
        assert len(drawn) == most, spec
    # the pool is per decision: a second decision draws its own worlds
    drawn.clear()
    bot = make_bot("mcts:iters=40:worlds=3", game, 0, 1)
    bot.choose(state)
    bot.choose(state)
    assert len(drawn) == 6


def test_a_cut_search_weighs_the_size_of_a_lead():
    # Leads of 21 and 23 points are both "ahead": only the size of the lead tells the moves apart.
    game = load(str(SIM_GAMES / "far_ahead.game"))
    picks = []
    for seed in range(20):
        state = game.new_game(2, seed)
        picks.append(game.move_text(state, make_bot("mcts:iters=10:depth=0", game, 0, seed).choose(state)))
    assert picks == ["gain 3"] * 20


def _first_moves(path, spec, seeds=range(20)):
    game = load(str(path))
    return [game.move_text(game.new_game(2, seed), make_bot(spec, game, 0, seed).choose(game.new_game(2, seed)))
            for seed in seeds]


def test_below_searches_the_reply_a_careful_opponent_would_weigh_first():
    # Grabbing 5 opens a door to a 20-point reply hidden among sixty replies worth nothing:
    # ten iterations rarely try it, unless each node looks at its best-rated replies first.
    door = SIM_GAMES / "open_door.game"
    assert _first_moves(door, "mcts:iters=10:depth=0").count("take 3") <= 3
    assert _first_moves(door, "mcts:iters=10:depth=0:below=1") == ["take 3"] * 20


def test_plies_stops_the_tree_growing():
    # One ply deep, the search never sees the reply: it judges "grab 5" ahead, as greedy does.
    door = SIM_GAMES / "open_door.game"
    assert _first_moves(door, "mcts:iters=10:depth=0:below=1:plies=1") == ["grab 5"] * 20
    assert _first_moves(door, "mcts:iters=10:depth=0:below=1:plies=2") == ["take 3"] * 20


def test_a_typed_choice_listed_once_serves_only_worlds_that_look_the_same():
    # The second player's typed moves are the ranks in its hand, which the first player
    # cannot see: every sampled world must get its own moves, and a world seen again the
    # listing already made for it.
    from gamedsl.bots.search import MctsBot, new_node

    game = load(str(SIM_GAMES / "say_a_rank.game"))
    state = game.new_game(2, 1)
    state = game.apply(state, game.legal_moves(state)[0])  # now the second player says a rank
    bot = MctsBot(game, 0, 1, "iters=1")
    node, rng, listings = new_node(), random.Random(1), set()
    for _ in range(20):
        world = game.resample(state, 0, rng)
        moves, keys = bot.node_moves(node, world, 1)
        assert moves.moves() == game.legal_moves(world, 1)
        assert bot.node_moves(node, clone(world), 1)[0] is moves
        listings.add(tuple(keys))
    assert len(listings) > 1  # the hands differ between worlds, and so do the moves
