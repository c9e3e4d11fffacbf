"""An external bot learns nothing its seat cannot see.

`programs/seed_attacker.py` is a real `cmd:` bot that tries what an attacker would: it looks
for a seed or key in everything it is sent, rebuilds the game from every seed `simulate`
would use (its opponents played as gamedsl's `random` bots seeded from it) and keeps the
one whose views match; then it reads the hidden components and a random opponent's next
(even secret) choice. Each decision it writes down its guess of every face it cannot see.

Played the way `play` and `simulate` deal for such a bot (with the host's secret key), its
guesses must be no better than chance; played from the bare seed (no key: the control), the
same attack must see everything, which shows the test would catch a leak. Fixed seeds and
fixed keys: the numbers are the same on every run.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path

import pytest

from gamedsl.bots.registry import make_seat
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
ATTACKER = Path(__file__).resolve().parent / "programs" / "seed_attacker.py"
GAMES = sorted(str(p.relative_to(ROOT)) for p in list((ROOT / "examples").glob("[!.]*.game"))
               + list((ROOT / "games").glob("[!.]*.game")))
PEARLS = "examples/pearl_auction.game"


def key_for(path: str, seed: int) -> str:
    """A fixed stand-in for the random key `play` makes (the attacker never sees it)."""
    return hashlib.blake2b(f"adversary:{path}:{seed}".encode(), digest_size=16).hexdigest()


def play_attacked(path: str, seed: int, key, report: Path, search: int, max_turns: int = 30):
    """One game: the attacker in seat 0, `random` bots in the others. Returns what was true at
    each of the attacker's decisions: the faces in every place it cannot look into, the faces
    it could not see (its pool of guesses), and each secret bid paired with the other's."""
    game = load(str(ROOT / path))
    n = game.min_players
    seats = [f"cmd:{sys.executable} {ATTACKER} {ROOT / path} {report} {search}:timeout=120"] + ["random"] * (n - 1)
    state = game.new_game(n, seed, None, max_turns, key=key)
    players = [make_seat(s, game, i, seed, key) for i, s in enumerate(seats)]
    cat = game.catalogue(state)
    truths, bids, following = [], [], []
    after_attacker = False
    try:
        while not game.is_over(state):
            seat = game.waiting_for(state)[0]
            among = 0
            if after_attacker and seat != 0:   # the move right after the attacker's, another seat's
                among = len(game.legal_moves(state, seat))
            if seat == 0:
                visible = game.visible_components(state, 0)
                hidden = {}
                for name, info in game.program.zones.items():
                    z = state["zones"][name]
                    for owner, items in (enumerate(z) if info.per_player else [(-1, z)]):
                        if not game.sees(name, owner, 0) and isinstance(items, list):
                            hidden[f"{name}/{owner}"] = [cat.show[c] for c in items]
                pool = [cat.show[c] for c in range(len(cat.show)) if c not in visible]
                truths.append((hidden, pool))
            move = players[seat].choose(state)
            if among:
                following[-1] = (move, among)
            after_attacker = seat == 0
            if seat == 0:
                following.append((None, 0))
            if move["alt"] == "bid":
                if seat == 0:
                    bids.append({"mine": move["args"][0], "range": len(game.legal_moves(state, 0))})
                elif seat == 1:
                    bids[-1]["theirs"] = move["args"][0]
            state = game.apply(state, move)
    finally:
        for p in players:
            if hasattr(p, "close"):
                p.close()
    assert players[0].problems == [], players[0].problems
    return truths, bids, following


def score(truths, lines):
    """(slots guessed right, slots, expected right by chance, its variance)."""
    assert len(lines) == len(truths)
    hits = slots = 0
    mean = var = 0.0
    for (hidden, pool), line in zip(truths, lines):
        for place, faces in hidden.items():
            guess = line["guess"].get(place, [])
            for j, face in enumerate(faces):
                slots += 1
                hits += j < len(guess) and guess[j] == face
                p = pool.count(face) / len(pool)   # a face drawn blind from what it cannot see
                mean += p
                var += p * (1 - p)
    return hits, slots, mean, var


