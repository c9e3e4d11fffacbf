"""`gamedsl simulate`: many bot games across worker processes, one JSON record per game.

Game i of a run has seed `seed + i`; with `rotate`, its seats are the given specs turned
by i places (so every bot sits in every seat equally often). Each worker loads the game
once and instruments it for rule coverage (gamedsl/sim/coverage.py); records come back in any
order and are sorted by game, so the same seed gives the same records with any number of
jobs. A game whose rules fail is recorded with its error; it does not stop the run.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Callable, Iterable, List, Optional

import attrs

from gamedsl.sim.coverage import Coverage, merge
from gamedsl.bots.external import Forfeit
from gamedsl.bots.registry import make_bot
from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load

_WORKER: dict = {}


@attrs.define
class SimSpec:
    path: str
    seats: List[str]
    games: int
    seed: int = 1
    options: dict = attrs.Factory(dict)
    max_turns: int = 5000
    rotate: bool = False
    max_steps: Optional[int] = None   # the step budget (None: the engine's default)
    key: Optional[str] = None         # the host's secret the deals are drawn with (None: the seeds alone)


@attrs.define
class SimRun:
    spec: SimSpec
    records: List[dict]
    coverage: dict
    seconds: float
    resolved_options: dict


def seats_for(spec: SimSpec, index: int) -> List[str]:
    n = len(spec.seats)
    shift = index % n if spec.rotate else 0
    return [spec.seats[(s + shift) % n] for s in range(n)]


def play_one(game, spec: SimSpec, index: int) -> dict:
    """Play game `index` of a run to its end and describe it as one plain record."""
    seed = spec.seed + index
    seats = seats_for(spec, index)
    record = {"game": index, "seed": seed, "seats": seats, "scores": None, "ranks": None, "winners": [],
              "turns": 0, "moves": 0, "finished": False, "unfinished": False, "fields": {},
              "forfeit": None, "error": None}
    bots = []
    state = None
    try:
        bots = [make_bot(s, game, i, seed, spec.key) for i, s in enumerate(seats)]
        state = game.new_game(len(seats), seed, spec.options, spec.max_turns, key=spec.key)
        moves = 0
        while not game.is_over(state):
            waiting = game.waiting_for(state)
            if not waiting:
                raise RuleError("E503", "the rules wait for no player but the game is not over")
            move = bots[waiting[0]].choose(state)
            state = game.apply(state, move)
            moves += 1
        record["moves"] = moves
        result = game.results(state)
        record.update(scores=result["scores"], ranks=result["ranks"], winners=result["winners"],
                      turns=result["turns"], finished=result["finished"], unfinished=result["unfinished"],
                      fields=result["fields"])
    except Forfeit as f:
        n = len(seats)
        record.update(forfeit=f.seat, winners=[s for s in range(n) if s != f.seat], error=f.message)
        if state is not None:
            record["turns"] = state["flow"]["turns"]
    except (RuleError, MoveError) as err:
        record["error"] = str(err)
    finally:
        problems = {str(i): b.problems for i, b in enumerate(bots) if getattr(b, "problems", None)}
        if problems:
            record["bot_problems"] = problems
        for b in bots:
            if hasattr(b, "close"):
                b.close()
    return record


def _init_worker(spec: SimSpec, game=None) -> None:
    if game is None:
        game = load(spec.path, max_steps=spec.max_steps)
    _WORKER.update(game=game, coverage=Coverage(game), spec=spec)


def _work(index: int):
    cov = _WORKER["coverage"]
    cov.reset()
    record = play_one(_WORKER["game"], _WORKER["spec"], index)
    return record, cov.counts()


def run(spec: SimSpec, jobs: Optional[int] = None,
        on_game: Optional[Callable[[int], None]] = None) -> SimRun:
    """Play the run's games on `jobs` processes (default: every core; 1: in this process)."""
    game = load(spec.path, max_steps=spec.max_steps)  # errors in the file surface here, before any worker starts
    resolved = game.resolve_options(spec.options)
    jobs = max(1, min(jobs or os.cpu_count() or 1, spec.games or 1))
    started = time.perf_counter()
    records: List[dict] = []
    coverage: dict = {}

    def collect(results: Iterable):
        for record, counts in results:
            records.append(record)
            merge(coverage, counts)
            if on_game is not None:
                on_game(len(records))

    if jobs == 1:
        _init_worker(spec, game)
        try:
            collect(_work(i) for i in range(spec.games))
        finally:
            _WORKER.clear()
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        ctx = multiprocessing.get_context(method)
        # A forked worker inherits the game loaded above (initargs are not pickled then), so it
        # need not read, check and compile the file again; a spawned one must load it.
        initargs = (spec, game) if method == "fork" else (spec,)
        with ctx.Pool(jobs, initializer=_init_worker, initargs=initargs) as pool:
            chunk = max(1, min(8, spec.games // (jobs * 8)))
            collect(pool.imap_unordered(_work, range(spec.games), chunksize=chunk))
    records.sort(key=lambda r: r["game"])
    return SimRun(spec, records, coverage, time.perf_counter() - started, resolved)
