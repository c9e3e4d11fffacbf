"""Two `Game` objects played move for move, checked to behave the same: the differential test
for a second back end behind the API. `python tools/lockstep.py GAME [--games N] [--seed S]
[--players P] [--bot random|greedy|...] [--against FILE] [--backend NAME] [--option K=V]`.

`lockstep(a, b, players, seed)` plays one game through both: the same `new_game`, then at
every decision the seat waiting first is played by a bot of the given kind, one bot per
game (seeded alike: a random bot's draws are the same, a greedy one's search runs in each),
and every move goes through `apply` of both. Before the first move and after every move it
checks that

- the states, serialised as JSON (keys sorted), are identical;
- `is_over` and `waiting_for` agree, and `legal_moves` — of every waiting seat, and of all
  of them together — are the same lists in the same order;
- `view` of every seat is identical (serialised the same way);
- both bots chose the same move;
- moves that should be refused are refused alike: a legal move sent by a seat not waiting,
  a legal move with one argument replaced by another's, an unknown alternative, a malformed
  move (and any move once the game is over). Each either raises in both with the same
  exception class, message and `kind`, leaving both states unchanged, or is taken by both
  with identical states after it (so a difference can show first in a move tried, not played);
- at the end, `results` are identical;
- a rule that fails (a runaway loop, a choice with no move: any RuleError from `new_game`,
  `apply`, `legal_moves`...) fails in both alike: the same message, code and line. Then
  `lockstep` raises that error: the game ended in it, the same way in both.

The first difference raises `Divergence` (an AssertionError) saying which game, which move
(by number, 0 = before the first move, and as the first game writes it) and what differed.

Today there is one back end: the CLI compares a file with a fresh `load` of itself (which
must pass) or with `--against` another file (a variant: where do they part?). `--backend
NAME` loads the second game with `load(..., backend=NAME)` once `load` takes a back end.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gamedsl.bots.registry import make_bot  # noqa: E402
from gamedsl import load  # noqa: E402
from gamedsl.errors import GamedslError, RuleError  # noqa: E402


class Divergence(AssertionError):
    """The two games behaved differently. `game` and `seed` say which game, `move` after how
    many moves (0: before the first), `what` which check failed."""

    def __init__(self, game: int, seed: int, move: int, move_text: str, what: str, a, b):
        self.game, self.seed, self.move, self.move_text, self.what = game, seed, move, move_text, what
        self.a, self.b = a, b
        where = "before the first move" if move == 0 else f"after move {move} ({move_text})"
        super().__init__(f"game {game} (seed {seed}), {where}: {what} differ\n"
                         f"  first:  {_short(a)}\n  second: {_short(b)}")


def _short(value, most: int = 600) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=repr)
    return text if len(text) <= most else text[:most] + "…"


def _json(value) -> str:
    return json.dumps(value, sort_keys=True)


def _difference(x, y, path: str = ""):
    """Where two JSON-like values first differ: (path, the first's part, the second's)."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in sorted(set(x) | set(y), key=str):
            if key not in x or key not in y:
                return f"{path}.{key}", x.get(key, "<missing>"), y.get(key, "<missing>")
            if _json(x[key]) != _json(y[key]):
                return _difference(x[key], y[key], f"{path}.{key}")
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            if _json(u) != _json(v):
                return _difference(u, v, f"{path}[{i}]")
    return path or "the whole", x, y


def _outcome(game, state: dict, move) -> tuple:
    """What `apply` does with `move`: ("refused", class, message, kind, state unchanged) or
    ("taken", the new state)."""
    before = _json(state)
    try:
        after = game.apply(state, move)
    except Exception as e:  # noqa: BLE001 - any refusal, compared by class and message
        return ("refused", type(e).__name__, str(e), getattr(e, "kind", None), _json(state) == before)
    return ("taken", after, _json(state) == before)


def _bad_moves(legal: list, waiting: list, n: int, rng: random.Random) -> list:
    """Moves to send that should (mostly) be refused, made from the legal ones."""
    out = [{"seat": waiting[0] if waiting else 0, "alt": "no_such_move", "args": []},
           {"seat": waiting[0] if waiting else 0, "alt": 3, "args": "x"}]
    if not legal:
        return out
    move = rng.choice(legal)
    idle = [s for s in range(n) if s not in waiting]
    if idle:
        out.append({**move, "seat": rng.choice(idle)})
    if move["args"]:
        other = rng.choice(legal)
        i = rng.randrange(len(move["args"]))
        args = list(move["args"])
        args[i] = other["args"][i] if i < len(other["args"]) and other is not move else [args[i], 99]
        out.append({**move, "args": args})
        out.append({**move, "args": args[:-1]})
    return out


def _failure(err) -> tuple:
    diagnostic = err.diagnostic() if hasattr(err, "diagnostic") else None
    where = (diagnostic.code, diagnostic.span) if diagnostic is not None else None
    return (type(err).__name__, str(err), where)


