"""Random-bot games of one game: `python benchmarks/random_games.py FILE [-n 200] [--players 2,3,4,5]`.

For each player count, N games between uniformly random bots (seeds 0..N-1): games per
second (wall clock) and CPU seconds per game (steadier on a busy machine), how many finished (the rest stopped at the turn bound), the mean number of turns
and the mean score of each seat, printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.pipeline import load  # noqa: E402


def play(game, players: int, seed: int, max_turns: int) -> dict:
    rng = random.Random(seed)
    state = game.new_game(players, seed, None, max_turns)
    while not game.is_over(state):
        seat = game.waiting_for(state)[0]
        state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
    return game.results(state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("file")
    ap.add_argument("-n", type=int, default=200, help="games per player count")
    ap.add_argument("--players", default="", help="player counts, e.g. 2,3 (default: all the game allows)")
    ap.add_argument("--max-turns", type=int, default=5000)
    args = ap.parse_args()
    game = load(args.file)
    counts = [int(x) for x in args.players.split(",")] if args.players else \
        list(range(game.min_players, game.max_players + 1))
    print(f"{args.file}: {args.n} random games per player count; machine: {platform.machine()}, "
          f"{platform.python_implementation()} {platform.python_version()}, {time.strftime('%Y-%m-%d')}")
    print()
    print("| players | games/s | CPU s/game | finished | mean turns | mean score per seat | mean winning score |")
    print("|---|---|---|---|---|---|---|")
    for n in counts:
        start, cpu = time.perf_counter(), time.process_time()
        results = [play(game, n, seed, args.max_turns) for seed in range(args.n)]
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        finished = sum(1 for r in results if r["finished"])
        turns = statistics.mean(r["turns"] for r in results)
        seats = " / ".join(f"{statistics.mean(r['scores'][s] for r in results):.1f}" for s in range(n))
        best = statistics.mean(max(r["scores"]) for r in results)
        print(f"| {n} | {args.n / elapsed:.2f} | {cpu / args.n:.3f} | {finished}/{args.n} | {turns:.1f} | {seats} | {best:.1f} |")


if __name__ == "__main__":
    main()
