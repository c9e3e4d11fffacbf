"""One `legal_moves` on states of random games, each state listed once, as a step of a
fuzz game or a bot's turn meets it (no answer of an earlier listing of the same state).

    python benchmarks/listing.py save games/wordomino.game states.json [--states 40]
    python benchmarks/listing.py list games/wordomino.game states.json [--count N]

`save` plays random games (seeds 0, 1, ...; player counts in turn) and keeps every third
state until it has --states of them; `list` lists the moves of the first N saved states
(after one listing of another state, so word lists and tries are loaded) and prints the CPU
time. Collecting states costs far more than listing them, so they are saved once; to count
instructions, which a loaded machine does not blur, run `list` under
`valgrind --tool=callgrind --callgrind-out-file=/dev/null` with --count N and with
--count 0, and divide the difference by N.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl.runtime import tiling  # noqa: E402
from gamedsl.pipeline import load  # noqa: E402


def save(game, path: str, count: int) -> None:
    states, seed = [], 0
    while len(states) < count:
        rng = random.Random(seed)
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state, step = game.new_game(players, seed), 0
        while not game.is_over(state) and len(states) < count:
            if step % 3 == 2:
                states.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            step += 1
        seed += 1
    Path(path).write_text(json.dumps(states), "utf-8")
    print(f"{len(states)} states from {seed} games saved to {path}")


def list_moves(game, path: str, count: int) -> None:
    states = json.loads(Path(path).read_text("utf-8"))
    game.legal_moves(states[0])  # loads what every listing needs (word lists, tries)
    tiling.WordLineReader.cache.clear()  # each state's lines read afresh, as in a new game
    todo = states[1:1 + count]
    began = time.process_time()
    moves = sum(len(game.legal_moves(state)) for state in todo)
    cpu = time.process_time() - began
    per = f", {cpu / len(todo) * 1000:.1f} ms each" if todo else ""
    print(f"{len(todo)} listings, {moves} moves, {cpu:.3f} CPU s{per}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["save", "list"])
    ap.add_argument("game")
    ap.add_argument("file", help="the file of saved states (JSON)")
    ap.add_argument("--states", type=int, default=40, help="states to save")
    ap.add_argument("--count", type=int, default=39, help="saved states to list")
    args = ap.parse_args()
    game = load(args.game)
    if args.action == "save":
        save(game, args.file, args.states)
    else:
        list_moves(game, args.file, args.count)


if __name__ == "__main__":
    main()