def lockstep(a, b, players: int, seed: int, options=None, bot: str = "random", game_number: int = 0,
             max_moves: int = 100_000, refusals: bool = True, stop_after=None) -> dict:
    """Play one game through `a` and `b` together, checking after every move (see the module's
    doc); raise Divergence at the first difference. Returns the results (the same for both).
    Without `refusals`, no made-up moves are sent: only the moves played are compared. With
    `stop_after` N, the game stops (unfinished) after N moves."""
    n = players
    bots_a = [make_bot(bot, a, s, seed) for s in range(n)]
    bots_b = [make_bot(bot, b, s, seed) for s in range(n)]
    probe = random.Random(f"lockstep:{seed}")  # the refused moves tried (the games never see it)
    moved, text = 0, ""

    def same(what, x, y):
        if x != y:
            raise Divergence(game_number, seed, moved, text, what, x, y)

    def same_data(what, x, y):  # compared as JSON; a difference is reported where it lies
        if _json(x) != _json(y):
            path, u, v = _difference(x, y)
            raise Divergence(game_number, seed, moved, text, f"{what} (at {path})", u, v)

    def both(what, call):
        """call(a), call(b): the same failure in both is raised (the game ends in it)."""
        answers = []
        for game in (a, b):
            try:
                answers.append(("ok", call(game)))
            except RuleError as err:
                answers.append(("failed", err))
        (x, u), (y, v) = answers
        if x == y == "failed":
            same(f"failures of {what}", _failure(u), _failure(v))
            raise u
        if x != y:
            raise Divergence(game_number, seed, moved, text, f"outcomes of {what}",
                             _failure(u) if x == "failed" else "no failure",
                             _failure(v) if y == "failed" else "no failure")
        return u, v

    sa, sb = both("new_game", lambda g: g.new_game(n, seed, options))
    while True:
        same_data("states", sa, sb)
        over = a.is_over(sa)
        same("is_over", over, b.is_over(sb))
        waiting = a.waiting_for(sa)
        same("waiting_for", waiting, b.waiting_for(sb))
        states = {id(a): sa, id(b): sb}
        legal, other = both("legal_moves", lambda g: g.legal_moves(states[id(g)]))
        same("legal moves (all waiting seats)", legal, other)
        for seat in waiting:
            same(f"legal moves of seat {seat}", *both("legal_moves", lambda g: g.legal_moves(states[id(g)], seat)))
        for seat in range(n):
            same_data(f"views of seat {seat}", *both("view", lambda g: g.view(states[id(g)], seat)))
        for bad in _bad_moves(legal, waiting, n, probe) if refusals else ():
            x, y = _outcome(a, sa, bad), _outcome(b, sb, bad)
            sent = f"sending {_short(bad, 120)}"
            if x[0] == y[0] == "taken":  # (a move made up that turned out legal)
                same_data(f"states after {sent}", x[1], y[1])
                x, y = x[::2], y[::2]
            same(f"outcomes of {sent}", x, y)
        if over or (stop_after is not None and moved >= stop_after):
            break
        if moved >= max_moves:
            raise AssertionError(f"game {game_number} (seed {seed}) did not end within {max_moves} moves")
        seat = waiting[0]
        bots = {id(a): bots_a[seat], id(b): bots_b[seat]}
        move, other = both(f"the {bot} bots' choice", lambda g: bots[id(g)].choose(states[id(g)]))
        same(f"moves chosen by the {bot} bots of seat {seat}", move, other)
        text = a.move_text(sa, move)
        sa, sb = both(f"move {moved + 1} ({text})", lambda g: g.apply(states[id(g)], move))
        moved += 1
    states = {id(a): sa, id(b): sb}
    results, other = both("results", lambda g: g.results(states[id(g)]))
    same_data("results", results, other)
    return results


def load_with(path: str, backend=None):
    if backend is None:
        return load(path)
    if "backend" not in inspect.signature(load).parameters:
        raise SystemExit(f"this gamedsl's load() has no back ends to choose from (asked for {backend!r})")
    return load(path, backend=backend)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="a .game file")
    ap.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game; the others follow (default 0)")
    ap.add_argument("--players", type=int, default=None, help="players (default the least the game allows)")
    ap.add_argument("--bot", default="random", help="the bot every seat plays (default random; greedy, ...)")
    ap.add_argument("--against", default=None, help="compare with this file instead of a fresh load of GAME")
    ap.add_argument("--backend", default=None, help="load the second game with this back end")
    ap.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option (repeatable)")
    args = ap.parse_args(argv)
    if any("=" not in o for o in args.option):
        ap.error("--option takes NAME=VALUE")
    options = dict(o.split("=", 1) for o in args.option) or None
    moves = 0
    try:
        # the reference: the interpreter, when this gamedsl has more than one back end
        a = load_with(args.game, "interpreter" if args.backend else None)
        b = load_with(args.against or args.game, args.backend)
        players = args.players or a.min_players
        for i in range(args.games):
            seed = args.seed + i
            try:
                results = lockstep(a, b, players, seed, options, args.bot, game_number=i)
            except Divergence as d:
                print(d)
                return 1
            moves += results["turns"]
    except GamedslError as err:  # (a file that does not load, a bad seat spec, option or player count)
        print(f"lockstep: {err}", file=sys.stderr)
        return 2
    print(f"{args.games} games of {a.title} ({players} players, {args.bot} bots, seeds {args.seed}-"
          f"{args.seed + args.games - 1}): identical states, moves, views, refusals and results "
          f"({moves} turns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
