"""`gamedsl simulate`: many bot games across worker processes, one JSON record per game.

Game i of a run has seed `seed + i`; with `rotate`, its seats are the given specs turned
by i places (so every bot sits in every seat equally often). Each worker loads the game
once and instruments it for rule coverage (gamedsl/sim/coverage.py); records come back in any
order and are sorted by game, so the same seed gives the same records with any number of
jobs. A game whose rules fail is recorded with its error, and a bot that fails (an external
bot's unreadable answer, a crash in a bot's code) forfeits its seat's game; neither stops the run.

Where the games run is the caller's choice: this process (`jobs=1`), a pool of local worker
processes, or a Dask cluster (`cluster=`, gamedsl/sim/cluster.py). Each finished game is handed
to `on_record` as it arrives, so a caller can keep it at once; Ctrl-C stops the run and returns
the games finished so far, marked incomplete.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from contextlib import nullcontext
from typing import Callable, Iterable, List, Optional

import attrs

from gamedsl.sim import cluster as dask_cluster
from gamedsl.sim.coverage import Coverage, merge
from gamedsl.bots.external import ExternalBot, Forfeit
from gamedsl.bots.registry import make_bot
from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load

_WORKER: dict = {}
_THREAD = threading.local()  # on a cluster worker: this thread's game, loaded once per bundle


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
    complete: bool = True   # False: stopped (Ctrl-C) before every game had been played


def seats_for(spec: SimSpec, index: int) -> List[str]:
    n = len(spec.seats)
    shift = index % n if spec.rotate else 0
    return [spec.seats[(s + shift) % n] for s in range(n)]


SIDE_KEYS = ("cooperative", "outcome", "shared_score", "teams", "team_scores")


def play_one(game, spec: SimSpec, index: int, coverage: Optional[Coverage] = None) -> dict:
    """Play game `index` of a run to its end and describe it as one plain record. `coverage`
    (observing `game`) counts what the game's own moves run, not what its bots try while they
    search, nor a bot's making."""
    looking_away = coverage.looking_away if coverage is not None else nullcontext
    seed = spec.seed + index
    seats = seats_for(spec, index)
    record = {"game": index, "seed": seed, "seats": seats, "scores": None, "ranks": None, "winners": [],
              "turns": 0, "moves": 0, "finished": False, "unfinished": False, "fields": {},
              "forfeit": None, "error": None}
    bots = []
    state = None
    try:
        with looking_away():
            bots = [make_bot(s, game, i, seed, spec.key) for i, s in enumerate(seats)]
        state = game.new_game(len(seats), seed, spec.options, spec.max_turns, key=spec.key)
        moves = 0
        while not game.is_over(state):
            waiting = game.waiting_for(state)
            if not waiting:
                raise RuleError("E503", "the rules wait for no player but the game is not over")
            with looking_away():
                move = _choose(bots, waiting[0], state)
            if isinstance(bots[waiting[0]], ExternalBot):
                state = game.apply(state, move)  # (another program's answer: checked, on a copy)
            else:
                # a move of the engine's own bots is one of the seat's legal moves: played in
                # place, as a playout is (no bot keeps the state it was asked about)
                state = game.apply_legal(state, move, in_place=True)
            moves += 1
        record["moves"] = moves
        result = game.results(state)
        record.update(scores=result["scores"], ranks=result["ranks"], winners=result["winners"],
                      turns=result["turns"], finished=result["finished"], unfinished=result["unfinished"],
                      fields=result["fields"])
        # a cooperative game's shared result, a team game's teams (reported as such)
        record.update({k: result[k] for k in SIDE_KEYS if k in result})
    except Forfeit as f:
        n = len(seats)
        record.update(forfeit=f.seat, winners=[s for s in range(n) if s != f.seat], error=f.message)
        if state is not None:
            record["turns"] = state["flow"]["turns"]
    except (RuleError, MoveError) as err:
        record["error"] = str(err)
    except RecursionError:  # rules nested beyond Python's stack: this game's error, not the run's
        record["error"] = "the rules recurse too deeply"
    finally:
        problems = {str(i): b.problems for i, b in enumerate(bots) if getattr(b, "problems", None)}
        if problems:
            record["bot_problems"] = problems
        for b in bots:
            if hasattr(b, "close"):
                b.close()
    return record


