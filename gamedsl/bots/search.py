"""Bots that play any game through the engine API, seeing only their seat's view.

A bot is made by `make_bot(spec, game, seat, seed)` from a seat spec such as `random`,
`greedy:samples=8`, `mcts:iters=2000:c=0.7`, `mcts:ms=500` or `cmd:./mybot.py:timeout=2`
and answers `choose(state) -> move` with one of `game.legal_moves(state, seat)`.

Fair by construction: a bot never reads the state it is given except through
`legal_moves(state, seat)` and `resampler(state, seat)`'s samples (`resample`:
gamedsl/runtime/resample.py), which redraw everything the seat cannot see; searching bots then
play on those samples.
Deterministic: every bot draws only from its own generator, seeded by the game's seed and
its seat (and an optional `seed=` parameter) — with the host's key, by a keyed hash of them
(`seat_seed`), so no seat can foretell another's draws; an `ms=` time budget is the one exception.

The seat kinds `gamedsl play` and `gamedsl simulate` offer are listed in gamedsl.bots.registry.
"""

from __future__ import annotations

import math
import random
import time
from typing import List

from gamedsl.errors import RuleError
from gamedsl.bots.spec import bot_rng, parse_params
from gamedsl.runtime.state import clone


# ---------------------------------------------------------------- seat specs


# ---------------------------------------------------------------- shared helpers


# What a cooperative game's verdict is worth to a one-ply margin: more than any score.
VERDICT = 1e9


def score_margin(game, state: dict, seat: int, memo=None) -> float:
    """The heuristic (the score, unless the game declares one) of the seat's side — its team,
    every seat of a cooperative game, else the seat alone — minus the best other side's; a
    finished cooperative game adds its verdict (won or lost) to the shared score (`memo`: a
    search's `game.heuristics_memo()`)."""
    if game.seats_alone:
        values = game.heuristics(state, memo)
        # (as side_heuristics gives a side of one seat: its value as sum() gives it, 0 + value)
        if len(values) == 1:
            return float(0 + values[0])
        return float((0 + values[seat]) - (0 + max(values[:seat] + values[seat + 1:])))
    sides = game.sides(state)
    values = game.side_heuristics(state, sides, memo)
    mine = next(i for i, side in enumerate(sides) if seat in side)
    others = [v for i, v in enumerate(values) if i != mine]
    margin = float(values[mine] - max(others)) if others else float(values[mine])
    if game.cooperative and state["flow"]["over"]:
        outcome = game.results(state)["outcome"]
        margin += VERDICT if outcome == "won" else -VERDICT if outcome == "lost" else 0.0
    return margin


def _squash(x: float, size: float) -> float:
    """A lead (or a score) in (0, 1) relative to `size`: 0 is 1/2, and more is worth more."""
    return 0.5 + 0.5 * x / (size + 1.0)


def rewards(game, state: dict, memo=None) -> List[float]:
    """1 shared among the winning sides (every seat of a team gets its team's share); for a game
    stopped early, among the sides with the best heuristic (or score). A cooperative game: 1 for
    everyone if won, 0 if lost, its shared score squashed into (0, 1) if the rules said neither."""
    n = state["n"]
    flow = state["flow"]
    sides = game.sides(state)
    if flow["over"] and not flow["unfinished"]:
        result = game.results(state)
        if result.get("cooperative"):
            outcome = result["outcome"]
            shared = float(result["shared_score"])
            return [1.0 if outcome == "won" else 0.0 if outcome == "lost" else _squash(shared, abs(shared))] * n
        won = set(result["winners"])
        winning = [side for side in sides if side[0] in won]
    else:
        values = game.side_heuristics(state, sides, memo)
        best = max(values)
        winning = [side for side, v in zip(sides, values) if v == best]
    out = [0.0] * n
    for side in winning:
        for s in side:
            out[s] = 1.0 / len(winning)
    return out


def leaf_rewards(game, state: dict, memo=None) -> List[float]:
    """What a search judges a position by: a finished game by who won (`rewards`); a game
    cut short by each side's lead over the best other side, squashed into (0, 1) relative to
    the size of the scores, so a bigger lead is worth more and a tie is worth 1/2 (a cooperative
    game's one side by its heuristic, squashed alike)."""
    flow = state["flow"]
    if flow["over"] and not flow["unfinished"]:
        return rewards(game, state, memo)
    if game.seats_alone:
        # (each seat its own side: side_heuristics' values, 0 + value, without the sides)
        values = [float(0 + h) for h in game.heuristics(state, memo)]
        if len(values) < 2:
            return [0.5] * len(values)
        return [_squash(v - (best_other := max(values[:i] + values[i + 1:])), abs(v) + abs(best_other))
                for i, v in enumerate(values)]
    sides = game.sides(state)
    values = [float(h) for h in game.side_heuristics(state, sides, memo)]
    n = state["n"]
    if game.cooperative:
        return [_squash(values[0], abs(values[0]))] * n
    if len(values) < 2:
        return [0.5] * n
    out = [0.0] * n
    for i, side in enumerate(sides):
        best_other = max(h for k, h in enumerate(values) if k != i)
        for s in side:
            out[s] = _squash(values[i] - best_other, abs(values[i]) + abs(best_other))
    return out


