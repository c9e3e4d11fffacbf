"""The interpreter against Python by hand: `python benchmarks/handwritten_vs_game.py [--games G] [--rounds R]`.

Trade Tycoon draft 5 as games/trade_tycoon.game (through gamedsl's Game) and as
benchmarks/handwritten/trade_tycoon.py, in one process, playing the same kind of random
games (seeds 0..G-1, a uniformly random legal move of the first waiting seat) through the
same calls. Two ways of playing: `checked` (legal_moves + apply, which checks the move and
copies the state: what a client does) and `in place` (legal_moves + apply_legal(in_place):
what a playout loop can do). Each round plays the G games with one version, then the other;
the figure is the median over the rounds of games per second of wall time and of this
process's CPU time (the machine may be shared: CPU time is the steadier one).

In the same rounds, `direct`: benchmarks/direct/trade_tycoon.py, the same games (it plays the
hand-written version's games move for move) as a plain-Python simulator with no API at all,
timed in every round of both ways of playing (its `direct` row is the same play in both, in
that way's rounds); the ratios .game / hand-written / direct are printed for each.

`--split` says where each version's time goes: time per game in each call, and
`legal_moves` alone on saved states of the same games.

`--just-play VERSION N` only plays N checked games of one version (`.game` or
`hand-written`), for counting instructions, which a loaded machine does not blur:
`valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/handwritten_vs_game.py
--just-play .game 10` (and 0 games, to subtract start-up) prints `Collected : <instructions>`.

Then `gamedsl simulate` throughput (random bots, S games) with --jobs 1 and --jobs 2: games
per wall second, and CPU seconds per game of this process and its workers.
"""

from __future__ import annotations

import argparse
import copy
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine_line, simulate_rate  # noqa: E402
from benchmarks.direct import trade_tycoon as direct  # noqa: E402
from benchmarks.handwritten import trade_tycoon as hw  # noqa: E402
from gamedsl.runtime.state import clone  # noqa: E402
from gamedsl.pipeline import load  # noqa: E402

GAME = ROOT / "games" / "trade_tycoon.game"


class GameVersion:
    """The .game version behind the same calls as the hand-written module."""

    def __init__(self, game):
        self.game = game
        # bound once, as the hand-written module's functions are (a look-up through
        # __getattr__ at every call was charged to the .game version alone)
        self.waiting_for, self.legal_moves, self.is_over = game.waiting_for, game.legal_moves, game.is_over
        self.apply, self.apply_legal, self.results = game.apply, game.apply_legal, game.results
        self.copy_state = game.clone

    def new_game(self, seed):
        return self.game.new_game(3, seed)


def play(api, seeds, checked: bool) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        state = api.new_game(seed)
        while not api.is_over(state):
            seat = api.waiting_for(state)[0]
            move = rng.choice(api.legal_moves(state, seat))
            state = api.apply(state, move) if checked else api.apply_legal(state, move, in_place=True)
        api.results(state)


def play_direct(seeds) -> None:
    run = direct.play
    for seed in seeds:
        run(seed)


def timed(fn) -> tuple:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def playouts(games: int, rounds: int) -> dict:
    # `.game`: the default back end (compiled); the interpreter beside it, in the same rounds
    versions = {".game": GameVersion(load(str(GAME))),
                ".game interpreted": GameVersion(load(str(GAME), backend="interpreter")), "hand-written": hw}
    seeds = range(games)
    out = {}
    for checked in (True, False):
        runs = {name: [] for name in (*versions, "direct")}
        for _ in range(rounds):
            for name, api in versions.items():
                runs[name].append(timed(lambda: play(api, seeds, checked)))
            # the direct simulator has no API to check through: the same figure in both
            # ways of playing, timed in the same rounds as the two it is compared with
            runs["direct"].append(timed(lambda: play_direct(seeds)))
        out["checked" if checked else "in place"] = {
            name: (games / statistics.median(w for w, _ in r), games / statistics.median(c for _, c in r))
            for name, r in runs.items()}
    return out