def attack(path, seeds, keyed, tmp_path, max_turns=30):
    report = tmp_path / f"{Path(path).stem}-{'keyed' if keyed else 'bare'}.jsonl"
    truths, bids, lines, following = [], [], [], []
    for seed in seeds:
        report.write_text("")
        t, b, f = play_attacked(path, seed, key_for(path, seed) if keyed else None, report, max(seeds) + 2,
                                max_turns)
        got = [json.loads(line) for line in report.read_text().splitlines()]
        assert all(not line["found"] for line in got), got[0]["found"]   # nothing secret in any message
        truths += t
        bids += b
        lines += got
        following += f
    return truths, bids, lines, following


def foresight(following, lines):
    """(the next seat's moves the attacker foretold, chances to, expected by blind guessing, variance)."""
    hits = chances = 0
    mean = var = 0.0
    for (move, among), line in zip(following, lines):
        if move is None or among < 1:
            continue
        chances += 1
        hits += line["following"] == move
        mean += 1 / among
        var += (1 / among) * (1 - 1 / among)
    return hits, chances, mean, var


@pytest.mark.parametrize("path", GAMES)
def test_the_attacker_guesses_hidden_faces_no_better_than_chance(path, tmp_path):
    truths, _, lines, following = attack(path, range(1, 4), keyed=True, tmp_path=tmp_path)
    hits, slots, mean, var = score(truths, lines)
    # no better than a blind guess: within 4 standard deviations (and a little) of chance
    assert hits <= mean + 4 * math.sqrt(var) + 2, (hits, slots, mean)
    # nor does it foretell a random opponent's next move (secret or not)
    hits, chances, mean, var = foresight(following, lines)
    assert hits <= mean + 4 * math.sqrt(var) + 2, (hits, chances, mean)


@pytest.mark.parametrize("path", [PEARLS, "examples/high_card.game", "games/trade_tycoon.game"])
def test_from_the_bare_seed_the_same_attack_sees_everything(path, tmp_path):
    # the control: a game dealt from its seed alone (what `play` and `simulate` did before
    # the key) is rebuilt by the attacker, and every hidden face is known
    truths, _, lines, following = attack(path, range(1, 3), keyed=False, tmp_path=tmp_path)
    hits, slots, mean, _ = score(truths, lines)
    assert all(line["locked"] for line in lines)
    assert slots > 0 and hits == slots > mean
    hits, chances, mean, _ = foresight(following, lines)
    assert chances > 0 and hits == chances > mean


def bid_one_more(bids):
    """(times the attacker bid exactly one more than the other's secret bid, the chance of it)."""
    hits = sum(b["mine"] == b["theirs"] + 1 for b in bids)
    # bidding blind (uniformly among its legal bids), the chance of hitting theirs + 1
    p = [(1 / b["range"]) if b["theirs"] + 1 < b["range"] else 0.0 for b in bids]
    return hits, sum(p), sum(q * (1 - q) for q in p)


def test_the_pearl_auction_attack_gains_nothing(tmp_path):
    _, bids, _, _ = attack(PEARLS, range(1, 13), keyed=True, tmp_path=tmp_path, max_turns=5000)
    hits, mean, var = bid_one_more(bids)
    assert len(bids) >= 100
    assert hits <= mean + 4 * math.sqrt(var) + 2, (hits, len(bids), mean)


def test_the_pearl_auction_attack_works_on_a_bare_seed(tmp_path):
    _, bids, _, _ = attack(PEARLS, range(1, 3), keyed=False, tmp_path=tmp_path, max_turns=5000)
    hits, mean, _ = bid_one_more(bids)
    affordable = sum(b["theirs"] + 1 < b["range"] for b in bids)
    assert hits == affordable > 3 * mean
