"""A simulation's games on a Dask cluster: `--cluster ADDRESS` (a running scheduler) or
`--cluster local[:N]` (a LocalCluster of N worker processes on this machine).

What is sent. The game goes as a bundle of its files' bytes — the .game file, the drafts it
`extends`, and the table and word-list files it reads — named relative to its folder,
scattered once to every worker; each task carries the run's spec (seats, options, seed,
bounds) and a range of game indices. A worker writes the bundle into a temporary folder of
its own and loads it once (per worker thread), so the workers need gamedsl installed (the
same version) but no filesystem shared with this machine. An error message naming the
worker's copy of a file is given back naming the designer's file, so records are the same
as a local run's.

Chunks. A task is a range of games; the first are of one game, the next of about a second
of play by the time per game measured so far (see CHUNK_SECONDS). Chunks come back as they
finish, in any order; the caller sorts records by game.
Game i has seed + i and its seats whatever chunk or worker plays it, so the records are the
same for any number of workers.

Faults. A worker that dies has its running chunks run again elsewhere by the scheduler, and
a chunk's result is taken once, from the run that finishes: no game is lost, none counted
twice. A chunk that kills worker after worker (Dask's KilledWorker) has each of its games
recorded as an error for its seed, and the run goes on. When every worker that held the
game's files has died, the scheduler drops the chunks waiting on them: the files are shipped
again and those chunks run again (a chunk dropped RESHIPS times over has its games recorded
as errors). Stopping the generator (Ctrl-C in the caller) cancels every task still queued or
running.

Dask is an optional dependency (`pip install 'gamedsl[cluster]'`), imported only here and
only when a cluster is asked for.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import logging
import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import attrs

from gamedsl.errors import UsageError
from gamedsl.pipeline import parse_with_extends
from gamedsl.syntax import ast as A

# Chunk sizes. The first chunks are of one game each; then each chunk holds about
# CHUNK_SECONDS of play, from the seconds per game the workers measured so far: long enough
# that the scheduler's cost per task (about a millisecond; 5 on this loaded 2-core machine) is
# a small share even of fast games on many cores, short enough for a live progress bar and for
# little work run again when a worker dies. Near the end chunks shrink so every thread has
# work. At most IN_FLIGHT tasks per worker thread are submitted at a time: a million-game run
# is not a million futures.
# On a large cluster chunks grow past CHUNK_SECONDS so the scheduler sees at most about
# TASKS_PER_SECOND tasks a second (a fifth of what one scheduler handles): 1,000 worker
# threads get chunks of about 5 s.
CHUNK_SECONDS = 1.0
TASKS_PER_SECOND = 200
MAX_CHUNK = 5000
IN_FLIGHT = 2
# times a chunk is run again after the game's files were lost with every worker holding them
RESHIPS = 3
CONNECT_TIMEOUT = "10s"

_LOCAL = re.compile(r"local(?::(\d+))?$")


def parse_target(text: str) -> Tuple[str, object]:
    """`local` / `local:N` -> ("local", N or None); a scheduler's address -> ("address", text)."""
    text = text.strip()
    m = _LOCAL.match(text)
    if m:
        n = int(m.group(1)) if m.group(1) else None
        if n is not None and n < 1:
            raise UsageError("--cluster local:N needs at least 1 worker")
        return "local", n
    if text.startswith("local"):
        raise UsageError(f"--cluster '{text}': write local or local:N (N worker processes)")
    if not re.match(r"^([a-z+]+://)?[\w.\-\[\]:]+:\d+$", text):
        raise UsageError(f"--cluster '{text}' is not a scheduler's address (e.g. tcp://10.0.0.5:8786) "
                         "nor local[:N]")
    return "address", text


def dask():
    """The `distributed` package, or a clear message saying how to get it."""
    try:
        import distributed
    except ImportError:
        raise UsageError("--cluster needs Dask's distributed scheduler: pip install 'gamedsl[cluster]'") from None
    return distributed


# ---------------------------------------------------------------- the game's files


@attrs.frozen
class Bundle:
    main: str                              # the game file, relative to its folder (posix)
    files: Tuple[Tuple[str, bytes], ...]   # (relative name, bytes) of every file the game reads
    shown: str                             # the folder's prefix as the designer's paths show it
    digest: str

    @property
    def size(self) -> int:
        return sum(len(b) for _, b in self.files)