def _choose(bots: list, seat: int, state: dict) -> dict:
    """The seat's bot's move. A bot that fails in a way of its own (not the rules' fault, nor
    a refused move) forfeits this game only: one external bot answering with JSON nested too
    deeply to read must not abort a run of thousands of games."""
    try:
        return bots[seat].choose(state)
    except (Forfeit, RuleError, MoveError):
        raise
    except RecursionError:
        raise Forfeit(seat, "its bot failed: an answer nested too deeply to read") from None
    except Exception as err:  # noqa: BLE001 - whatever a bot's own code raises
        raise Forfeit(seat, f"its bot failed: {type(err).__name__}: {str(err)[:200]}") from None


def _init_worker(spec: SimSpec, game=None, pool: bool = False) -> None:
    if pool:  # Ctrl-C is the parent's to handle: it stops the pool and keeps what finished
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if game is None:
        game = load(spec.path, max_steps=spec.max_steps)
    _WORKER.update(game=game, coverage=Coverage(game), spec=spec)


def _work(index: int):
    cov = _WORKER["coverage"]
    cov.reset()
    record = play_one(_WORKER["game"], _WORKER["spec"], index, cov)
    return record, cov.counts()


def _play_chunk(bundle, spec: SimSpec, start: int, stop: int):
    """A cluster task: games start..stop-1 of a run, on a worker, with the game loaded from
    the bundle of its files once per worker thread (Coverage instruments a game in place, so
    two threads must not share one)."""
    key = (bundle.digest, spec.max_steps)
    loaded = getattr(_THREAD, "loaded", None)
    if loaded is None or loaded[0] != key:
        game = load(dask_cluster.materialize(bundle), max_steps=spec.max_steps)
        loaded = _THREAD.loaded = (key, game, Coverage(game))
    _, game, cov = loaded
    records, counts = [], {}
    began = time.perf_counter()
    for index in range(start, stop):
        cov.reset()
        records.append(dask_cluster.as_shown(play_one(game, spec, index, cov), bundle))
        merge(counts, cov.counts())
    return records, counts, time.perf_counter() - began  # the time sizes the next chunks


def run(spec: SimSpec, jobs: Optional[int] = None,
        on_game: Optional[Callable[[int], None]] = None,
        on_record: Optional[Callable[[dict], None]] = None,
        cluster=None) -> SimRun:
    """Play the run's games on `jobs` processes (default: every core; 1: in this process), or
    on a Dask cluster (`cluster`: a scheduler's address, `local[:N]`, or a dask Client).

    `on_record(record)` gets each finished game as it arrives (in any order), `on_game(done)`
    the number finished so far. Ctrl-C (KeyboardInterrupt) stops the games still running and
    returns the finished ones with `complete=False`.
    """
    game = load(spec.path, max_steps=spec.max_steps)  # errors in the file surface here, before any worker starts
    resolved = game.resolve_options(spec.options)
    jobs = max(1, min(jobs or os.cpu_count() or 1, spec.games or 1))
    started = time.perf_counter()
    records: List[dict] = []
    coverage: dict = {}

    def collect(results: Iterable):
        for chunk, counts in results:
            merge(coverage, counts)  # a chunk is taken whole, so records and coverage agree if stopped
            records.extend(chunk)
            for record in chunk:
                if on_record is not None:
                    on_record(record)
            if on_game is not None:
                on_game(len(records))

    complete = True
    try:
        if cluster is not None:
            def connected(_client) -> None:  # games/s counts the games, not the cluster's start-up
                nonlocal started
                started = time.perf_counter()

            chunks = dask_cluster.run_chunks(spec, cluster, _play_chunk, seats_for, on_start=connected)
            try:
                collect(chunks)
            finally:
                chunks.close()  # cancels the tasks still running, at once (Ctrl-C, an error)
        elif jobs == 1:
            _init_worker(spec, game)
            try:
                collect(([record], counts) for record, counts in map(_work, range(spec.games)))
            finally:
                _WORKER.clear()
        else:
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            ctx = multiprocessing.get_context(method)
            # A forked worker inherits the game loaded above (initargs are not pickled then), so it
            # need not read, check and compile the file again; a spawned one must load it.
            initargs = (spec, game, True) if method == "fork" else (spec, None, True)
            with ctx.Pool(jobs, initializer=_init_worker, initargs=initargs) as pool:
                chunk = max(1, min(8, spec.games // (jobs * 8)))
                collect(([record], counts) for record, counts
                        in pool.imap_unordered(_work, range(spec.games), chunksize=chunk))
    except KeyboardInterrupt:
        complete = False  # the pool or the cluster's tasks are stopped on the way out
    records.sort(key=lambda r: r["game"])
    return SimRun(spec, records, coverage, time.perf_counter() - started, resolved, complete)
