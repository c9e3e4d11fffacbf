"""What a new process pays to start playing: `python benchmarks/first_game.py [--rounds R] [FILE...]`.

For each game (default: the four games of games/), fresh processes each `load` the game and
play one random game (the least players, seed 1), timed in CPU milliseconds inside the
process (imports excluded), the parsed files always in the cache:
- "code compiled": the cache holds no compiled code for the game, so every part of it the
  game reaches is compiled as it is first run (what every process paid before the code was
  kept);
- "code kept": the compiled code a process before it left in the cache is used;
- "a later game": a second game in the same process, for scale (nothing left to compile).
The median over the rounds; the two kinds of process alternate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine_line  # noqa: E402

GAMES = ["games/trade_tycoon.game", "games/legendary_inventors.game", "games/letter_tycoon.game",
         "games/wordomino.game"]

PLAY = """
import json, random, sys, time
from gamedsl import load
from gamedsl.compiler import codecache

def one(game, seed):
    rng = random.Random(seed)
    state = game.new_game(game.min_players, seed=seed)
    while not game.is_over(state):
        state = game.apply(state, rng.choice(game.legal_moves(state)))

start = time.process_time()
game = load(sys.argv[1])
one(game, 1)
first = time.process_time() - start
start = time.process_time()
one(game, 1)
later = time.process_time() - start
cache = codecache.for_game(sys.argv[1])
print(json.dumps([1000 * first, 1000 * later, cache.misses, cache.hits]))
"""


def run(path: str, home: str) -> list:
    env = dict(os.environ, XDG_CACHE_HOME=home, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PLAY, path], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"{path}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def forget_code(home: str) -> None:
    folder = Path(home) / "gamedsl"
    for entry in folder.glob("*.code"):
        entry.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(machine_line())
    print()
    print("| game | load + first game, code compiled (CPU ms) | load + first game, code kept (CPU ms) "
          "| saved | sources compiled | a later game (CPU ms) |")
    print("|---|---|---|---|---|---|")
    for path in args.files or GAMES:
        with tempfile.TemporaryDirectory() as home:
            run(path, home)  # (the parsed files into the cache)
            compiled, kept, later = [], [], []
            misses = 0
            for _ in range(args.rounds):
                forget_code(home)
                first, again, misses, _ = run(path, home)
                compiled.append(first)
                later.append(again)
                first, again, left, _ = run(path, home)
                if left:
                    raise SystemExit(f"{path}: {left} sources compiled again with the code kept")
                kept.append(first)
                later.append(again)
        a, b = statistics.median(compiled), statistics.median(kept)
        print(f"| {path} | {a:.1f} | {b:.1f} | {a - b:.1f} | {misses} | {statistics.median(later):.1f} |")


if __name__ == "__main__":
    main()
