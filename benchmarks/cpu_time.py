"""CPU-time speed of one game: `python benchmarks/cpu_time.py FILE [--players N] [--games G] [--decisions D]`.

On a shared, loaded machine wall-clock figures swing by 2-3x from run to run; the CPU time
of this process swings less. Prints random games per CPU-second (G seeded random games
through `legal_moves` + `apply`, and as the random bot plays them: `random_move` + `apply`,
which checks a typed choice's suggestions only as it draws them) and mcts iterations per CPU-second (the first D decisions
with 2+ moves of seat 0, `mcts:iters=50`, against random bots). To compare two commits, run
it from both checkouts alternately, several times, and compare medians.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.bots.registry import make_bot  # noqa: E402
from gamedsl.pipeline import load  # noqa: E402


def random_games_per_cpu_second(game, players: int, games: int, drawn: bool = False) -> float:
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while not game.is_over(state):
            seat = game.waiting_for(state)[0]
            move = game.random_move(state, seat, rng) if drawn else rng.choice(game.legal_moves(state, seat))
            state = game.apply(state, move)
    return games / (time.process_time() - start)


def mcts_iterations_per_cpu_second(game, players: int, decisions: int) -> float:
    bots = [make_bot("mcts:iters=50" if s == 0 else "random", game, s, 0) for s in range(players)]
    state = game.new_game(players, 0)
    cpu, iters, made = 0.0, 0, 0
    while not game.is_over(state) and made < decisions:
        seat = game.waiting_for(state)[0]
        if seat == 0 and len(game.legal_moves(state, 0)) > 1:
            before, start = bots[0].iterations, time.process_time()
            move = bots[0].choose(state)
            cpu += time.process_time() - start
            iters += bots[0].iterations - before
            made += 1
        else:
            move = bots[seat].choose(state)
        state = game.apply(state, move)
    return iters / cpu if cpu else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--players", type=int, default=None, help="default: the least the game allows")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--decisions", type=int, default=6)
    args = ap.parse_args()
    game = load(args.file)
    players = args.players or game.min_players
    listed = random_games_per_cpu_second(game, players, args.games)
    drawn = random_games_per_cpu_second(game, players, args.games, drawn=True)
    print(f"{Path(args.file).name}: {listed:.1f} random games/CPU-s ({drawn:.1f} by random_move), "
          f"{mcts_iterations_per_cpu_second(game, players, args.decisions):.1f} mcts iterations/CPU-s")


if __name__ == "__main__":
    main()
