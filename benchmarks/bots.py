"""Bot strength and speed: `python benchmarks/bots.py [-n N] [--iters I | --mcts SPEC] [--jobs J] [FILE...]`.

For each game (default: every file in games/ and examples/), at 2 players (or the least
the game allows): mcts's win rate against random and against greedy over N games each
(seats rotated, so mcts moves first in half of them; a shared win counts 1/k), and mcts's
mean decision time and iterations per second, measured in this process over a few games.
Prints a Markdown table; `--json FILE` also writes the figures.
"""

from __future__ import annotations

import argparse
import glob
import itertools
import json
import platform
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.bots.registry import make_bot  # noqa: E402
from gamedsl.runtime.state import clone  # noqa: E402
from gamedsl.pipeline import load  # noqa: E402
from gamedsl.sim.report import win_share  # noqa: E402
from gamedsl.sim.simulate import SimSpec, run  # noqa: E402
from gamedsl.sim.stats import wilson  # noqa: E402


def players_for(game) -> int:
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def match(path: str, players: int, mcts: str, other: str, games: int, jobs, seed: int) -> dict:
    seats = [mcts] + [other] * (players - 1)
    spec = SimSpec(path=path, seats=seats, games=games, seed=seed, rotate=True)
    sim = run(spec, jobs)
    wins = sum(win_share(r, s) for r in sim.records for s, b in enumerate(r["seats"]) if b == mcts)
    low, high = wilson(wins, games)
    errors = sum(1 for r in sim.records if r["error"])
    return {"rate": wins / games, "ci95": [low, high], "games": games, "errors": errors,
            "seconds": sim.seconds}


def decision_time(path: str, players: int, bot: str, games: Optional[int] = 3, decisions: Optional[int] = None,
                  seconds: Optional[float] = None) -> dict:
    """Mean wall time of one decision of `bot` as seat 0 (where it has 2+ moves; the other
    seats random) and, for mcts, iterations per second: over `games` games (None: as many as
    it takes), stopping early after `decisions` decisions or `seconds` spent deciding."""
    game = load(path)
    times, iters = [], 0

    def more() -> bool:
        return (decisions is None or len(times) < decisions) and (seconds is None or sum(times) < seconds)

    for seed in range(games) if games is not None else itertools.count():
        if not more():
            break
        bots = [make_bot(bot if s == 0 else "random", game, s, seed) for s in range(players)]
        state = game.new_game(players, seed)
        while not game.is_over(state) and more():
            seat = game.waiting_for(state)[0]
            # (on a copy: the list a `choose` hands to the next listing is the bot's to take)
            timed = seat == 0 and len(game.legal_moves(clone(state), seat)) > 1
            before = getattr(bots[seat], "iterations", 0)
            start = time.perf_counter()
            move = bots[seat].choose(state)
            if timed:
                times.append(time.perf_counter() - start)
                iters += getattr(bots[seat], "iterations", 0) - before
            state = game.apply(state, move)
    total = sum(times)
    return {"decisions": len(times), "mean_ms": 1000 * total / len(times) if times else None,
            "iterations_per_second": iters / total if total and iters else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("-n", type=int, default=100, help="games per match (default 100)")
    ap.add_argument("--iters", type=int, default=200, help="mcts iterations per decision (default 200)")
    ap.add_argument("--mcts", default=None,
                    help="the whole mcts seat spec, e.g. mcts:iters=100:top=4 (overrides --iters)")
    ap.add_argument("--players", type=int, default=None, help="players per game (default 2, or the least allowed)")
    ap.add_argument("--timing-games", type=int, default=3,
                    help="games of mcts against random to time its decisions (default 3; 0: no timing)")
    ap.add_argument("--against", default="random,greedy",
                    help="the opponents to play, comma-separated (default random,greedy; to split a long run)")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(str(ROOT / "games" / "**" / "*.game"), recursive=True)
                                 + glob.glob(str(ROOT / "examples" / "*.game")))
    mcts = args.mcts or f"mcts:iters={args.iters}"
    print(f"Python {platform.python_version()} on {platform.machine()}; {mcts}; {args.n} games per match, "
          "seats rotated\n")
    print("| game | players | mcts vs random | mcts vs greedy | mcts decision | mcts iterations/s |")
    print("|---|---|---|---|---|---|")
    out = {}
    for path in files:
        game = load(path)
        n = args.players or players_for(game)
        against = args.against.split(",")
        vs_random = match(path, n, mcts, "random", args.n, args.jobs, args.seed) if "random" in against else None
        vs_greedy = match(path, n, mcts, "greedy", args.n, args.jobs, args.seed) if "greedy" in against else None
        timing = decision_time(path, n, mcts, args.timing_games) if args.timing_games else \
            {"decisions": 0, "mean_ms": None, "iterations_per_second": None}

        def cell(m):
            if m is None:
                return "-"
            err = f", {m['errors']} failed" if m["errors"] else ""
            return f"{100 * m['rate']:.0f}% [{100 * m['ci95'][0]:.0f}–{100 * m['ci95'][1]:.0f}]{err}"

        ms = f"{timing['mean_ms']:.0f} ms" if timing["mean_ms"] is not None else "-"
        ips = f"{timing['iterations_per_second']:.0f}" if timing["iterations_per_second"] else "-"
        print(f"| {Path(path).name} | {n} | {cell(vs_random)} | {cell(vs_greedy)} | {ms} | {ips} |", flush=True)
        out[path] = {"players": n, "mcts": mcts, "vs_random": vs_random, "vs_greedy": vs_greedy, "timing": timing}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
