"""`gamedsl simulate` on local processes (`--jobs 2`) against a Dask LocalCluster of as many
worker processes (`--cluster local:2`) on this machine, and Dask's own cost per task.

    python benchmarks/cluster.py [--games N] [--rounds R] [--workers W] [--tasks T] [FILE...]

For each game: games/s (wall, median of R rounds, alternating the two ways) with random bots,
and the cluster's extra cost per game. Then the scheduler's cost per task: T empty tasks
submitted at once (throughput: what bounds a large cluster) and one task at a time (round
trip: what a single chunk waits). The cluster is started once, outside the timings; its
start-up is printed apart. benchmarks/README.md works the figures out for 1,000 cores.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, machine_line  # noqa: E402
from gamedsl.sim import cluster as dask_cluster  # noqa: E402
from gamedsl.sim.simulate import SimSpec, run  # noqa: E402

DEFAULT_GAMES = ["examples/high_card.game", "games/trade_tycoon.game"]


def _noop(x):
    return x


def cpu_now() -> float:
    """CPU seconds of this process (the client and a LocalCluster's scheduler), its reaped
    children (a finished pool's workers) and its live ones (the cluster's nannies and workers)."""
    import psutil

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = time.process_time() + kids.ru_utime + kids.ru_stime
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def rate(spec: SimSpec, **where) -> tuple:
    """(games/s, wall; CPU ms per game, every process)."""
    cpu = cpu_now()
    sim = run(spec, **where)
    cpu = cpu_now() - cpu
    if len(sim.records) != spec.games or any(r["error"] for r in sim.records):
        raise SystemExit(f"{spec.path}: a simulated game failed or went missing")
    return spec.games / sim.seconds, 1000 * cpu / spec.games


def task_costs(client, tasks: int) -> tuple:
    """(ms per task with T submitted at once, ms per single task's round trip)."""
    client.gather(client.map(_noop, range(10), pure=False))  # warm: the function is on the workers
    started = time.perf_counter()
    client.gather(client.map(_noop, range(tasks), pure=False))
    burst = (time.perf_counter() - started) / tasks
    trips = []
    for i in range(min(50, tasks)):
        started = time.perf_counter()
        client.submit(_noop, i, pure=False).result()
        trips.append(time.perf_counter() - started)
    return 1000 * burst, 1000 * statistics.median(trips)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", default=DEFAULT_GAMES, metavar="FILE")
    ap.add_argument("--games", type=int, default=600, help="games per run (default 600)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each way, alternating (default 3)")
    ap.add_argument("--workers", type=int, default=2, help="--jobs W against --cluster local:W (default 2)")
    ap.add_argument("--tasks", type=int, default=1000, help="empty tasks for the per-task cost (default 1000)")
    args = ap.parse_args(argv)
    distributed = dask_cluster.dask()
    print(machine_line())
    started = time.perf_counter()
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        print(f"LocalCluster of {args.workers} worker processes started in {time.perf_counter() - started:.1f} s")
        print()
        print(f"| game | games | --jobs {args.workers} (games/s) | --cluster local:{args.workers} (games/s) | "
              f"ratio | extra wall ms per game and worker | CPU ms per game, --jobs | CPU ms per game, --cluster |")
        print("|---|---|---|---|---|---|---|---|")
        for path in args.files:
            players = 3 if "tycoon" in path else 2
            spec = SimSpec(path=str(ROOT / path), seats=["random"] * players, games=args.games, seed=1)
            local, remote = [], []
            for _ in range(args.rounds):
                local.append(rate(spec, jobs=args.workers))
                remote.append(rate(spec, cluster=client))
            lr, cr = (statistics.median(r for r, _ in ways) for ways in (local, remote))
            lc, cc = (statistics.median(c for _, c in ways) for ways in (local, remote))
            extra = 1000 * args.workers * (1 / cr - 1 / lr)
            print(f"| {path} | {args.games} | {lr:.1f} | {cr:.1f} | {cr / lr:.2f}x | {extra:.2f} | {lc:.2f} | {cc:.2f} |")
        burst, trip = task_costs(client, args.tasks)
        print()
        print(f"Dask's cost per task on this machine: {burst:.2f} ms each with {args.tasks} submitted at once "
              f"({1000 / burst:.0f} tasks/s through the scheduler), {trip:.2f} ms for one task's round trip")
        print(f"chunks: one game each at first, then about {dask_cluster.CHUNK_SECONDS:g} s of play "
              f"(at most {dask_cluster.MAX_CHUNK} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
