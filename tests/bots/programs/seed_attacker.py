"""An external bot that tries to learn what its seat cannot see, as an attacker would.

    seed_attacker.py GAME_FILE REPORT_FILE SEARCH

Everything it receives is scanned for a seed, a generator state or a key. Then it rebuilds
the game in lockstep: for every seed in 0..SEARCH (the seeds `simulate` uses, and the ones
given in messages) it starts the game, plays the other seats as `random` bots seeded the way
gamedsl seeds them from a game seed, and keeps the seed whose views match the ones it is
sent. With such a seed it knows every hidden component and every random opponent's next
choice, even a secret one. Without it, it can only guess.

At each decision it writes one JSON line to REPORT_FILE: its guess of the face of every
component in every place it cannot look into (slot by slot, top first), whether it knows
the game, and anything it found that it should not have. In a secret bid (Pearl auction) it
bids one more than the bid it predicts for the other seat; knowing nothing, it bids at random.
"""

import copy
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from gamedsl import load  # noqa: E402

SUSPECT = {"seed", "rng", "key", "where", "stack", "secret"}


def suspects(data, path=""):
    """Keys of anything received that look like the host's secrets."""
    found = []
    if isinstance(data, dict):
        for k, v in data.items():
            if str(k).lower() in SUSPECT:
                found.append(f"{path}.{k}")
            found.extend(suspects(v, f"{path}.{k}"))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found.extend(suspects(v, f"{path}[{i}]"))
    return found


class Lockstep:
    """The game rebuilt from a guessed seed, the other seats played as gamedsl's `random` bots."""

    def __init__(self, game, seat, seed, players, options):
        self.game, self.seat = game, seat
        self.state = game.new_game(players, seed, options)
        self.rngs = {s: random.Random(seed * 1000 + s) for s in range(players) if s != seat}

    def others_until_me(self):
        game = self.game
        while not game.is_over(self.state):
            waiting = game.waiting_for(self.state)
            if waiting[0] == self.seat:
                return True
            seat = waiting[0]
            self.state = game.apply(self.state, self.rngs[seat].choice(game.legal_moves(self.state, seat)))
        return False

    def matches(self, view):
        return self.others_until_me() and json.loads(json.dumps(self.game.view(self.state, self.seat))) == view

    def predict(self, mine, other):
        """The other seat's next choice after my move `mine`, as its generator will make it."""
        after = self.game.apply(self.state, mine)
        rng = copy.deepcopy(self.rngs[other])
        if other not in self.game.waiting_for(after):
            return None
        return rng.choice(self.game.legal_moves(after, other))


def places(view, players):
    """(name, owner, count) of every zone the seat sees only the count of."""
    out = []
    for name, z in view["zones"].items():
        if isinstance(z, dict) and "count" in z:
            out.append((name, -1, z["count"]))
        elif isinstance(z, list) and len(z) == players and all(isinstance(x, (list, dict)) for x in z):
            out.extend((name, o, x["count"]) for o, x in enumerate(z) if isinstance(x, dict) and "count" in x)
    return out


def seen_ids(view):
    ids = set()

    def walk(z):
        if isinstance(z, dict) and "count" not in z:
            ids.update(v for v in z.values() if isinstance(v, int))
        elif isinstance(z, list):
            for x in z:
                if isinstance(x, int) and not isinstance(x, bool):
                    ids.add(x)
                else:
                    walk(x)
    for z in view["zones"].values():
        walk(z)
    return ids


def main():
    game = load(sys.argv[1])
    report = open(sys.argv[2], "a", encoding="utf-8")
    search = int(sys.argv[3])
    seat, lock, rng, tried, candidates = None, None, None, False, []
    found = []
    for line in sys.stdin:
        message = json.loads(line)
        found.extend(suspects(message))
        if message["type"] == "start":
            seat = message["seat"]
            continue
        if message["type"] != "choose":
            break
        view, moves = message["view"], message["moves"]
        players, options = view["players"], view["options"]
        if rng is None:   # its own guesses: from what it saw first (no seed is sent)
            rng = random.Random(json.dumps(view, sort_keys=True))
        if not tried:     # rebuild the game from every seed it can think of
            tried = True
            seeds = set(range(search + 1))
            seeds.update(v for k, v in message.items() if k == "seed" and isinstance(v, int))
            candidates = [Lockstep(game, seat, seed, players, options) for seed in sorted(seeds)]
        # keep the rebuilt games that still look like this one (an open game fits every seed
        # at first; the opponents' moves tell them apart)
        candidates = [c for c in candidates if c.matches(view)]
        lock = candidates[0] if candidates else None
        # its guess of every unseen place, face by face
        cat = game.catalogue(lock.state if lock else game.new_game(players, 0, options))
        guess = {}
        if lock is not None:
            state = lock.state
            for name, owner, _ in places(view, players):
                z = state["zones"][name][owner] if owner >= 0 else state["zones"][name]
                guess[f"{name}/{owner}"] = [cat.show[c] for c in z]
        else:
            unseen = [c for c in range(len(cat.show)) if c not in seen_ids(view)]
            rng.shuffle(unseen)
            for name, owner, count in places(view, players):
                guess[f"{name}/{owner}"] = [cat.show[c] for c in unseen[:count]]
                unseen = unseen[count:]
        # its move: one more than the other seat's predicted bid, where it can predict it
        pick, predicted = None, None
        bids = [i for i, m in enumerate(moves) if m["alt"] == "bid"]
        if bids and lock is not None and players == 2:
            other = 1 - seat
            theirs = lock.predict(lock.game.legal_moves(lock.state, seat)[0], other)
            if theirs is not None and theirs["alt"] == "bid":
                predicted = theirs["args"][0]
                pick = next((i for i in bids if moves[i]["args"] == [predicted + 1]), None)
        if pick is None:
            pick = rng.randrange(len(moves))
        # and the move the next seat to move will make after it (a random opponent's, even a secret one)
        following = None
        for c in candidates:
            c.state = game.apply(c.state, game.legal_moves(c.state, seat)[pick])
        if lock is not None:
            if not game.is_over(lock.state) and game.waiting_for(lock.state)[0] != seat:
                other = game.waiting_for(lock.state)[0]
                following = copy.deepcopy(lock.rngs[other]).choice(game.legal_moves(lock.state, other))
        report.write(json.dumps({"locked": lock is not None, "guess": guess, "found": found,
                                 "predicted": predicted, "following": following}) + "\n")
        report.flush()
        print(json.dumps({"move": pick}), flush=True)


if __name__ == "__main__":
    main()
