"""Random-bot games of Letter Tycoon: `python benchmarks/letter_tycoon.py [-n 1000] [--jobs 2]`.

Plays n games (player counts 2, 3, 4, 5 in turn; seed = game number; every bot picks a
random legal move, the words it may build being the game's suggestions), checks each
finishes without an engine error, and prints games per second, mean turns and moves, and
the mean final scores per player count.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.pipeline import load  # noqa: E402

GAME = str(ROOT / "games" / "letter_tycoon.game")
_game = None


def play(seed: int, options=None) -> dict:
    global _game
    if _game is None:
        _game = load(GAME)
    game = _game
    players = 2 + seed % 4
    rnd = random.Random(seed)
    state = game.new_game(players, seed=seed, options=options)
    moves = 0
    while not game.is_over(state):
        state = game.apply(state, rnd.choice(game.legal_moves(state)))
        moves += 1
    r = game.results(state)
    return {"players": players, "finished": r["finished"], "turns": r["turns"], "moves": moves,
            "scores": r["scores"], "winners": r["winners"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(play, range(args.n), [options] * args.n, chunksize=8))
    else:
        games = [play(seed, options) for seed in range(args.n)]
    elapsed = time.perf_counter() - start
    unfinished = sum(1 for g in games if not g["finished"])
    print(f"{args.n} games in {elapsed:.1f} s with {args.jobs} process(es): "
          f"{args.n / elapsed:.2f} games/s; unfinished: {unfinished}; options: {options or 'defaults'}")
    print("| players | games | mean turns | mean moves | mean final score (seat order) | mean winning score |")
    print("|---|---|---|---|---|---|")
    for n in range(2, 6):
        gs = [g for g in games if g["players"] == n]
        if not gs:
            continue
        seats = [statistics.mean(g["scores"][i] for g in gs) for i in range(n)]
        best = statistics.mean(max(g["scores"]) for g in gs)
        print(f"| {n} | {len(gs)} | {statistics.mean(g['turns'] for g in gs):.1f} | "
              f"{statistics.mean(g['moves'] for g in gs):.1f} | "
              f"{', '.join(f'{s:.1f}' for s in seats)} | {best:.1f} |")


if __name__ == "__main__":
    main()
