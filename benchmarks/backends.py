"""The two back ends side by side: `python benchmarks/backends.py [--seconds S] [--rounds R] [FILE...]`.

For each game (default: the four games of games/), loaded with `backend="interpreter"` and
with `backend="compiled"` in one process: warm `load` (ms), random games per CPU-second
(`legal_moves` + `apply`, checked, the least players; each round plays S CPU-seconds with
one back end, then the other, and the median over the rounds is reported) and, with
`--greedy`, a greedy decision of seat 0 (CPU ms, mean over the first 10 decisions of a few
games; and the mean of those 10 but the process's first, which also generates the code of
the scores the search reads). CPU time (`time.process_time`): the machine may be shared.
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

from benchmarks.common import machine_line  # noqa: E402
from gamedsl import clone, load  # noqa: E402
from gamedsl.bots.registry import make_bot  # noqa: E402

GAMES = ["games/trade_tycoon.game", "games/letter_tycoon.game", "games/wordomino.game",
         "games/legendary_inventors.game"]
BACKENDS = ("interpreter", "compiled")


def warm_load(path: str, backend: str, runs: int = 5) -> float:
    load(path, backend=backend)
    t = time.process_time()
    for _ in range(runs):
        load(path, backend=backend)
    return (time.process_time() - t) / runs


def games_per_second(game, seconds: float, first_seed: int) -> tuple:
    rng = random.Random(first_seed)
    games, seed = 0, first_seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_game(game.min_players, seed=seed)
        while not game.is_over(state):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        games += 1
        seed += 1
    return games / (time.process_time() - start), seed


def greedy_ms(game, decisions: int = 10) -> tuple:
    """(the mean of the first `decisions` greedy decisions, the mean of those but the first), CPU ms."""
    times = []
    for seed in range(50):
        bots = [make_bot("greedy" if s == 0 else "random", game, s, seed) for s in range(game.min_players)]
        state = game.new_game(game.min_players, seed)
        while not game.is_over(state) and len(times) < decisions:
            seat = game.waiting_for(state)[0]
            timed = seat == 0 and len(game.legal_moves(clone(state), seat)) > 1
            t = time.process_time()
            move = bots[seat].choose(state)
            if timed:
                times.append(time.process_time() - t)
            state = game.apply(state, move)
        if len(times) >= decisions:
            break
    return 1000 * statistics.mean(times), 1000 * statistics.mean(times[1:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of random games per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--greedy", action="store_true", help="also time greedy decisions")
    args = ap.parse_args()
    print(machine_line())
    print()
    print("| game | load interp. (ms) | load compiled (ms) | games/CPU-s interp. | games/CPU-s compiled | ratio"
          + (" | greedy interp. (ms) | greedy compiled (ms) | the same but the first (ms)" if args.greedy else "")
          + " |")
    print("|---|---|---|---|---|---" + ("|---|---|---" if args.greedy else "") + "|")
    for path in args.files or [str(ROOT / g) for g in GAMES]:
        games = {b: load(path, backend=b) for b in BACKENDS}
        loads = {b: 1000 * warm_load(path, b) for b in BACKENDS}
        rates = {b: [] for b in BACKENDS}
        seeds = {b: 0 for b in BACKENDS}
        for b in BACKENDS:  # warm: expressions generated, caches filled
            games_per_second(games[b], min(0.5, args.seconds), 10_000)
        for _ in range(args.rounds):
            for b in BACKENDS:
                rate, seeds[b] = games_per_second(games[b], args.seconds, seeds[b])
                rates[b].append(rate)
        med = {b: statistics.median(rates[b]) for b in BACKENDS}
        row = (f"| {Path(path).relative_to(ROOT) if Path(path).is_absolute() else path} "
               f"| {loads['interpreter']:.1f} | {loads['compiled']:.1f} "
               f"| {med['interpreter']:.1f} | {med['compiled']:.1f} | {med['compiled'] / med['interpreter']:.2f}x")
        if args.greedy:
            compiled = greedy_ms(games["compiled"])
            row += f" | {greedy_ms(games['interpreter'])[0]:.1f} | {compiled[0]:.1f} | {compiled[1]:.1f}"
        print(row + " |", flush=True)


if __name__ == "__main__":
    main()