def bundle_of(path: str) -> Bundle:
    """The files loading `path` reads: itself, the drafts it extends, its tables and word lists.
    A game may only name files beside or below it, so each has a name relative to its folder."""
    loaded = parse_with_extends(path)
    folder = Path(path).parent
    names: List[str] = list(loaded.sources)
    for d in (loaded.game.decls if loaded.game is not None else ()):
        if isinstance(d, A.TableDecl) and d.source:
            names.append(str(Path(d.span.file).parent / d.source))
        elif isinstance(d, A.WordsDecl):
            names.extend(wl.path for _, wl in d.lists)
    files: Dict[str, bytes] = {}
    for name in names:
        rel = Path(os.path.relpath(name, folder)).as_posix()
        if rel not in files:
            try:
                files[rel] = Path(name).read_bytes()
            except OSError as err:
                raise UsageError(f"cannot read {name} to send it to the cluster: {err.strerror or err}") from None
    main = Path(os.path.relpath(path, folder)).as_posix()
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + hashlib.sha256(files[rel]).digest())
    shown = "" if str(folder) == "." else str(folder) + os.sep
    return Bundle(main, tuple(sorted(files.items())), shown, digest.hexdigest())


_MATERIALIZED: Dict[str, str] = {}
_MATERIALIZE_LOCK = threading.Lock()


def materialize(bundle: Bundle) -> str:
    """On a worker: the bundle's files in a folder of this process (written once per bundle);
    returns the game file's path there."""
    with _MATERIALIZE_LOCK:
        folder = _MATERIALIZED.get(bundle.digest)
        if folder is None:
            folder = tempfile.mkdtemp(prefix="gamedsl-")
            atexit.register(shutil.rmtree, folder, True)
            for rel, data in bundle.files:
                target = Path(folder, *rel.split("/"))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            _MATERIALIZED[bundle.digest] = folder
    return str(Path(folder, *bundle.main.split("/")))


def as_shown(record: dict, bundle: Bundle) -> dict:
    """A worker's record with its copy's folder named as the designer named theirs."""
    folder = _MATERIALIZED.get(bundle.digest)
    if folder is None:
        return record
    prefix = folder + os.sep
    for key in ("error",):
        if isinstance(record.get(key), str):
            record[key] = record[key].replace(prefix, bundle.shown)
    return record


# ---------------------------------------------------------------- running on a cluster


