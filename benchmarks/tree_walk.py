"""The whole game tree of tic-tac-toe, through the API and in plain Python:
`python benchmarks/tree_walk.py [--limit N] [--backend NAME | --handwritten] [FILE]`.

The API walk goes depth first from `new_game`: at each state `legal_moves`, then `apply` of
each move (a new state: the given one is untouched, so no undo), counting the finished games
by their winners (`results`). It takes any `Game` (`walk(game, state)`), so another back end
behind the same API can be walked the same way: `--backend NAME` is passed to `load` as
`backend=NAME`. `--handwritten` walks `benchmarks/handwritten/tictactoe.py` instead: the
same game written by hand behind the same API, what a back end with a state of its own
could reach.

The plain walk is the same tree of examples/tictactoe.game in ~20 lines of Python (a list of
nine cells, the eight lines), always walked whole. For tic-tac-toe both must count 255,168
games: 131,184 won by the first player, 77,904 by the second and 46,080 drawn.

Both are timed in CPU seconds (`time.process_time`). The API walk takes over a minute;
`--limit N` stops it after N finished games, and the ratio is then of games per CPU-second
(the first N games of the walk, against the plain walk's whole tree).
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamedsl import load  # noqa: E402

TICTACTOE = ROOT / "examples" / "tictactoe.game"
KNOWN = {"games": 255_168, "first": 131_184, "second": 77_904, "draw": 46_080}


class Enough(Exception):
    """The API walk reached its limit."""


def walk(game, state, counts: Counter, limit: int | None = None) -> Counter:
    """Count the finished games below `state` by their winners (a tuple of seats), depth
    first, through `legal_moves` and `apply` only. Stops (raising Enough) after `limit`
    finished games in `counts`."""
    if game.is_over(state):
        counts[tuple(game.results(state)["winners"])] += 1
        if limit is not None and sum(counts.values()) >= limit:
            raise Enough
        return counts
    for move in game.legal_moves(state):
        walk(game, game.apply(state, move), counts, limit)
    return counts


def by_result(counts: Counter, first_seat: int) -> dict:
    """Winner tuples as first-player wins, second-player wins and draws (two-player games)."""
    out = {"games": sum(counts.values()), "first": 0, "second": 0, "draw": 0}
    for winners, n in counts.items():
        key = "draw" if len(winners) != 1 else "first" if winners[0] == first_seat else "second"
        out[key] += n
    return out


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def plain_walk() -> dict:
    """Tic-tac-toe's whole tree in plain Python: finished games by result."""
    out = {"games": 0, "first": 0, "second": 0, "draw": 0}
    board = [0] * 9

    def go(player: int, empty: int) -> None:
        for cell in range(9):
            if board[cell]:
                continue
            board[cell] = player
            if any(board[a] == board[b] == board[c] == player for a, b, c in LINES if cell in (a, b, c)):
                out["first" if player == 1 else "second"] += 1
            elif empty == 1:
                out["draw"] += 1
            else:
                go(3 - player, empty - 1)
            board[cell] = 0

    go(1, 9)
    out["games"] = out["first"] + out["second"] + out["draw"]
    return out


def load_game(path: str, backend: str | None):
    if backend is None:
        return load(path)
    if "backend" not in inspect.signature(load).parameters:
        raise SystemExit(f"this gamedsl's load() has no back ends to choose from (asked for {backend!r})")
    return load(path, backend=backend)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(TICTACTOE), help="the game (default examples/tictactoe.game)")
    ap.add_argument("--limit", type=int, default=None, help="stop the API walk after this many finished games")
    engine = ap.add_mutually_exclusive_group()
    engine.add_argument("--backend", default=None, help="passed to load() as backend= (when load takes one)")
    engine.add_argument("--handwritten", action="store_true",
                        help="walk benchmarks/handwritten/tictactoe.py (tic-tac-toe by hand, the same API)")
    args = ap.parse_args()

    if args.handwritten:
        if Path(args.file).resolve() != TICTACTOE:
            ap.error("--handwritten walks tic-tac-toe only")
        from benchmarks.handwritten import tictactoe as game
    else:
        game = load_game(args.file, args.backend)
    t = time.process_time()
    state = game.new_game(game.min_players, seed=0)
    counts = Counter()
    whole = True
    try:
        walk(game, state, counts, args.limit)
    except Enough:
        whole = False
    api_cpu = time.process_time() - t
    api = by_result(counts, state["flow"]["start"]) if game.min_players == 2 else dict(counts)

    t = time.process_time()
    plain = plain_walk()
    plain_cpu = time.process_time() - t

    name = Path(args.file).name
    walked = "by hand, " if args.handwritten else ""
    print(f"{name}: the game tree walked depth first ({walked}{'whole' if whole else f'first {args.limit} games'})")
    print()
    print("| walk | games | first player wins | second player wins | draws | CPU s | games per CPU-s |")
    print("|---|---|---|---|---|---|---|")
    if game.min_players == 2:
        print(f"| API (`legal_moves` + `apply`) | {api['games']} | {api['first']} | {api['second']} | {api['draw']} "
              f"| {api_cpu:.2f} | {api['games'] / api_cpu:.0f} |")
    else:
        print(f"| API (`legal_moves` + `apply`) | {sum(counts.values())} | | | | {api_cpu:.2f} "
              f"| {sum(counts.values()) / api_cpu:.0f} |")
    print(f"| plain Python, tic-tac-toe | {plain['games']} | {plain['first']} | {plain['second']} | {plain['draw']} "
          f"| {plain_cpu:.2f} | {plain['games'] / plain_cpu:.0f} |")
    print()
    if plain != KNOWN:
        raise SystemExit(f"the plain walk counted {plain}, not the known {KNOWN}")
    if whole and Path(args.file).resolve() == TICTACTOE and api != KNOWN:
        raise SystemExit(f"the API walk counted {api}, not the known {KNOWN}")
    games = sum(counts.values())
    ratio = (plain["games"] / plain_cpu) / (games / api_cpu) if games else float("nan")
    print(f"plain Python / API: {ratio:.0f}x games per CPU-second"
          + ("" if whole else " (the API walk's first games only)"))


if __name__ == "__main__":
    main()
