"""Wordomino: random games and the time to list every move on a crowded table.

    python benchmarks/wordomino.py [-n 100] [--players 2,3,4] [--boards 10,20,40,60]

1. For each player count, N games between uniformly random bots (seeds 0..N-1): games per
   second, CPU seconds per game, mean turns, and how often each ending happened (the game's
   `result ending`: twenty, seven, blocked).
2. For tables of 10 to 60 tiles, with each dictionary: how long `legal_moves` takes (every
   placement of every tile in hand, both ways round, across and down, with the words it
   claims), median of the boards measured. Tables are grown by random placements (a player
   with fewer than 7 tiles takes one instead) with the scores held at 0, so the game does
   not end first.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.pipeline import load  # noqa: E402

GAME = ROOT / "games" / "wordomino.game"


def random_games(game, players: int, n: int) -> None:
    endings: Counter = Counter()
    turns = []
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while not game.is_over(state):
            state = game.apply_legal(state, rng.choice(game.legal_moves(state)), in_place=True)
        res = game.results(state)
        turns.append(res["turns"])
        endings[res["fields"]["ending"][0] if res["finished"] else "turn bound"] += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    share = ", ".join(f"{k} {100 * v / n:.0f}%" for k, v in endings.most_common())
    print(f"| {players} | {n / wall:.2f} | {cpu / n:.2f} | {statistics.mean(turns):.1f} | {share} |")


def crowded_tables(game, dictionary: str, sizes, boards: int) -> None:
    found = {k: [] for k in sizes}
    for seed in range(boards):
        rng = random.Random(seed)
        state = game.new_game(4, seed, {"dictionary": dictionary})
        while not game.is_over(state) and len(found[max(sizes)]) <= seed:
            tiles = len(set(state["zones"]["table"].values()))
            t = time.perf_counter()
            moves = game.legal_moves(state)
            dt = time.perf_counter() - t
            if tiles in found and len(found[tiles]) <= seed:
                found[tiles].append((dt, len(moves)))
            places = [m for m in moves if m["alt"] == "place"]
            draws = [m for m in moves if m["alt"] == "pass_and_draw"]
            hand = state["zones"]["hand"][state["flow"]["current"]]
            if draws and (len(hand) < 7 or not places):
                state = game.apply_legal(state, rng.choice(draws))  # keep hands full: tables grow
                continue
            if not places:
                break
            state = game.apply_legal(state, rng.choice(places))
            state["pvars"]["points"] = [0] * state["n"]  # the state is plain data: hold the scores
    for k in sizes:
        if found[k]:
            ms = statistics.median(d for d, _ in found[k]) * 1000
            moves = statistics.median(m for _, m in found[k])
            print(f"| {dictionary} | {k} | {len(found[k])} | {ms:.0f} | {moves:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=100, help="random games per player count")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--boards", default="10,20,40,60", help="table sizes (tiles) to time the move list at")
    ap.add_argument("--tables", type=int, default=5, help="tables grown per dictionary")
    args = ap.parse_args()
    game = load(str(GAME))
    if args.n:
        print("| players | games/s | CPU s/game | mean turns | endings |")
        print("|---|---|---|---|---|")
        for players in (int(x) for x in args.players.split(",")):
            random_games(game, players, args.n)
    if args.tables:
        print()
        print("| dictionary | tiles on the table | tables | legal_moves (ms, median) | moves listed (median) |")
        print("|---|---|---|---|---|")
        sizes = [int(x) for x in args.boards.split(",")]
        for dictionary in ("common", "full"):
            crowded_tables(game, dictionary, sizes, args.tables)


if __name__ == "__main__":
    main()