def _finish_secret_choice(game, state: dict, seat: int, rng: random.Random) -> None:
    """In place, in a state a bot only scores: the other seats still to choose secretly choose
    at random (they cannot see ours)."""
    while _secret_left(state):
        waiting = [s for s in game.waiting_for(state) if s != seat]
        if not waiting:
            return
        game.apply_legal(state, game.random_move(state, waiting[0], rng), in_place=True, scored_only=True)


def _secret_left(state: dict) -> bool:
    """Whether other seats are still to make a secret choice (made at random by a bot that
    only scores the state)."""
    return bool(not state["flow"]["over"] and state["pending"] and "got" in state["pending"])


def _alike(world: dict, other: dict) -> bool:
    """Whether two sampled worlds are the same state but for their random generators."""
    return {**world, "rng": None} == {**other, "rng": None}


# ---------------------------------------------------------------- greedy


class GreedyBot:
    """One-ply lookahead: the move that leaves the best margin, averaged over samples.

    The margin is the `heuristic` (the game's declared one, else the score) of the seat's side
    minus the best other side's (`score_margin`): a team mate's gain is the bot's gain too, and a
    cooperative game's verdict outweighs any score.

    Each move is tried on `samples` determinizations (the same ones for every move); other
    seats still to make the same secret choice choose at random. Ties go to the bot's generator.
    """

    PARAMS = {"samples": (int, 0, 1000), "seed": (int, 0, 2**63)}

    @classmethod
    def check_params(cls, params: str) -> dict:
        """The spec's parameters, or UsageError saying what is wrong (before any game is played)."""
        return parse_params(params, cls.PARAMS, "greedy")

    def __init__(self, game, seat: int, seed: int, params: str = ""):
        opts = self.check_params(params)
        self.game, self.seat = game, seat
        self.samples = max(1, opts.get("samples", 4))
        self.rng = bot_rng(seed, seat, "greedy", opts.get("seed"))

    def choose(self, state: dict) -> dict:
        game, seat = self.game, self.seat
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        sampler = game.resampler(state, seat)
        worlds = [sampler.draw(self.rng) for _ in range(self.samples)]
        totals = [0.0] * len(moves)
        # (most moves change a few seats' holdings: the others' heuristics, and the mover's
        # in the worlds that differ only where it does not look, are worked out once)
        memo = game.heuristics_memo()
        # A world alike the first but for its generator (nothing hidden from the seat: the
        # samples differ only in their future draws) gives a move that draws nothing, and
        # leaves no one a secret choice to make at random, the first world's margin.
        alike = [k > 0 and _alike(world, worlds[0]) for k, world in enumerate(worlds)]
        settled = [None] * len(moves)
        # (the states after the moves are scored, never played on: their choices are not
        # looked at, nor their messages written)
        last = len(moves) - 1
        for k, world in enumerate(worlds):
            drawn = world.get("rng")
            for i, move in enumerate(moves):
                if alike[k] and settled[i] is not None:
                    totals[i] += settled[i]
                    continue
                # (a world is this decision's own: its last move is tried on it, not on a copy)
                after = game.apply_legal(world, move, in_place=i == last, scored_only=True)
                secret = _secret_left(after)
                drew = secret or after.get("rng") != drawn
                if secret:
                    _finish_secret_choice(game, after, seat, self.rng)
                margin = score_margin(game, after, seat, memo)
                totals[i] += margin
                if k == 0 and not drew:
                    settled[i] = margin
        best = max(totals)
        return moves[self.rng.choice([i for i, t in enumerate(totals) if t == best])]


# ---------------------------------------------------------------- ISMCTS


# a search's default pool of worlds: one per this many iterations, within these bounds
ITERS_PER_WORLD, FEWEST_WORLDS, MOST_WORLDS = 8, 8, 64


