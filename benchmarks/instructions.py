"""Instructions counted under callgrind, two or more checkouts side by side:
`python benchmarks/instructions.py TREE [TREE...] [--only NAME...]`.

CPU time on a shared or drifting host swings by tens of percent between runs; the number of
instructions a fixed, seeded workload executes does not. For each workload below, each
checkout (a directory holding a `gamedsl` package, such as a `git archive` of a commit) runs
it under `valgrind --tool=callgrind` twice: the workload, then its baseline (the load and a
warm-up game, or the load alone), and the difference is printed. Each workload is run once
beforehand, without valgrind, with the game's absolute path: the parse cache holds the file
for that checkout, and the code cache the game's compiled code (a checkout that keeps it).
`PYTHONHASHSEED=0` makes the runs repeatable.

`python benchmarks/instructions.py --run MODE FILE N` runs one workload without valgrind
(what each counted run does): MODE `inplace` (N random games, `random_move` and
`apply_legal` in place), `observed` (the same while rule coverage counts what runs, as
`gamedsl simulate` counts it), `checked` (N random games, `legal_moves` and `apply`), `tree` (the
tic-tac-toe tree walk's first N games), `greedy` (N decisions of a greedy seat 0 against
random seats), `mcts` (the first N decisions of a seeded game of `mcts:iters=100:depth=0`
seats).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# (name, mode, file, N, baseline N)
WORKLOADS = [
    ("Trade Tycoon in place, 10 games", "inplace", "games/trade_tycoon.game", 11, 1),
    ("Trade Tycoon checked, 10 games", "checked", "games/trade_tycoon.game", 11, 1),
    ("Trade Tycoon in place with coverage, 10 games", "observed", "games/trade_tycoon.game", 11, 1),
    ("Legendary Inventors in place with coverage, 2 games", "observed", "games/legendary_inventors.game", 3, 1),
    ("tic-tac-toe tree, 300 games", "tree", "examples/tictactoe.game", 300, 0),
    ("Legendary Inventors, 2 games", "checked", "games/legendary_inventors.game", 3, 1),
    ("Letter Tycoon, 1 game", "checked", "games/letter_tycoon.game", 2, 1),
    ("Wordomino, 1 game", "checked", "games/wordomino.game", 2, 1),
    # (as the random bot plays them: its move drawn, a typed choice's suggestions checked as drawn)
    ("Letter Tycoon in place, 2 games", "inplace", "games/letter_tycoon.game", 3, 1),
    ("Wordomino in place, 2 games", "inplace", "games/wordomino.game", 3, 1),
    ("greedy, Trade Tycoon, 10 decisions", "greedy", "games/trade_tycoon.game", 10, 0),
    # (the same after its first 10: the code a search runs written and compiled by then)
    ("greedy, Trade Tycoon, decisions 11 to 40", "greedy", "games/trade_tycoon.game", 40, 10),
    ("mcts, Trade Tycoon, 20 decisions", "mcts", "games/trade_tycoon.game", 20, 0),
    ("mcts with playouts, Trade Tycoon, 6 decisions", "playouts", "games/trade_tycoon.game", 6, 0),
]


def run_workload(mode: str, path: str, n: int) -> int:
    """Run one workload; the moves it made (for the tree, the games it finished)."""
    from gamedsl.bots.registry import make_bot
    from gamedsl.pipeline import load
    from gamedsl.sim.coverage import Coverage
    game = load(path)
    players = 3 if "trade_tycoon" in path else game.min_players
    rng = random.Random(1)
    moves = 0
    if mode == "observed":
        Coverage(game)
    if mode in ("inplace", "checked", "observed"):
        for seed in range(n):
            state = game.new_game(players, seed)
            while not game.is_over(state):
                if mode != "checked":
                    move = game.random_move(state, game.waiting_for(state)[0], rng)
                    game.apply_legal(state, move, in_place=True)
                else:
                    state = game.apply(state, rng.choice(game.legal_moves(state)))
                moves += 1
    elif mode == "tree":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import tree_walk
        counts: Counter = Counter()
        if n:
            try:
                tree_walk.walk(game, game.new_game(2, 0), counts, n)
            except tree_walk.Enough:
                pass
        moves = sum(counts.values())
    elif mode in ("greedy", "mcts", "playouts"):
        decided = 0
        for seed in range(200):
            if decided >= n:
                break
            specs = (["greedy"] + ["random"] * (players - 1) if mode == "greedy" else
                     ["mcts:iters=100:depth=0"] * players if mode == "mcts" else ["mcts:iters=20"] * players)
            bots = [make_bot(spec, game, s, seed) for s, spec in enumerate(specs)]
            state = game.new_game(players, seed)
            while not game.is_over(state) and decided < n:
                seat = game.waiting_for(state)[0]
                decided += mode != "greedy" or seat == 0
                state = game.apply(state, bots[seat].choose(state))
                moves += 1
    else:
        raise SystemExit(f"no workload '{mode}'")
    return moves


def counted(tree: Path, mode: str, path: str, n: int) -> int:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          str(Path(__file__).resolve()), "--run", mode, path, str(n)],
                         cwd=tree, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*", type=Path)
    ap.add_argument("--only", nargs="*", default=None, help="workloads whose name holds one of these words")
    ap.add_argument("--run", nargs=3, metavar=("MODE", "FILE", "N"), help="run one workload (no valgrind)")
    args = ap.parse_args()
    if args.run:
        mode, path, n = args.run
        made = run_workload(mode, path, int(n))
        print(f"{mode} {path} {n}: {made} {'games' if mode == 'tree' else 'moves'}")
        return
    if not args.trees:
        ap.error("name at least one checkout")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    chosen = [w for w in WORKLOADS if args.only is None or any(word in w[0] for word in args.only)]
    trees = [t.resolve() for t in args.trees]
    print("| workload | " + " | ".join(f"`{t.name}`" for t in trees) + " |")
    print("|---|" + "---|" * len(trees))
    for name, mode, file, n, base in chosen:
        row = []
        for tree in trees:
            path = str(tree / file)
            # (a warm-up, the whole workload: the parse cache filled, every module's bytecode
            # written as in the counted runs, and the game's generated code kept in the cache,
            # so that no count includes compiling the tree or what the other run compiled)
            env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--run", mode, path, str(n)], cwd=tree,
                           env=env, check=True, stdout=subprocess.DEVNULL)
            row.append(counted(tree, mode, path, n) - counted(tree, mode, path, base))
        first = row[0]
        cells = [f"{row[0] / 1e6:,.1f} M"] + [f"{v / 1e6:,.1f} M ({(v - first) / first:+.1%})" for v in row[1:]]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
