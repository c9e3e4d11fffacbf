"""CPU time of one `Game.resample`: `python benchmarks/resample.py FILE [--players N] [--rounds R]`.

Plays 4 seeded random games, keeps every fifth state (at most 60) with the seat to move, and
times 10 resamples of each for that seat (CPU time of this process); prints the median over
the rounds of the mean microseconds per resample. Trade Tycoon's public facts (the balance
card's place in every hand) make it the game where resampling costs most.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.pipeline import load  # noqa: E402


def sample_states(game, players: int, games: int = 4, every: int = 5, most: int = 60) -> list:
    """(state, seat to move) pairs from seeded random games."""
    states = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        k = 0
        while not game.is_over(state):
            seat = game.waiting_for(state)[0]
            if k % every == 0:
                states.append((state, seat))
            state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
            k += 1
    return states[:most]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    game = load(args.file)
    states = sample_states(game, args.players or game.min_players)
    times = []
    for r in range(args.rounds):
        rng = random.Random(r)
        start = time.process_time()
        for state, seat in states:
            for _ in range(10):
                game.resample(state, seat, rng)
        times.append((time.process_time() - start) / (10 * len(states)) * 1e6)
    print(f"{Path(args.file).name}: {len(states)} states, one resample: median {statistics.median(times):.0f} us "
          f"CPU (rounds: {', '.join(f'{t:.0f}' for t in times)})")


if __name__ == "__main__":
    main()