def default_worlds(iters) -> int:
    """How many worlds a search of `iters` iterations (None: a time budget) samples by default."""
    if iters is None:
        return MOST_WORLDS
    return min(MOST_WORLDS, max(FEWEST_WORLDS, iters // ITERS_PER_WORLD))


def _key(move: dict):
    """A move's key in a search's statistics (see `_as_key`)."""
    return _as_key((move["alt"], *move["args"]))


def _as_key(raw: tuple):
    """A move's (alternative, *arguments) as a key: itself, or written out where an argument
    is a list (not hashable)."""
    try:
        hash(raw)
    except TypeError:
        return raw[0] + repr(list(raw[1:]))
    return raw


def _keys(raw: list) -> list:
    """`_as_key` of each of moves' (alternative, *arguments): the list itself where every
    argument is hashable (the usual case, found in one pass)."""
    try:
        hash(tuple(raw))
    except TypeError:
        return [_as_key(k) for k in raw]
    return raw


def _keyed(table) -> tuple:
    """A table of moves (`Game.move_table`) and its moves' keys."""
    return table, _keys(table.keys())


def new_node() -> dict:
    # st: seat -> move key -> [visits, reward sum, times available]; ch: joint key -> node;
    # ls (where listing is dear): seat -> what the seat sees -> its moves and their keys;
    # top (with `below`): seat -> the keys of its best-rated moves here
    return {"st": {}, "ch": {}}


class MctsBot:
    """Information-set MCTS (single observer, decoupled at secret choices).

    Every iteration samples a determinization of the root (what the seat cannot see is
    redrawn), walks one shared tree choosing among the moves legal in that sample by UCB with
    availability counts, adds one node, plays a random game to the end (or `depth` moves,
    then judged by the size of each seat's lead: `leaf_rewards`) and backs the rewards up.
    At a secret choice every waiting seat picks from its own statistics (decoupled UCT), so
    no seat's choice in the tree is conditioned on another's unrevealed one. Budget: `iters`
    iterations and/or `ms` milliseconds per decision (the first reached ends the search).

    With `top=K`, the search at the root looks only at the K moves that a one-ply lookahead
    (greedy's) rates best: where moves are many and the budget small, iterations go to the
    moves worth a look instead of being spread over all of them.

    `below=K` does the same at every node below the root, for the seat that moves there (so
    the replies searched are the ones a careful opponent would weigh first); `plies=P` stops
    the tree growing P moves below the root (playouts, or the judgement of `depth=0`, take
    over there): with both, a search where listing and rating moves is dear stays a few
    plies deep and looks at the best replies, not at random ones.

    `worlds=K` samples at most K determinizations per decision and then plays in copies of
    them, picked at random: a sample that must match declared public facts may take many
    draws, and a long search gains little from its thousandth world over its sixty-fourth.
    The default is a world per eight iterations, from 8 to 64 (64 for a time budget alone):
    a short search spends its time on moves, not on worlds it would visit once. 0 draws a
    new world for every iteration.
    """

    # the most of each: what one decision could hold in memory (a tree node per iteration, a
    # state per world) or spend in time (`ms`: an hour) without being a typing slip
    PARAMS = {"iters": (int, 0, 1_000_000), "ms": (float, 0, 3_600_000), "c": (float, 0, 100),
              "depth": (int, 0, 100_000), "tries": (int, 0, 10_000), "seed": (int, 0, 2**63),
              "top": (int, 0, 10_000), "worlds": (int, 0, 10_000), "below": (int, 0, 10_000),
              "plies": (int, 0, 10_000)}

    @classmethod
    def check_params(cls, params: str) -> dict:
        """The spec's parameters, or UsageError saying what is wrong (before any game is played)."""
        return parse_params(params, cls.PARAMS, "mcts")

    def __init__(self, game, seat: int, seed: int, params: str = ""):
        opts = self.check_params(params)
        self.game, self.seat = game, seat
        self.ms = opts.get("ms")
        self.iters = opts.get("iters", None if self.ms else 1000)
        self.c = opts.get("c", 0.7)
        self.depth = opts.get("depth", 400)
        self.tries = opts.get("tries", 50)
        self.top = max(0, opts.get("top", 0))
        self.below = opts.get("below", 0)
        self.plies = opts.get("plies", 0) or math.inf  # how deep the tree may grow (0: no limit)
        self.worlds = max(0, opts.get("worlds", default_worlds(self.iters)))
        self._pool: list = []  # this decision's (world, root moves) pairs, while `worlds` allows
        self._replaying = False  # whether this decision plays its pooled worlds again
        self.rng = bot_rng(seed, seat, "mcts", opts.get("seed"))
        self.iterations = 0  # iterations run in all decisions (for benchmarks)
        self.errors = 0      # iterations abandoned because a rule failed in a sample
        self._own: tuple = ((), ())  # this decision's moves for the seat and their keys
        # at the root, the seat's moves not yet visited (their keys, in order; None: keys
        # repeat, and the general selection counts them) and the iterations that chose there
        self._untried, self._own_picks = None, 0
        self._own_by_key: dict = {}
        self._memo = None
        self._sampler = None

    def choose(self, state: dict) -> dict:
        game, seat = self.game, self.seat
        moves = game.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        root = new_node()
        self._pool, self._replaying = [], False
        self._sampler = game.resampler(state, seat)  # (this decision's worlds)
        self._memo = game.heuristics_memo()  # (for this decision's states)
        # (the scores in a new world are never found, but the worlds are played again)
        self._memo.hold_judgement(self.worlds > 0)
        deadline = time.perf_counter() + self.ms / 1000.0 if self.ms else None
        if self.top and len(moves) > self.top:
            shortlist = self._shortlist(state, moves)
            moves = [m for m in moves if _key(m) in shortlist]
        # The seat's own moves at the root are the ones it is shown, in every sampled world:
        # they are what it knows, and listing them again per world cost most of the search
        # where a listing is dear (a word game's placements).
        keys = _keys([(m["alt"], *m["args"]) for m in moves])
        self._own = (moves, keys)
        self._own_by_key = dict(zip(keys, moves))
        self._untried, self._own_picks = None, 0
        if len(self._own_by_key) == len(keys):
            root["st"][seat] = {k: [0, 0.0, 1] for k in keys}
            self._untried = list(keys)
        done = 0
        while (self.iters is None or done < self.iters) and (deadline is None or time.perf_counter() < deadline):
            self._iterate(root, state)
            done += 1
        self.iterations += done
        stats = root["st"].get(seat, {})
        best = max(range(len(moves)), key=lambda i: tuple(stats.get(keys[i], (0, 0.0))[:2]))
        return moves[best]

    def _shortlist(self, state: dict, moves: List[dict]) -> set:
        """The keys of the `top` moves with the best one-ply margin in one sampled world."""
        world = self._sampler.draw(self.rng, self.tries)
        return self._best_keys(world, self.seat, moves, self.top)

    def _best_keys(self, world: dict, seat: int, moves: List[dict], k: int) -> set:
        """The keys of the k moves that leave `seat` the best one-ply margin in this world
        (the first listed first among equals)."""
        game = self.game
        margins = []
        for i, move in enumerate(moves):
            after = game.apply_legal(world, move, scored_only=True)
            _finish_secret_choice(game, after, seat, self.rng)
            margins.append((score_margin(game, after, seat, self._memo), -i))
        order = sorted(range(len(moves)), key=lambda i: margins[i], reverse=True)
        return {_key(moves[i]) for i in order[:k]}

    def _node_shortlist(self, node: dict, world: dict, seat: int, legal, keys: list):
        """With `below`: of a seat's moves at a node below the root, the `below` best by a
        one-ply look, rated in the first world that reaches the node and kept for the worlds
        after it as far as they allow those moves (rated again where they allow none)."""
        moves = legal if type(legal) is list else legal.moves()
        best = node.setdefault("top", {}).get(seat)
        if best is None or not any(k in best for k in keys):
            best = node["top"][seat] = self._best_keys(world, seat, moves, self.below)
        kept = [i for i, k in enumerate(keys) if k in best]
        return [moves[i] for i in kept], [keys[i] for i in kept]

    def _world(self, state: dict):
        """A determinization of the root to play this iteration in (its own copy), and the
        root's moves listed in that world so far (seat -> (moves, keys)), shared by every
        iteration played in a copy of the same world."""
        pool = self._pool
        if self.worlds and len(pool) >= self.worlds:
            if not self._replaying:
                self._replaying = True
                self._memo.hold_judgement(False)
            world, root_moves = pool[self.rng.randrange(len(pool))]
            world = self.game.clone(world)
            world["rng"] = self.rng.getrandbits(64)  # the hidden cards repeat; the future draws need not
            return world, root_moves
        world, root_moves = self._sampler.draw(self.rng, self.tries), {}
        if self.worlds:
            pool.append((self.game.clone(world), root_moves))
        return world, root_moves

    def _root_moves(self, world: dict, seat: int, cache: dict):
        """A seat's legal moves at the root of this world and their keys: the searching seat's
        as it was shown them, another's (a secret choice) listed once per world."""
        if seat == self.seat:
            return self._own
        listed = cache.get(seat)
        if listed is None:
            listed = cache[seat] = _keyed(self.game.move_table(world, seat))
        return listed

    def node_moves(self, node: dict, world: dict, seat: int):
        """A seat's legal moves at a node below the root (a table: `Game.move_table`) and
        their keys. A choice whose moves come from a typed
        alternative's `suggest` search (a word game's every placement) is listed once for all
        the worlds that look the same to the seat there — the same view and the same rules
        under way — since what a seat may choose follows from what it sees."""
        game = self.game
        if not game.has_typed_moves(world, seat):
            return _keyed(game.move_table(world, seat))
        # (written out by repr: marshal's bytes depend on which values the state shares, and
        # a copy shares them differently from the state it was made from)
        seen = repr((self.game.view(world, seat), world["stack"], world["pending"]))
        listed = node.setdefault("ls", {}).setdefault(seat, {})
        hit = listed.get(seen)
        if hit is None:
            hit = listed[seen] = _keyed(game.move_table(world, seat))
        return hit

    def _select(self, stats: dict, keys: list) -> int:
        """Which of the moves with these keys UCB picks (a fresh one first, at random)."""
        fresh = []
        best, best_value = None, -1.0
        log, sqrt, c, get = math.log, math.sqrt, self.c, stats.get
        for i, k in enumerate(keys):
            e = get(k)
            if e is None:
                stats[k] = [0, 0.0, 1]
                fresh.append(i)
                continue
            e[2] = available = e[2] + 1
            visits = e[0]
            if visits == 0:
                fresh.append(i)
            elif not fresh:
                value = e[1] / visits + c * sqrt(log(available) / visits)
                if value > best_value:
                    best, best_value = i, value
        if fresh:
            return self.rng.choice(fresh)
        return best

    def _select_own(self, stats: dict):
        """`_select` at the root for the searching seat, whose moves are the same in every
        world: the same pick, without a pass over every move while some are unvisited (each
        is available as often as the root was chosen from)."""
        self._own_picks += 1
        if self._untried:
            k = self.rng.choice(self._untried)
            return self._own_by_key[k], k
        best, best_value = None, -1.0
        log_available, sqrt, c = math.log(self._own_picks), math.sqrt, self.c
        for m, k in zip(*self._own):
            visits, total = stats[k][0], stats[k][1]
            value = total / visits + c * sqrt(log_available / visits)
            if value > best_value:
                best, best_value = (m, k), value
        return best

    def _iterate(self, root: dict, state: dict) -> None:

        game, rng = self.game, self.rng
        world, root_moves = self._world(state)
        path = []
        node = root
        try:
            while not world["flow"]["over"] and len(path) < self.plies:
                waiting = game.waiting_for(world)
                if not waiting:
                    break
                picks = []
                for s in waiting:
                    # (the moves: a list shared by the iterations, or a table, whose moves
                    # are handed out as copies)
                    if node is root:
                        legal, keys = self._root_moves(world, s, root_moves)
                    else:
                        legal, keys = self.node_moves(node, world, s)
                        if self.below and len(keys) > self.below:
                            legal, keys = self._node_shortlist(node, world, s, legal, keys)
                    if node is root and s == self.seat and self._untried is not None:
                        move, key = self._select_own(node["st"][s])
                        move = clone(move)
                    else:
                        i = self._select(node["st"].setdefault(s, {}), keys)
                        key = keys[i]
                        move = clone(legal[i]) if type(legal) is list else legal.at(i)
                    picks.append((s, move, key))
                joint = picks[0][2] if len(picks) == 1 else tuple(key for _, _, key in picks)
                child = node["ch"].get(joint)
                # (a state judged where it stands, with no playout, is never played on:
                # its choice is not looked at, nor its messages written)
                ahead = self.depth > 0 or (child is not None and len(path) + 1 < self.plies)
                for _, move, _ in picks:
                    game.apply_legal(world, move, in_place=True, quiet=True, scored_only=not ahead)
                path.append((node, picks))
                if child is None:
                    node["ch"][joint] = new_node()
                    break
                node = child
            steps = 0
            while not world["flow"]["over"] and steps < self.depth:
                waiting = game.waiting_for(world)
                if not waiting:
                    break
                game.apply_legal(world, game.random_move(world, waiting[0], rng), in_place=True, quiet=True)
                steps += 1
        except RuleError:
            self.errors += 1
            return
        reward = leaf_rewards(game, world, self._memo)
        for node, picks in path:
            for s, _, key in picks:
                e = node["st"][s][key]
                e[0] += 1
                e[1] += reward[s]
                if e[0] == 1 and node is root and s == self.seat and self._untried is not None:
                    self._untried.remove(key)
