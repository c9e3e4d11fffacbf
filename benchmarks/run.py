"""Benchmarks: `python benchmarks/run.py [--seconds S] [FILE...]` prints a Markdown table.

For each game (default: every file in games/ and examples/): the wall time of
`gamedsl check` in a fresh process (cold: imports, grammar, parse, check,
compile), both for an unchanged file (its syntax tree comes from the cache folder)
and for a file just edited (parsed again), the time to load it again in a warm process, random playouts per
second in one process, the mean time of one legal-move listing (for the word games: every
legal word or placement), the mean number of turns of a random game, and the mean time of one
greedy and one mcts decision (of seat 0, where it has 2+ moves, the other seats random).
Then, for the games in games/, `gamedsl simulate` with random bots on 1 and on 2 processes.
Everything the per-game performance table holds comes from this one command.
"""

from __future__ import annotations

import argparse
import glob
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bots import decision_time  # noqa: E402
from benchmarks.common import machine_line, simulate_rate  # noqa: E402
from gamedsl.runtime.state import clone  # noqa: E402
from gamedsl.pipeline import load  # noqa: E402


def cold_check(path: str, runs: int = 5, edited: bool = False) -> float:
    """Median wall time of `gamedsl check` in a new process. `edited`: each run checks a copy
    beside the file (its data and drafts are found beside it) with a new last line, so the
    copy is always parsed again, as after an edit."""
    source = Path(path)
    copy = source.with_name(f".bench-edited-{source.name}")
    subprocess.run([sys.executable, "-m", "gamedsl", "check", path], capture_output=True, check=False)
    times = []
    try:
        for i in range(runs):
            target = path
            if edited:
                copy.write_text(source.read_text("utf-8") + f"\n# edit {time.time_ns()} {i}\n", "utf-8")
                target = str(copy)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "gamedsl", "check", target], capture_output=True, check=False)
            times.append(time.perf_counter() - start)
    finally:
        copy.unlink(missing_ok=True)
    return statistics.median(times)


def warm_load(path: str, runs: int = 5) -> float:
    load(path)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        load(path)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def playouts(path: str, seconds: float):
    game = load(path)
    rng = random.Random(1)
    games = moves = turns = 0
    listing = []
    aside = 0.0  # time spent measuring one listing apart, not counted in the playouts
    start = time.perf_counter()
    while time.perf_counter() - start - aside < seconds:
        state = game.new_game(game.min_players, seed=games)
        while not game.is_over(state):
            legal = game.legal_moves(state)
            # a listing of its own, on a copy: the one above may be the moves the rules
            # listed when they asked for this choice, handed over (gamedsl/runtime/machine.py)
            t0 = time.perf_counter()
            copy = clone(state)
            t = time.perf_counter()
            game.legal_moves(copy)
            listing.append(time.perf_counter() - t)
            aside += time.perf_counter() - t0
            state = game.apply(state, rng.choice(legal))
            moves += 1
        games += 1
        turns += state["flow"]["turns"]
    elapsed = time.perf_counter() - start - aside
    return games / elapsed, moves / elapsed, statistics.mean(listing) * 1e6, turns / max(games, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0, help="playout time per game")
    ap.add_argument("--mcts", default="mcts:iters=200:depth=0", help="the mcts bot timed (default %(default)s)")
    ap.add_argument("--decisions", type=int, default=5, help="decisions timed per bot (default 5)")
    ap.add_argument("--sim-seconds", type=float, default=4.0,
                    help="about how long each simulate run takes (default 4; 0: no simulate table)")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(str(ROOT / "games/*.game")) + glob.glob(str(ROOT / "examples/*.game")))
    print(machine_line())
    print()
    print("| game | check, cold process (s) | check after an edit (s) | load, warm (ms) | random games/s | moves/s "
          f"| legal_moves (µs) | turns/game | greedy decision (ms) | `{args.mcts}` decision (ms) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rates = {}
    for path in files:
        name = Path(path).relative_to(ROOT) if Path(path).is_absolute() else path
        cold, edited = cold_check(path), cold_check(path, edited=True)
        warm = warm_load(path) * 1000
        gps, mps, lm, tpg = playouts(path, args.seconds)
        rates[path] = gps
        greedy, mcts = (decision_time(path, load(path).min_players, bot, games=None, decisions=args.decisions,
                                      seconds=4 * args.seconds)["mean_ms"] for bot in ("greedy", args.mcts))
        print(f"| {name} | {cold:.3f} | {edited:.3f} | {warm:.1f} | {gps:.1f} | {mps:.0f} | {lm:.0f} | {tpg:.1f} "
              f"| {greedy:.1f} | {mcts:.1f} |", flush=True)
    simulated = [path for path in files if Path(path).parent.name == "games"]
    if args.sim_seconds <= 0 or not simulated:
        return
    print()
    print("`gamedsl simulate`, random bots, the least players each game allows (games/s, wall):")
    print()
    print("| game | games | --jobs 1 | --jobs 2 | ratio |")
    print("|---|---|---|---|---|")
    for path in simulated:
        name = Path(path).relative_to(ROOT) if Path(path).is_absolute() else path
        games = max(16, 8 * round(rates[path] * args.sim_seconds / 8))
        seats = load(path).min_players
        (one, _), (two, _) = simulate_rate(path, seats, games, 1), simulate_rate(path, seats, games, 2)
        print(f"| {name} | {games} | {one:.1f} | {two:.1f} | {two / one:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
