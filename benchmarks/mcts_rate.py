"""MCTS iterations per CPU-second on one decision: `python benchmarks/mcts_rate.py FILE
[--players N] [--seed S] [--moves M] [--mcts SPEC] [--bot-seeds K] [--profile]`.

Plays random moves from a seeded game until the first seat faces a decision with at least M
legal moves, then times one `mcts` decision there (CPU time of this process) for K bot seeds
and prints the median. The figure the performance targets name is Trade Tycoon, 3 players,
seed 3, the 112-move decision, `mcts:iters=1000:depth=0`. `--profile` prints a cProfile of
one decision instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.bots.registry import make_bot  # noqa: E402
from gamedsl.pipeline import load  # noqa: E402


def decision_state(game, players: int, seed: int, min_moves: int) -> dict:
    """The first state of a random game (seeded) where seat 0 has at least `min_moves` moves."""
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    while not game.is_over(state):
        seat = game.waiting_for(state)[0]
        moves = game.legal_moves(state, seat)
        if seat == 0 and len(moves) >= min_moves:
            return state
        state = game.apply(state, rng.choice(moves))
    raise SystemExit(f"no decision of seat 0 with {min_moves}+ moves in game seed {seed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--mcts", default="mcts:iters=1000:depth=0")
    ap.add_argument("--bot-seeds", type=int, default=7)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    game = load(args.file)
    players = args.players or game.min_players
    state = decision_state(game, players, args.seed, args.moves)
    n_moves = len(game.legal_moves(state, 0))
    if args.profile:
        bot = make_bot(args.mcts, game, 0, 0)
        cProfile.runctx("bot.choose(state)", globals(), {"bot": bot, "state": state}, "/tmp/mcts.prof")
        pstats.Stats("/tmp/mcts.prof").sort_stats("tottime").print_stats(30)
        return
    rates = []
    for bot_seed in range(args.bot_seeds):
        bot = make_bot(args.mcts, game, 0, bot_seed)
        start = time.process_time()
        bot.choose(state)
        rates.append(bot.iterations / (time.process_time() - start))
    print(f"{Path(args.file).name}: {n_moves} moves, {args.mcts}: median {statistics.median(rates):,.0f} "
          f"iterations/CPU-s (runs: {', '.join(f'{r:,.0f}' for r in rates)})")


if __name__ == "__main__":
    main()