def split(games: int) -> None:
    """Where each version's time goes: ms per game in each call of an in-place random game,
    and the listing alone (`legal_moves` on saved states of such games, best of 5). Wall
    time, for a quiet machine: the CPU clock, read around each call, does not add up here."""
    versions = {".game": GameVersion(load(str(GAME))), "hand-written": hw}
    copies = {".game": clone, "hand-written": copy.deepcopy}
    calls = ("new_game", "legal_moves", "apply_legal", "results")
    spent = {name: dict.fromkeys(calls, 0.0) for name in versions}
    saved = {name: [] for name in versions}
    clock = time.perf_counter
    for name, api in versions.items():
        mine = spent[name]
        play(api, [games], checked=False)  # (untimed: the generated code compiled on first use)
        for seed in range(games):
            rng = random.Random(seed)
            t = clock()
            state = api.new_game(seed)
            mine["new_game"] += clock() - t
            while not api.is_over(state):
                seat = api.waiting_for(state)[0]
                t = clock()
                moves = api.legal_moves(state, seat)
                mine["legal_moves"] += clock() - t
                move = rng.choice(moves)
                t = clock()
                state = api.apply_legal(state, move, in_place=True)
                mine["apply_legal"] += clock() - t
            t = clock()
            api.results(state)
            mine["results"] += clock() - t
        for seed in range(games):  # the same games again, their states kept (not timed)
            rng, state = random.Random(seed), api.new_game(seed)
            while not api.is_over(state):
                seat = api.waiting_for(state)[0]
                saved[name].append((copies[name](state), seat))
                state = api.apply_legal(state, rng.choice(api.legal_moves(state, seat)), in_place=True)
    # (thousands of saved states: kept out of the collector's way, or its passes over them
    # land on whichever call is running)
    gc.collect()
    gc.freeze()
    listing = {}
    for name, api in versions.items():
        best = float("inf")
        for _ in range(5):
            t = clock()
            for state, seat in saved[name]:
                api.legal_moves(state, seat)
            best = min(best, clock() - t)
        listing[name] = best
    copying = {}
    for name, api in versions.items():  # (what a search's copy of a state costs)
        best = float("inf")
        for _ in range(5):
            t = clock()
            for state, _ in saved[name]:
                api.copy_state(state)
            best = min(best, clock() - t)
        copying[name] = best
    gc.unfreeze()
    print(f"Where the time goes ({games} random games in place; ms per game, wall):")
    print()
    print("| call | .game | hand-written | ratio |")
    print("|---|---|---|---|")
    for call in calls:
        g, h = spent[".game"][call] / games * 1e3, spent["hand-written"][call] / games * 1e3
        print(f"| {call} | {g:.3f} | {h:.3f} | {g / h:.1f}x |")
    g, h = listing[".game"] / games * 1e3, listing["hand-written"] / games * 1e3
    print(f"| legal_moves alone, on the saved states | {g:.3f} | {h:.3f} | {g / h:.1f}x |")
    g, h = copying[".game"] / games * 1e3, copying["hand-written"] / games * 1e3
    print(f"| a copy of each saved state (`Game.clone`, the hand-written `copy_state`) | {g:.3f} | {h:.3f} | "
          f"{g / h:.1f}x |")
    print()
    print("(`apply_legal` of the .game includes listing the next choice's moves, which the "
          "`legal_moves` after it is then handed)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="random games per version per round (default 40)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported (default 5)")
    ap.add_argument("--sim-games", type=int, default=200, help="games per simulate run (default 200)")
    ap.add_argument("--sim-rounds", type=int, default=3, help="simulate runs per --jobs value (default 3)")
    ap.add_argument("--just-play", nargs=2, metavar=("VERSION", "N"), help="only play N games of VERSION")
    ap.add_argument("--split", action="store_true", help="only say where each version's time goes, by call")
    args = ap.parse_args()
    if args.split:
        split(args.games)
        return
        return
    if args.just_play:
        version, n = args.just_play
        api = {".game": lambda: GameVersion(load(str(GAME))), "hand-written": lambda: hw}[version]()
        play(api, range(int(n)), checked=True)
        return

    print(machine_line())
    print()
    print(f"Random games of Trade Tycoon draft 5, 3 players ({args.games} games x {args.rounds} rounds, medians):")
    print()
    print("| play | version | games/s (wall) | games per CPU-second |")
    print("|---|---|---|---|")
    figures = playouts(args.games, args.rounds)
    for mode, by_version in figures.items():
        for name, (wall, cpu) in by_version.items():
            print(f"| {mode} | {name} | {wall:.1f} | {cpu:.1f} |")
    print()
    for mode in ("checked", "in place"):
        (gw, gc), (hw_w, hw_c) = figures[mode][".game"], figures[mode]["hand-written"]
        print(f"{mode}: the .game version runs at {100 * gc / hw_c:.0f}% of the hand-written version's "
              f"games per CPU-second ({100 * gw / hw_w:.0f}% by wall clock)")
    print()
    print("Games per CPU-second against the direct simulator (the same games, no API; timed in the "
          "rounds of each way of playing):")
    print()
    print("| play | .game | hand-written | direct | .game / direct | hand-written / direct | .game / hand-written |")
    print("|---|---|---|---|---|---|---|")
    for mode in ("checked", "in place"):
        gc, hc, dc = (figures[mode][name][1] for name in (".game", "hand-written", "direct"))
        print(f"| {mode} | {gc:.1f} | {hc:.1f} | {dc:.1f} | {100 * gc / dc:.1f}% | {100 * hc / dc:.0f}% "
              f"| {100 * gc / hc:.0f}% |")
    if args.sim_rounds < 1:  # only the playouts were asked for
        return
    print()
    print(f"`gamedsl simulate` (random bots, {args.sim_games} games, {args.sim_rounds} runs each, medians):")
    print()
    print("| jobs | games/s (wall) | CPU s per game (all processes) |")
    print("|---|---|---|")
    sims = {}
    for _ in range(args.sim_rounds):
        for jobs in (1, 2):
            sims.setdefault(jobs, []).append(simulate_rate(str(GAME), 3, args.sim_games, jobs))
    for jobs, runs in sims.items():
        print(f"| {jobs} | {statistics.median(r[0] for r in runs):.1f} | "
              f"{statistics.median(r[1] for r in runs) * 1000:.1f} ms |")
    speedup = statistics.median(r[0] for r in sims[2]) / statistics.median(r[0] for r in sims[1])
    # With two idle cores --jobs 2 could do at best 2x, less whatever extra CPU each game costs
    # there (worker start-up, loading the game, passing records back); a loaded machine hides
    # this bound in the wall-clock figure, the CPU figures still show it.
    bound = 2 * statistics.median(r[1] for r in sims[1]) / statistics.median(r[1] for r in sims[2])
    print()
    print(f"--jobs 2 / --jobs 1: {speedup:.2f}x games/s (wall); {bound:.2f}x on two idle cores, judging by "
          f"the CPU time per game; load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