def _ctrl_c_watcher() -> Optional[subprocess.Popen]:
    """A process of this one's group that Ctrl-C stops (it neither ignores nor handles it:
    `sleep`), or None where none can be started."""
    try:
        return subprocess.Popen(["sleep", "3600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None


def _pressed(watcher: Optional[subprocess.Popen]) -> bool:
    """Whether Ctrl-C stopped the watcher (which is stopped now, either way)."""
    if watcher is None:
        return False
    stopped = watcher.poll()
    if stopped is None:
        watcher.kill()
        watcher.wait()
    return stopped == -signal.SIGINT


class _Connection:
    """A client of a running scheduler, or of a LocalCluster started (and stopped) here."""

    def __init__(self, target):
        distributed = dask()
        self.cluster = None
        self.own_client = True
        if isinstance(target, distributed.Client):
            self.client, self.own_client = target, False
            return
        kind, value = parse_target(str(target))
        if kind == "local":
            # Ctrl-C reaches every process of the terminal's group; it is this process's to
            # handle (cancel, keep what finished), so the workers are started ignoring it: this
            # process ignores it while they start (they inherit that), and a watcher started
            # before, which does not ignore it, tells whether it was pressed meanwhile. A
            # task's failure reaches this process as the task's error; what the workers would
            # log besides (a heartbeat to a scheduler closing under Ctrl-C, with its traceback)
            # is not the user's to read, so only a critical failure of theirs is shown.
            main = threading.current_thread() is threading.main_thread()
            watcher = _ctrl_c_watcher() if main else None
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:
                self.cluster = distributed.LocalCluster(
                    n_workers=value or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL)
            finally:
                if main:
                    signal.signal(signal.SIGINT, previous)
                pressed = _pressed(watcher)  # (the watcher stopped, whatever happened)
            if pressed:
                self.cluster.close()
                raise KeyboardInterrupt
            self.client = distributed.Client(self.cluster)
            return
        try:
            self.client = distributed.Client(value, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as err:
            raise UsageError(f"cannot reach the Dask scheduler at {value}: {err}") from None

    def threads(self) -> int:
        workers = self.client.scheduler_info().get("workers", {})
        return sum(w.get("nthreads", 1) for w in workers.values()) or 1

    def close(self) -> None:
        if self.own_client:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


@contextlib.contextmanager
def session(target):
    """One connection for several runs (compare's two drafts): a LocalCluster is started
    once. Yields what `run_chunks` takes as its target."""
    if target is None:
        yield None
        return
    conn = _Connection(target)
    try:
        yield conn.client
    finally:
        conn.close()


def chunk_size(per_game: Optional[float], remaining: int, threads: int) -> int:
    """Games in the next chunk: one until a game's time is known, then about CHUNK_SECONDS of
    play, never more than an even share of what is left among the chunks in flight (so the
    last ones finish together rather than one worker finishing alone)."""
    if per_game is None:
        return 1
    seconds = max(CHUNK_SECONDS, threads / TASKS_PER_SECOND)
    size = int(seconds / per_game) if per_game > 0 else MAX_CHUNK
    share = math.ceil(remaining / (IN_FLIGHT * max(1, threads)))
    return max(1, min(size, MAX_CHUNK, share))


def _lost(spec, start: int, stop: int, seats_for: Callable, why: str) -> List[dict]:
    return [{"game": i, "seed": spec.seed + i, "seats": seats_for(spec, i), "scores": None, "ranks": None,
             "winners": [], "turns": 0, "moves": 0, "finished": False, "unfinished": False, "fields": {},
             "forfeit": None, "error": why} for i in range(start, stop)]


def run_chunks(spec, target, task: Callable, seats_for: Callable,
               on_start: Optional[Callable[[object], None]] = None) -> Iterator[Tuple[List[dict], dict]]:
    """Yield (records, coverage counts) per chunk of the run's games as each finishes on the
    cluster. `task(bundle, spec, start, stop)` plays a chunk on a worker. Closing the generator
    early (an exception in the caller, Ctrl-C) cancels the tasks not yet finished."""
    distributed = dask()
    bundle = bundle_of(spec.path)
    conn = _Connection(target)
    futures: Dict[str, object] = {}   # key -> a chunk's future not yet taken
    try:
        if on_start is not None:
            on_start(conn.client)
        shipped = [conn.client.scatter(bundle, broadcast=True, hash=True)]  # (the files, as last shipped)
        run_id = hashlib.sha256(os.urandom(8)).hexdigest()[:8]
        ranges: Dict[str, Tuple[int, int, int, int]] = {}  # key -> start, stop, runs, the files' shipping
        finished = distributed.as_completed()
        threads, asked = conn.threads(), time.monotonic()
        next_game, timed_games, timed_seconds = 0, 0, 0.0

        def submit(start: int, stop: int, runs: int = 0) -> None:
            key = f"gamedsl-{run_id}-{start}-{stop}" + (f"-again{runs}" if runs else "")
            futures[key] = conn.client.submit(task, shipped[-1], spec, start, stop, pure=False, key=key)
            ranges[key] = (start, stop, runs, len(shipped))
            finished.add(futures[key])

        def submit_more() -> None:
            nonlocal next_game, threads, asked
            if time.monotonic() - asked > 2:  # workers may join or leave a real cluster
                threads, asked = conn.threads(), time.monotonic()
            per_game = timed_seconds / timed_games if timed_games else None
            while next_game < spec.games and len(futures) < IN_FLIGHT * threads:
                start = next_game
                stop = start + chunk_size(per_game, spec.games - start, threads)
                submit(start, stop)
                next_game = stop

        submit_more()
        for future in finished:
            start, stop, runs, shipping = ranges.pop(future.key)
            try:
                records, counts, seconds = future.result()
            except CancelledError:  # (not by this process: the files it waited on were lost)
                del futures[future.key]
                future.release()
                if runs < RESHIPS:
                    if shipping == len(shipped):  # (not shipped again since this chunk was sent)
                        shipped.append(conn.client.scatter(bundle, broadcast=True, hash=True))
                    submit(start, stop, runs + 1)
                    continue
                records, counts, seconds = _lost(spec, start, stop, seats_for,
                                                 "the cluster lost the game's files each time it was run"), {}, 0.0
                submit_more()
                yield records, counts
                continue
            except distributed.KilledWorker:
                records, counts, seconds = _lost(spec, start, stop, seats_for,
                                                 "its worker died each time it was run (out of memory? a crash?)"), {}, 0.0
            except Exception as err:  # noqa: BLE001 - a worker that cannot run gamedsl at all
                raise UsageError(f"the cluster's workers could not play the games ({type(err).__name__}: "
                                 f"{err}); is gamedsl, the same version, installed on every worker?", 1) from None
            del futures[future.key]
            future.release()
            timed_games += stop - start if seconds else 0
            timed_seconds += seconds
            submit_more()
            yield records, counts
    finally:
        if futures:
            conn.client.cancel(list(futures.values()))
        conn.close()
